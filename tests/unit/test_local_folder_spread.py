"""The store's folder marked for ext4 to place its runs/ in a quiet part of the disk (folder_spread)."""

from __future__ import annotations

import array
import fcntl
import os
import subprocess
import threading

import pytest

from acpt_estimator.backends.local import folder_spread, store
from acpt_estimator.backends.local.store import RunPaths

from .test_benchmark_store_disk import store_disk


def _flags(folder) -> int | None:
    """The folder's inode flags as chattr sees them; None where the file system has none."""
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        flags = array.array("i", [0])
        fcntl.ioctl(descriptor, folder_spread.FS_IOC_GETFLAGS, flags, True)
        return flags[0]
    except OSError:
        return None
    finally:
        os.close(descriptor)


def _on_ext4(folder) -> bool:
    """Whether ``folder`` lies on an ext2/3/4 file system (the only ones with the top-directory flag)."""
    return store_disk.describe(str(folder)).startswith("ext")


def test_a_folder_on_ext4_is_marked_and_keeps_its_other_flags(tmp_path):
    folder = tmp_path / "runs"
    folder.mkdir()
    before = _flags(folder)
    marked = folder_spread.spread_subfolders(str(folder))
    assert marked == _on_ext4(tmp_path)  # (this machine's and CI's /tmp are ext4: marked there)
    if marked:
        assert _flags(folder) == before | folder_spread.FS_TOPDIR_FL
        assert folder_spread.is_spread(str(folder))
        assert folder_spread.spread_subfolders(str(folder))  # (once marked, it stays so, and says so)
    else:
        assert _flags(folder) == before


@pytest.mark.skipif(not os.path.isdir("/dev/shm"), reason="needs /dev/shm (a tmpfs) to try a file system without it")
def test_on_a_file_system_without_the_flag_nothing_changes_and_it_says_so():
    folder = os.path.join("/dev/shm", f"acpt-spread-{os.getpid()}")
    os.mkdir(folder)
    try:
        before = _flags(folder)
        assert folder_spread.spread_subfolders(folder) is False
        assert folder_spread.is_spread(folder) is False
        assert _flags(folder) == before
    finally:
        os.rmdir(folder)


def test_a_link_or_a_missing_folder_is_never_marked(tmp_path):
    target = tmp_path / "elsewhere"
    target.mkdir()
    before = _flags(target)
    (tmp_path / "runs").symlink_to(target)
    assert folder_spread.spread_subfolders(str(tmp_path / "runs")) is False  # (not followed to mark another folder)
    assert _flags(target) == before
    assert folder_spread.spread_subfolders(str(tmp_path / "missing")) is False


def test_a_store_made_by_its_first_run_is_marked_and_its_runs_folder_is_not(tmp_path):
    """runs/ is placed by the mark once; the run folders then follow runs/ (marking runs/ would send each of them
    to another part of the disk)."""
    home = tmp_path / "store"
    RunPaths(str(home), "exp_1_aaaaaaaa").create()
    assert folder_spread.is_spread(str(home)) == _on_ext4(tmp_path)
    assert not folder_spread.is_spread(str(home / "runs"))
    assert (home / "runs" / "exp_1_aaaaaaaa").is_dir()


def test_an_empty_store_folder_is_marked_too(tmp_path):
    """As one a caller made for the store (tempfile.mkdtemp) before its first run."""
    home = tmp_path / "store"
    home.mkdir()
    store.make_runs_folder(str(home))
    assert folder_spread.is_spread(str(home)) == _on_ext4(tmp_path)
    assert (home / "runs").is_dir()


def test_a_folder_that_holds_anything_else_is_left_as_it_is(tmp_path):
    """ACPT_ESTIMATOR_HOME may name a folder of the user's: its flags are not the store's to change."""
    home = tmp_path / "mine"
    home.mkdir()
    (home / "notes.txt").write_text("the user's", encoding="utf-8")
    before = _flags(home)
    RunPaths(str(home), "exp_1_aaaaaaaa").create()
    assert _flags(home) == before and not folder_spread.is_spread(str(home))
    assert (home / "runs" / "exp_1_aaaaaaaa").is_dir()


def _timed_as(monkeypatch, seconds: list) -> list:
    """folder_spread's creation probe answering ``seconds`` in turn; returns the (inode, folder) of each trial."""
    tried = []

    def creation_seconds(folder):
        tried.append((os.stat(folder).st_ino, folder))
        return seconds[len(tried) - 1]

    monkeypatch.setattr(folder_spread, "_creation_seconds", creation_seconds)
    return tried


def test_a_folder_placed_where_creations_are_quick_is_kept_at_once(tmp_path, monkeypatch):
    tried = _timed_as(monkeypatch, [20e-6])
    folder_spread.make_quiet_folder(str(tmp_path / "runs"))
    assert len(tried) == 1 and os.stat(tmp_path / "runs").st_ino == tried[0][0]
    assert os.listdir(tmp_path) == ["runs"]  # (no trial folder left)


def test_where_creations_are_slow_the_folder_is_made_again_elsewhere(tmp_path, monkeypatch):
    """As in a group a removal just emptied: the quick trial becomes the folder, the slow ones go."""
    tried = _timed_as(monkeypatch, [400e-6, 300e-6, 15e-6, 10e-6])
    folder_spread.make_quiet_folder(str(tmp_path / "runs"))
    assert len(tried) == 3 and os.stat(tmp_path / "runs").st_ino == tried[2][0]
    assert os.listdir(tmp_path) == ["runs"]


def test_where_every_trial_is_slow_the_quickest_is_kept(tmp_path, monkeypatch):
    tried = _timed_as(monkeypatch, [400e-6, 200e-6, 900e-6, 300e-6])
    folder_spread.make_quiet_folder(str(tmp_path / "runs"))
    assert len(tried) == folder_spread.PLACEMENT_TRIES and os.stat(tmp_path / "runs").st_ino == tried[1][0]
    assert os.listdir(tmp_path) == ["runs"]


@pytest.mark.parametrize("filled", [True, False], ids=["filled", "empty"])
def test_a_folder_another_process_made_meanwhile_stays(tmp_path, monkeypatch, filled):
    """Even an empty one: replacing it would fail whoever is making something in it at that moment (ENOENT)."""
    (tmp_path / "runs").mkdir()
    if filled:
        (tmp_path / "runs" / "exp_1_aaaaaaaa").mkdir()
    before = os.stat(tmp_path / "runs").st_ino
    _timed_as(monkeypatch, [20e-6])
    folder_spread.make_quiet_folder(str(tmp_path / "runs"))
    assert os.stat(tmp_path / "runs").st_ino == before and os.listdir(tmp_path) == ["runs"]


def test_the_probe_times_real_creations_and_leaves_nothing(tmp_path):
    seconds = folder_spread._creation_seconds(str(tmp_path))
    assert 0 < seconds < 1 and os.listdir(tmp_path) == []


def test_trial_folders_a_killed_process_left_go_and_a_live_ones_stay(tmp_path, monkeypatch):
    gone = subprocess.Popen(["/bin/true"])
    gone.wait()  # (its pid runs no more)
    left = tmp_path / f".staging-{gone.pid}-0a1b2c3d"
    (left / ".probe-0").parent.mkdir()
    (left / ".probe-0").write_text("", encoding="utf-8")  # killed between a probe's creation and its removal
    live = tmp_path / f".staging-{os.getpid()}-4e5f6a7b"  # (another thread's, placing at the same moment)
    live.mkdir()
    _timed_as(monkeypatch, [20e-6])
    folder_spread.make_quiet_folder(str(tmp_path / "runs"))
    assert sorted(os.listdir(tmp_path)) == [live.name, "runs"]


def test_two_threads_placing_one_folder_at_once_both_find_it(tmp_path):
    """Threads of one driver (a pipeline's steps) may make a new store's first runs together."""
    errors = []

    def place(index):
        try:
            folder_spread.make_quiet_folder(str(tmp_path / "runs"))
            os.mkdir(tmp_path / "runs" / f"run-{index}")
        except OSError as err:
            errors.append(err)

    threads = [threading.Thread(target=place, args=(index,)) for index in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert os.listdir(tmp_path) == ["runs"] and len(os.listdir(tmp_path / "runs")) == 4  # (no run folder lost)
