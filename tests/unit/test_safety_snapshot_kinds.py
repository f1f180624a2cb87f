"""The snapshot, round 3 (issue 23): only regular files and folders, one listing with the uploader's own ignore
rules, credentials found inside any text file (notebook outputs too), v1's limits for both backends."""

from __future__ import annotations

import errno
import json
import os
import socket
import stat
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from acpt_estimator import snapshot_guard
from acpt_estimator.exceptions import ExperimentExecutionException, SnapshotException
from acpt_estimator.snapshot import copy_snapshot, list_snapshot
from acpt_estimator.snapshot_guard import check_snapshot

SAS = ("https://acct.blob.core.windows.net/data/x.csv?sv=2022-11-02&ss=b&srt=o&sp=r&se=2027-01-01T00:00:00Z"
       "&sig=" + "Ab3dEf" * 7 + "%3D")
AAD_SECRET = "Qx8Q~" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7"  # 31-34 characters after Q~


@pytest.fixture()
def src(tmp_path, monkeypatch):
    for var in (snapshot_guard.ALLOW_SECRETS_VAR, snapshot_guard.NO_FILE_LIMIT_VAR):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store"))
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text("print('trained')\n")
    return tmp_path / "src"


def _refused(src, upload=True):
    with pytest.raises(SnapshotException) as info:
        check_snapshot(str(src), upload=upload)
    return info.value.message


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod needs root")
def test_a_character_device_is_refused_by_name_never_read(src):
    os.mknod(src / "zero", 0o600 | stat.S_IFCHR, os.makedev(1, 5))
    for upload in (True, False):
        assert "  - zero: character device" in _refused(src, upload)


def test_a_fifo_is_refused_without_opening_it(src):
    os.mkfifo(src / "pipe")
    done = threading.Event()
    thread = threading.Thread(target=lambda: (_refused(src), done.set()), daemon=True)
    thread.start()
    thread.join(20)
    assert done.is_set(), "the snapshot check opened the FIFO and hung"
    assert "  - pipe: FIFO (named pipe)" in _refused(src, upload=False)


def test_sockets_and_link_loops_are_refused_by_name(src):
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(src / "agent.sock"))
    os.symlink("self", src / "self")  # ELOOP
    (src / "pkg").mkdir()
    os.symlink("..", src / "pkg" / "up")  # a folder link back to an ancestor
    try:
        message = _refused(src)
    finally:
        sock.close()
    assert "  - agent.sock: socket" in message and "  - self: symbolic link loop" in message
    assert "  - pkg/up: symbolic link loop (it leads back to '..')" in message


def test_an_ignored_special_file_is_fine(src):
    os.mkfifo(src / "pipe")
    (src / ".amlignore").write_text("pipe\n")
    assert check_snapshot(str(src)) == [".amlignore", "train.py"]


def test_the_listing_is_the_uploaders_own_negations_included(src):
    from azure.ai.ml._utils._asset_utils import get_ignore_file, get_upload_files_from_folder

    (src / "secrets").mkdir()
    (src / "secrets" / "keep.pem").write_text("-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n")
    (src / "secrets" / "other.txt").write_text("x")
    (src / ".gitignore").write_text("secrets/\n!secrets/keep.pem\n")
    uploaded = sorted(os.path.relpath(dest, "p") for _, dest in
                      get_upload_files_from_folder(str(src), prefix="p", ignore_file=get_ignore_file(str(src))))
    assert list_snapshot(str(src)).files == uploaded == [".gitignore", "secrets/keep.pem", "train.py"]
    assert "  - secrets/keep.pem: private key" in _refused(src)


_TREE_NAMES = st.sampled_from(["a", "b", "data", "x.log", "keep.txt", "n.ipynb"])
_PATTERNS = st.sampled_from(["*.log", "data/", "!data/keep.txt", "a", "!a/x.log", "b/*", "!b/n.ipynb", "/keep.txt",
                             "**/n.ipynb", "# comment", "", "!*.txt", "data"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(paths=st.lists(st.lists(_TREE_NAMES, min_size=1, max_size=3), min_size=1, max_size=8),
       patterns=st.lists(_PATTERNS, max_size=5), link=st.booleans())
def test_property_the_listing_equals_azure_ai_mls_upload_list(tmp_path_factory, paths, patterns, link):
    from azure.ai.ml._utils._asset_utils import get_ignore_file, get_upload_files_from_folder

    root = tmp_path_factory.mktemp("tree")
    for parts in paths:
        *folders, name = parts
        folder = root.joinpath(*folders)
        if any(p.is_file() for p in [root.joinpath(*folders[:i + 1]) for i in range(len(folders))]):
            continue
        folder.mkdir(parents=True, exist_ok=True)
        if not folder.joinpath(name).is_dir():
            folder.joinpath(name).write_text("x")
    if link and (root / "data").is_dir() and not (root / "alias").exists():
        os.symlink("data", root / "alias")  # a folder link inside: both walk it, matching by the real path
    (root / ".amlignore").write_text("\n".join(patterns) + "\n")
    uploaded = sorted(os.path.relpath(dest, "p") for _, dest in
                      get_upload_files_from_folder(str(root), prefix="p", ignore_file=get_ignore_file(str(root))))
    assert list_snapshot(str(root)).files == uploaded


def test_an_ignored_link_to_a_folder_outside_is_still_refused_since_the_upload_follows_it(src, tmp_path):
    from azure.ai.ml._utils._asset_utils import get_ignore_file, get_upload_files_from_folder

    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "id_rsa").write_text("k")
    os.symlink(tmp_path / "home", src / "cache")
    (src / ".amlignore").write_text("cache/\n")
    uploaded = [dest for _, dest in get_upload_files_from_folder(str(src), prefix="p",
                                                                  ignore_file=get_ignore_file(str(src)))]
    assert "p/cache/id_rsa" in uploaded  # what azure-ai-ml would send despite the ignore file
    with pytest.raises(SnapshotException, match=r"lead outside it: \['cache'\].*Links to folders cannot be ignored"):
        check_snapshot(str(src))


@pytest.mark.parametrize("name, text, what", [
    ("analysis.ipynb", json.dumps({"cells": [{"cell_type": "code", "source": ["print(url)"], "outputs": [
        {"output_type": "stream", "text": ["reading\n", SAS + "\n"]}]}]}, indent=1),
     "Azure shared access signature (SAS) with its sig= (line 13)"),
    ("notes.md", f"tenant: x\nclient secret: {AAD_SECRET}\n", "Azure AD (Entra ID) client secret (line 2)"),
    ("call.sh", "curl -H 'Authorization: Bearer " + "eyJhbGciOi" * 4 + "' https://x\n", "bearer token (line 1)"),
    ("settings.yaml", "storage:\n  account_key: " + "k" * 86 + "==\n", "Azure storage account key (line 2)"),
    ("bus.cfg", "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=all;SharedAccessKey=" + "Q" * 43 + "=",
     "Azure connection string with a shared access key (line 1)"),
])
def test_credentials_in_any_text_file_are_refused_with_file_and_line(src, name, text, what):
    (src / name).write_text(text)
    message = _refused(src, upload=False)
    assert f"  - {name}: {what}" in message
    assert SAS not in message and AAD_SECRET not in message
    if name.endswith(".ipynb"):
        assert "jupyter nbconvert --clear-output --inplace" in message


def test_entry_script_missing_or_ignored_is_refused_before_the_job_starts(src):
    with pytest.raises(SnapshotException, match=r"entry_script='nope.py' is not in the snapshot .*no such file"):
        check_snapshot(str(src), entry_script="nope.py")
    (src / ".amlignore").write_text("*.py\n")
    with pytest.raises(SnapshotException, match=r"entry_script='train.py' is not in the snapshot .*left out by "
                                                r".*\.amlignore"):
        check_snapshot(str(src), upload=False, entry_script="train.py")


def test_a_binary_ignore_file_is_named(src):
    (src / ".amlignore").write_bytes(b"\xff\xfe\x00data/\x00")
    with pytest.raises(SnapshotException, match=r"\.amlignore is not a text file \(byte 0 is not UTF-8\).*UTF-8 text"):
        check_snapshot(str(src))


def test_one_size_limit_for_both_backends_by_apparent_size(src, tmp_path):
    with open(src / "sparse.bin", "wb") as handle:
        handle.truncate(400 * 1024 * 1024)  # 400 MB apparent, nothing on disk
    for upload in (True, False):
        message = _refused(src, upload)
        assert "Your total snapshot size exceeds the limit of 300.0 MB (400.0 MB in 2 files)" in message
        assert "http://aka.ms/aml-largefiles" in message


def test_the_copy_takes_only_the_checked_list(src, tmp_path):
    files = check_snapshot(str(src), upload=False)
    os.mkfifo(src / "late")  # appears after the check: never opened
    assert copy_snapshot(str(src), str(tmp_path / "copy"), files) == ["train.py"]
    assert os.listdir(tmp_path / "copy") == ["train.py"]


def test_the_copy_keeps_each_file_s_content_and_mode_whatever_the_umask(src, tmp_path):
    (src / "run.sh").write_text("#!/bin/sh\necho hi\n")
    (src / "d" / "e").mkdir(parents=True)
    (src / "d" / "e" / "big.bin").write_bytes(os.urandom(3 * 1024 * 1024 + 7))  # more than one sendfile chunk
    (src / "d" / "secret.cfg").write_text("mine")
    modes = {"run.sh": 0o755, "d/e/big.bin": 0o444, "d/secret.cfg": 0o600, "train.py": 0o644}
    for rel, mode in modes.items():
        os.chmod(src / rel, mode)
    files = check_snapshot(str(src), upload=False)
    previous = os.umask(0o077)  # a umask that would strip the group/other bits copymode keeps
    try:
        assert copy_snapshot(str(src), str(tmp_path / "copy"), files) == sorted(modes)
    finally:
        os.umask(previous)
    for rel, mode in modes.items():
        copied = tmp_path / "copy" / rel
        assert stat.S_IMODE(copied.stat().st_mode) == mode, rel
        assert copied.read_bytes() == (src / rel).read_bytes(), rel


def test_where_sendfile_gives_up_half_way_the_copy_is_made_again_from_the_start(src, tmp_path, monkeypatch):
    data = os.urandom(3 * 1024 * 1024 + 5)
    (src / "big.bin").write_bytes(data)
    files = check_snapshot(str(src), upload=False)
    real, calls = os.sendfile, []

    def gives_up(out, source, offset, count):  # as a file system without sendfile after a first part
        calls.append(count)
        if len(calls) == 2:
            raise OSError(errno.EINVAL, "Invalid argument")
        return real(out, source, offset, min(count, 1 << 20))

    monkeypatch.setattr(os, "sendfile", gives_up)
    copy_snapshot(str(src), str(tmp_path / "copy"), files)
    assert (tmp_path / "copy" / "big.bin").read_bytes() == data
    assert (tmp_path / "copy" / "train.py").read_bytes() == (src / "train.py").read_bytes()


@pytest.mark.parametrize("swap", ["fifo", "link-out", "folder"])
def test_a_file_swapped_after_the_check_is_not_copied_and_says_so(src, tmp_path, swap):
    files = check_snapshot(str(src), upload=False)
    (src / "train.py").unlink()
    if swap == "fifo":
        os.mkfifo(src / "train.py")  # opened without waiting for a writer, never read
    elif swap == "link-out":
        (tmp_path / "key.pem").write_text("outside")
        os.symlink(tmp_path / "key.pem", src / "train.py")
    else:
        (src / "train.py").mkdir()
    with pytest.raises(ExperimentExecutionException, match=r"train\.py changed while the snapshot was taken"):
        copy_snapshot(str(src), str(tmp_path / "copy"), files)
    assert not (tmp_path / "copy" / "train.py").exists()


_SPECIAL = ("fifo", "socket", "dangling", "loop", "dirlink-up", "link-out", "dirlink-out")
_NEVER_IGNORED = ("dirlink-up", "dirlink-out")  # the uploader walks linked folders whatever the ignore file says
_KINDS = st.sampled_from(["file", "dir", "fifo", "socket", "link-in", "link-out", "dangling", "loop", "dirlink-up",
                          "dirlink-out"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=st.lists(st.tuples(st.sampled_from(["", "d/", "d/e/"]), _KINDS), min_size=1, max_size=8),
       ignored=st.booleans())
def test_property_only_regular_files_are_listed_and_every_other_kind_is_named(tmp_path_factory, entries, ignored):
    root = tmp_path_factory.mktemp("kinds")
    outside = tmp_path_factory.mktemp("outside") / "secret.txt"
    outside.write_text("x")
    socks = []
    made = {}
    for index, (folder, kind) in enumerate(entries):
        (root / folder).mkdir(parents=True, exist_ok=True)
        path = root / folder / f"{kind}{index}"
        if kind == "file":
            path.write_text("x")
        elif kind == "dir":
            path.mkdir()
        elif kind == "fifo":
            os.mkfifo(path)
        elif kind == "socket":
            sock = socket.socket(socket.AF_UNIX)
            sock.bind(str(path))
            socks.append(sock)
        elif kind == "link-in":
            (root / "target.txt").write_text("x")
            os.symlink(root / "target.txt", path)
        elif kind == "link-out":
            os.symlink(outside, path)
        elif kind == "dangling":
            os.symlink(root / "nowhere", path)
        elif kind == "loop":
            os.symlink(path.name, path)
        elif kind == "dirlink-out":
            os.symlink(outside.parent, path)
        else:
            os.symlink(os.path.relpath(root, path.parent), path)
        made[f"{folder}{kind}{index}"] = kind
    if ignored:
        (root / ".amlignore").write_text("".join(f"{rel}\n" for rel, kind in made.items() if kind in _SPECIAL))
    try:
        listing = list_snapshot(str(root))
    finally:
        for sock in socks:
            sock.close()
    assert all(os.path.isfile(root / rel) and not stat.S_ISFIFO(os.stat(root / rel).st_mode) for rel in listing.files)
    named = set(listing.outside) | {rel for rel, _ in listing.refused}
    for rel, kind in made.items():
        if kind in _NEVER_IGNORED:
            assert rel in named, (rel, kind, listing)
        elif kind in _SPECIAL:
            assert (rel in named) != ignored, (rel, kind, listing)
        elif kind in ("file", "link-in"):
            assert rel in listing.files, (rel, listing)
