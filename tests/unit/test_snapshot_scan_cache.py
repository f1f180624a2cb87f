"""Resubmitting an unchanged source folder re-reads none of its files for secrets; any change is scanned again."""

from __future__ import annotations

import os
import time

import pytest

from acpt_estimator import snapshot_guard
from acpt_estimator.exceptions import SnapshotException
from acpt_estimator.snapshot_guard import check_snapshot

from .test_cloud_snapshot_guard import PRIVATE_KEY

CLEAN = "print('trained')\n" + "# " + "x" * 200 + "\n"
# The same length as CLEAN: a rewrite leaves the size alone.
SECRET = "aws_secret_access_key = AKIA\n"
SECRET = SECRET + "#" * (len(CLEAN) - len(SECRET) - 1) + "\n"


@pytest.fixture()
def src(tmp_path, monkeypatch):
    monkeypatch.delenv(snapshot_guard.ALLOW_SECRETS_VAR, raising=False)
    monkeypatch.setattr(snapshot_guard, "_verdicts", {})
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text("print('main')\n")
    (tmp_path / "src" / "util.py").write_text(CLEAN)
    return tmp_path / "src"


@pytest.fixture()
def reads(monkeypatch):
    """The files whose content the guard reads (the real scan runs; this only records its argument)."""
    seen = []
    real = snapshot_guard.find_in_file

    def find_in_file(path):
        seen.append(os.path.basename(path))
        return real(path)

    monkeypatch.setattr(snapshot_guard, "find_in_file", find_in_file)
    return seen


def test_an_unchanged_folder_is_not_read_again(src, reads, monkeypatch):
    monkeypatch.setattr(snapshot_guard, "RACY_SECONDS", 0.0)  # these files were written just now
    check_snapshot(str(src), upload=False)
    assert sorted(reads) == ["train.py", "util.py"]
    reads.clear()
    check_snapshot(str(src), upload=False)
    assert reads == []


def test_a_secret_written_into_a_scanned_file_is_refused(src, reads, monkeypatch):
    monkeypatch.setattr(snapshot_guard, "RACY_SECONDS", 0.0)
    check_snapshot(str(src), upload=False)
    time.sleep(0.05)  # past the file system's timestamp granularity: the rewrite gets a new ctime
    (src / "util.py").write_text(SECRET)
    assert os.path.getsize(src / "util.py") == len(CLEAN)  # same size: only the timestamps tell
    with pytest.raises(SnapshotException, match=r"util\.py: AWS credentials file"):
        check_snapshot(str(src), upload=False)


def test_a_secret_written_right_after_the_scan_is_refused_whatever_the_clock(src, reads):
    """A file changed within RACY_SECONDS of its scan is never trusted from the cache: two writes inside one tick
    of the timestamp clock can leave the same size, mtime and ctime."""
    check_snapshot(str(src), upload=False)
    reads.clear()
    check_snapshot(str(src), upload=False)
    assert sorted(reads) == ["train.py", "util.py"]  # written a moment ago: read again
    (src / "util.py").write_text(SECRET)
    with pytest.raises(SnapshotException, match=r"util\.py"):
        check_snapshot(str(src), upload=False)


def test_a_secret_file_replacing_a_scanned_one_or_added_is_refused(src, monkeypatch):
    monkeypatch.setattr(snapshot_guard, "RACY_SECONDS", 0.0)
    check_snapshot(str(src), upload=False)
    (src / "key.tmp").write_text(PRIVATE_KEY)
    os.replace(src / "key.tmp", src / "util.py")  # a new inode under the old name
    with pytest.raises(SnapshotException, match=r"util\.py: private key"):
        check_snapshot(str(src), upload=False)
    (src / "util.py").write_text(CLEAN)
    (src / "deploy").mkdir()
    (src / "deploy" / "id_ed25519").write_text(PRIVATE_KEY)
    with pytest.raises(SnapshotException, match=r"deploy/id_ed25519: SSH private key"):
        check_snapshot(str(src), upload=False)
