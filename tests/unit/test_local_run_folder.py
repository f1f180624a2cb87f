"""The local run folder's own files: the reserve and the final record written into it, mpiexec's log."""

from __future__ import annotations

import os

from acpt_estimator.backends.local.store import RunPaths, release_reserve, write_final_json


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
    files/system_logs/ behind the gate, and keeps only that name once the run is finalized; a run that ended
    before its gate gets it linked then. A link the ranks left under the early name is never followed."""
    paths = RunPaths(str(tmp_path), "exp_1_abcdef12")
    paths.create(ranks_later=True)
    assert os.listdir(paths.root) == []
    with open(paths.launcher_log, "w", encoding="utf-8") as log:  # mpiexec's descriptor: it keeps writing there
        log.write("started\n")
        paths.create_rank_folders()
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
