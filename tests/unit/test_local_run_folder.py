"""The local run folder's own files: the reserve and the final record written into it, mpiexec's log."""

from __future__ import annotations

import json
import os
import time

from acpt_estimator.backends.local.store import (STALE_EARLY_LOG_SECONDS, RunPaths, all_run_records, release_reserve,
                                                 write_final_json)


def test_releasing_a_reserve_never_empties_what_a_link_in_its_place_leads_to(tmp_path):
    paths = RunPaths(str(tmp_path), "exp_1_abcdef12")
    os.makedirs(paths.root)
    other = tmp_path / "another-run.json"
    other.write_text("another run's record")
    os.symlink(other, paths.reserve)  # left by the job in its run folder
    release_reserve(paths)
    write_final_json(paths, {"status": "Completed"})
    assert other.read_text() == "another run's record"
    assert sorted(os.listdir(paths.root)) == ["run.json"]  # the link went, the record is in place


def test_the_launcher_log_made_before_the_run_s_folders_ends_up_under_its_one_name(tmp_path):
    """mpiexec's log starts as <run>/.mpiexec.txt (only the run folder exists before the launch), is linked into
    files/system_logs/ behind the gate, where it keeps only that name; a run that ended before its gate gets it
    linked as it ends. A link the ranks left under the early name is never followed."""
    paths = RunPaths(str(tmp_path), "exp_1_abcdef12")
    paths.create(ranks_later=True)
    assert os.listdir(paths.root) == []
    with open(paths.launcher_log, "w", encoding="utf-8") as log:  # mpiexec's descriptor: it keeps writing there
        log.write("started\n")
        paths.create_rank_folders()
        assert sorted(os.listdir(paths.root)) == ["files", "status"]
        paths.create_rank_folders()  # (again: a folder made whole already by a read-only store's driver)
        log.write("ended\n")
    paths.settle_launcher_log()
    with open(paths.launcher_log_file, encoding="utf-8") as log:
        assert log.read() == "started\nended\n"
    assert sorted(os.listdir(paths.root)) == ["files", "status"]

    ended_early = RunPaths(str(tmp_path), "exp_2_abcdef12")
    ended_early.create(ranks_later=True)
    with open(ended_early.launcher_log, "w", encoding="utf-8") as log:
        log.write("hydra: no such program\n")
    ended_early.settle_launcher_log()
    with open(ended_early.launcher_log_file, encoding="utf-8") as log:
        assert log.read() == "hydra: no such program\n"

    linked = RunPaths(str(tmp_path), "exp_3_abcdef12")
    linked.create(ranks_later=True)
    os.symlink(tmp_path / "elsewhere.txt", linked.launcher_log)
    linked.settle_launcher_log()
    assert not os.path.lexists(linked.launcher_log) and not os.path.lexists(linked.launcher_log_file)


def test_the_launch_s_files_go_when_the_run_ends_whether_or_not_the_driver_knows_which_it_wrote(tmp_path):
    """finalize removes the gate FIFO and the ranks' plans (expanded arguments, secrets included): the ones the
    supervising driver wrote (LocalJob.launch_files), or, for a run reopened after its driver died, every name a
    launch may write that the folder holds. Nothing else of the run folder is touched."""
    from acpt_estimator.backends.local.job import _remove_launch_files

    paths = RunPaths(str(tmp_path), "exp_1_abcdef12")
    os.makedirs(paths.root)
    os.mkfifo(os.path.join(paths.root, "gate"))
    for name in ("rank.plan", "run.json", "notes.txt"):
        with open(os.path.join(paths.root, name), "w", encoding="utf-8") as handle:
            handle.write(name)
    _remove_launch_files(paths)  # unknown: rank.sh, rank.body and ready were never written
    assert sorted(os.listdir(paths.root)) == ["notes.txt", "run.json"]

    for name in ("rank.sh", "rank.body"):
        with open(os.path.join(paths.root, name), "w", encoding="utf-8") as handle:
            handle.write(name)
    known = [os.path.join(paths.root, name) for name in ("rank.sh", "rank.body", "ready")]  # ready: never made
    _remove_launch_files(paths, known)
    assert sorted(os.listdir(paths.root)) == ["notes.txt", "run.json"]
    _remove_launch_files(RunPaths(str(tmp_path), "exp_2_abcdef12"))  # a folder already gone: nothing to do


def test_the_final_record_is_written_over_the_reserve_s_first_bytes_and_the_rest_cut_off(tmp_path):
    """A run without an MLflow run keeps its reserve until its record is staged: the record goes over the reserve's
    zeros (no more room needed on a full disk), the rest is cut off, and the commit puts exactly the record in
    place. A released (emptied) reserve takes it the same way."""
    import json

    from acpt_estimator.backends.local.store import RESERVE_BYTES, reserve, stage_final_json

    for release in (False, True):
        paths = RunPaths(str(tmp_path), f"exp_{int(release)}_abcdef12")
        os.makedirs(paths.root)
        reserve(paths)
        assert os.path.getsize(paths.reserve) == RESERVE_BYTES
        if release:
            release_reserve(paths)
            assert os.path.getsize(paths.reserve) == 0
        record = {"status": "Completed", "warnings": ["é" * 10]}
        staged = stage_final_json(paths, record)
        assert os.path.getsize(paths.reserve) == len(json.dumps(record).encode("utf-8"))
        staged.commit()
        with open(paths.run_json, encoding="utf-8") as handle:
            assert json.load(handle) == record
        assert sorted(os.listdir(paths.root)) == ["run.json"]


def test_run_paths_are_immutable_values(tmp_path):
    import pickle

    import pytest

    paths = RunPaths(str(tmp_path), "run_1")
    assert paths == RunPaths(str(tmp_path), "run_1") and paths != RunPaths(str(tmp_path), "run_2")
    assert len({paths, RunPaths(str(tmp_path), "run_1")}) == 1 and paths != (str(tmp_path), "run_1")
    assert repr(paths) == f"RunPaths(home={str(tmp_path)!r}, run_id='run_1')"
    assert paths.files == paths.files and paths.files.startswith(paths.root)  # cached properties still work
    for change in (lambda: setattr(paths, "run_id", "run_2"), lambda: delattr(paths, "home")):
        with pytest.raises(AttributeError, match="immutable"):
            change()
    assert paths.run_id == "run_1" and pickle.loads(pickle.dumps(paths)) == paths


def test_an_early_mpiexec_log_whose_run_folder_never_came_goes_with_a_later_listing(tmp_path):
    """A driver killed between mpiexec's start and its run folder's creation leaves runs/.<run>.mpiexec.txt: the next
    listing of the store removes it once it is a minute old. A young one (its driver is making the folder now) and
    one whose folder exists stay."""
    runs = tmp_path / "runs"
    made = RunPaths(str(tmp_path), "exp_1_aaaaaaaa")
    made.create(ranks_later=True)
    with open(made.run_json, "w", encoding="utf-8") as handle:
        json.dump({"runId": "exp_1_aaaaaaaa", "createdTime": 1}, handle)
    left, young = RunPaths(str(tmp_path), "exp_2_bbbbbbbb"), RunPaths(str(tmp_path), "exp_3_cccccccc")
    old = time.time() - STALE_EARLY_LOG_SECONDS - 5
    for paths, when in ((left, old), (young, None), (made, old)):
        with open(paths.launcher_log_beside, "w", encoding="utf-8") as log:
            log.write("mpiexec's first lines\n")
        if when is not None:
            os.utime(paths.launcher_log_beside, (when, when))
    assert [r["runId"] for r in all_run_records(str(tmp_path))] == ["exp_1_aaaaaaaa"]
    assert sorted(os.listdir(runs)) == [".exp_1_aaaaaaaa.mpiexec.txt", ".exp_3_cccccccc.mpiexec.txt", "exp_1_aaaaaaaa"]
