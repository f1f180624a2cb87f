"""Spare run folders: made whole, claimed by a rename only as made, checked before ranks run, tidied by a listing."""

from __future__ import annotations

import json
import os
import stat
import time

import pytest

from acpt_estimator.backends.local import spare_folders
from acpt_estimator.backends.local.store import RESERVE_BYTES, STALE_SPARE_SECONDS, RunPaths, all_run_records


@pytest.fixture
def store(tmp_path):
    os.makedirs(tmp_path / "runs")
    return str(tmp_path)


def _spares(store) -> list:
    return sorted(name for name in os.listdir(os.path.join(store, "runs")) if name.startswith(".spare-"))


def test_a_spare_holds_what_a_launch_would_make_and_is_claimed_whole_by_one_rename(store):
    ended = RunPaths(store, "exp_1_aaaaaaaa")
    assert spare_folders.make(ended, ranks=2) == 8 + 4
    assert _spares(store) == [".spare-1-0"]
    paths = RunPaths(store, "exp_2_bbbbbbbb")
    assert spare_folders.claim(paths)
    assert _spares(store) == []
    for folder in (paths.files, paths.system_logs, paths.user_logs, paths.status):
        assert stat.S_ISDIR(os.lstat(folder).st_mode)
    assert stat.S_ISFIFO(os.lstat(os.path.join(paths.root, "gate")).st_mode)
    assert os.path.getsize(paths.reserve) == RESERVE_BYTES and os.path.getsize(paths.launcher_log) == 0
    assert sorted(os.listdir(paths.status)) == [".exit-0", ".exit-1", ".log-0", ".log-1"]
    assert not spare_folders.claim(RunPaths(store, "exp_3_cccccccc"))  # none left: the launch makes its own


def test_spares_fill_the_free_slots_only(store):
    ended = RunPaths(store, "exp_1_aaaaaaaa")
    assert spare_folders.make(ended, 1) and spare_folders.make(ended, 1)
    assert spare_folders.make(ended, 1) == 0  # both slots taken: nothing made, nothing left half-made
    assert _spares(store) == [".spare-1-0", ".spare-1-1"]


@pytest.mark.parametrize("tamper", ["log-linked", "log-hard-linked", "gate-a-file", "slot-a-link"])
def test_a_spare_not_as_made_is_removed_instead_of_claimed(store, tmp_path, tamper):
    """A job's code can write in its store: what it changed in a spare (a link where mpiexec's log goes would have
    it written elsewhere) is never used."""
    spare_folders.make(RunPaths(store, "exp_1_aaaaaaaa"), 1)
    slot = os.path.join(store, "runs", ".spare-1-0")
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("the user's file\n")
    if tamper == "log-linked":
        os.unlink(os.path.join(slot, ".mpiexec.txt"))
        os.symlink(elsewhere, os.path.join(slot, ".mpiexec.txt"))
    elif tamper == "log-hard-linked":
        os.unlink(os.path.join(slot, ".mpiexec.txt"))
        os.link(elsewhere, os.path.join(slot, ".mpiexec.txt"))
    elif tamper == "gate-a-file":
        os.unlink(os.path.join(slot, "gate"))
        open(os.path.join(slot, "gate"), "w").close()
    else:
        os.rename(slot, tmp_path / "moved")
        os.symlink(tmp_path / "moved", slot)
    paths = RunPaths(store, "exp_2_bbbbbbbb")
    assert not spare_folders.claim(paths)
    assert not os.path.lexists(paths.root) and _spares(store) == []
    assert elsewhere.read_text() == "the user's file\n"


def test_before_the_ranks_run_only_their_own_plain_files_stay_in_status(store, tmp_path):
    spare_folders.make(RunPaths(store, "exp_1_aaaaaaaa"), 4)
    paths = RunPaths(store, "exp_2_bbbbbbbb")
    assert spare_folders.claim(paths)
    os.unlink(os.path.join(paths.status, ".log-1"))
    os.symlink(tmp_path, os.path.join(paths.status, ".log-1"))  # (a rank's log would be written through it)
    os.mkdir(os.path.join(paths.status, ".exit-0.d"))
    open(os.path.join(paths.status, "rank_0_exit_0"), "w").close()  # not a rank's yet: none has run
    spare_folders.check_rank_files(paths, ranks=2)  # made for 4 ranks: those of ranks 2 and 3 go too
    assert sorted(os.listdir(paths.status)) == [".exit-0", ".exit-1", ".log-0"]
    spare_folders.remove_rank_files(paths)  # (a job that did not end with every rank's success)
    assert os.listdir(paths.status) == []


def test_a_listing_skips_spares_and_removes_leftovers(store):
    """A folder still being built a minute on was left by a killed driver; spares of an older layout are never
    claimed. Current spares and young builds stay; none is a run."""
    runs = os.path.join(store, "runs")
    run = RunPaths(store, "exp_1_aaaaaaaa")
    run.create()
    with open(run.run_json, "w", encoding="utf-8") as handle:
        json.dump({"runId": run.run_id, "createdTime": 1}, handle)
    spare_folders.make(run, 1)
    old = time.time() - STALE_SPARE_SECONDS - 5
    for name, when in ((".spare-building-1-aa", old), (".spare-building-2-bb", None), (".spare-0-0", None)):
        os.makedirs(os.path.join(runs, name, "status"))
        if when is not None:
            os.utime(os.path.join(runs, name), (when, when))
    assert [r["runId"] for r in all_run_records(store)] == ["exp_1_aaaaaaaa"]
    assert sorted(os.listdir(runs)) == [".spare-1-0", ".spare-building-2-bb", "exp_1_aaaaaaaa"]


def test_spares_are_wanted_only_where_creations_are_slow(store):
    ended = RunPaths(store, "exp_1_aaaaaaaa")
    spare_folders.note_creation(store, spare_folders.SLOW_CREATION_SECONDS / 10)
    spare_folders.want(ended, 2)
    spare_folders.build_wanted(store)
    spare_folders.wait_idle()
    assert _spares(store) == []
    assert not spare_folders.claim(RunPaths(store, "exp_2_bbbbbbbb"))  # (not even looked for)
    spare_folders.note_creation(store, spare_folders.SLOW_CREATION_SECONDS * 10)
    spare_folders.want(ended, 2)
    spare_folders.build_wanted(str(os.path.join(store, "another-store")))  # another store's submission: not here
    spare_folders.wait_idle()
    assert _spares(store) == []
    spare_folders.build_wanted(store)
    spare_folders.wait_idle()
    assert _spares(store) == [".spare-1-0"]


def test_a_forked_driver_waits_for_no_builder_of_its_parent(store):
    """Forked while the parent's builder was busy, a driver's job end must not wait for a thread it does not have."""
    spare_folders._idle.clear()  # (as while the parent's builder makes a spare)
    try:
        pid = os.fork()
        if pid == 0:
            started = time.monotonic()
            spare_folders.wait_idle(timeout=5)
            os._exit(0 if time.monotonic() - started < 1 else 1)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        spare_folders._idle.set()
