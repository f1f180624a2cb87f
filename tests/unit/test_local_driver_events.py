"""The driver's one thread serving every job's store requests: files renamed into a watched folder reach its handler."""

from __future__ import annotations

import os
import threading

from acpt_estimator.backends.local import driver_events


def _renamed_in(folder, name):
    (folder / f".{name}.tmp").write_text("x")
    os.rename(folder / f".{name}.tmp", folder / name)


def test_each_folder_reaches_its_handler_and_a_failing_one_does_not_stop_the_others(tmp_path, caplog):
    broken, working = tmp_path / "broken", tmp_path / "working"
    broken.mkdir()
    working.mkdir()
    seen, served = [], threading.Event()

    def fail(name):
        raise RuntimeError(f"a bug in one job's handler ({name})")

    def serve(name):
        seen.append(name)
        served.set()

    watches = [driver_events.watch_moves(str(broken), fail), driver_events.watch_moves(str(working), serve)]
    try:
        _renamed_in(broken, "first")
        (working / "created-not-renamed").write_text("ignored")
        _renamed_in(working, "second")
        assert served.wait(10)
        assert seen == ["second"]  # only renames into the folder, and the failing handler did not stop the service
        assert "a bug in one job's handler (first)" in caplog.text
    finally:
        for wd in watches:
            driver_events.unwatch(wd)


def test_nothing_reaches_a_handler_after_unwatch(tmp_path):
    gone, probe = tmp_path / "gone", tmp_path / "probe"
    gone.mkdir()
    probe.mkdir()
    calls, seen = [], threading.Event()
    driver_events.unwatch(driver_events.watch_moves(str(gone), calls.append))
    _renamed_in(gone, "late")
    wd = driver_events.watch_moves(str(probe), lambda name: seen.set())
    try:
        _renamed_in(probe, "probe")
        assert seen.wait(10)  # the service went round after the late rename
        assert calls == []
    finally:
        driver_events.unwatch(wd)


def test_files_created_in_a_watched_folder_reach_its_handler(tmp_path):
    """How a job's watcher hears of each rank's exit marker at once (Supervisor.watch_exits)."""
    seen, created = [], threading.Event()

    def exited(name):
        seen.append(name)
        created.set()

    wd = driver_events.watch_creations(str(tmp_path), exited)
    try:
        (tmp_path / "rank_0_exit_0").touch()
        assert created.wait(10)
        assert seen == ["rank_0_exit_0"]
    finally:
        driver_events.unwatch(wd)


def _woken(supervisor) -> bool:
    try:
        return bool(os.read(supervisor._wake_r, 64))
    except BlockingIOError:
        return False


def test_a_job_s_watcher_is_woken_by_a_failure_and_the_last_success_is_handled_on_the_event_thread(tmp_path):
    """Each marker wakes driver_events' thread; the job's watcher only when it has something to do: end the job at
    a failure (or read the folder at a name it does not know). The last success runs on_ranks_done right there, on
    the event thread, once (no hand-off to the watcher while the launcher ends)."""
    from acpt_estimator.backends.local.supervisor import Supervisor

    staged = []
    supervisor = Supervisor(run_id="r_1_00000000", status_dir=str(tmp_path), cancel_flag=str(tmp_path / "cancel"),
                            launcher_log=str(tmp_path / "log"), world_size=3,
                            on_ranks_done=lambda expected: staged.append((threading.get_ident(), expected)))
    os.set_blocking(supervisor._wake_r, False)
    try:
        woken = []
        for name in ("rank_0_exit_0", "rank_1_exit_0", "rank_1_exit_0", "rank_2_exit_1", "something_else",
                     "rank_2_exit_0", "rank_2_exit_0"):
            supervisor._rank_exited(name)
            woken.append(_woken(supervisor))
        assert woken == [False, False, False, True, True, False, False]
        assert [(thread, [(e.rank, e.code) for e in expected.exits]) for thread, expected in staged] == [
            (threading.get_ident(), [(0, 0), (1, 0), (2, 0)])]
        supervisor._check_exits()  # the watcher, later: every rank reported already, nothing is made twice
        assert len(staged) == 1
    finally:
        supervisor._close_wake_pipe()


def test_after_the_watcher_has_ended_a_marker_neither_wakes_it_nor_makes_a_record(tmp_path):
    from acpt_estimator.backends.local.supervisor import Supervisor

    staged = []
    supervisor = Supervisor(run_id="r_1_00000000", status_dir=str(tmp_path), cancel_flag=str(tmp_path / "cancel"),
                            launcher_log=str(tmp_path / "log"), world_size=1, on_ranks_done=staged.append)
    supervisor._close_wake_pipe()
    supervisor._rank_exited("rank_0_exit_0")
    supervisor._rank_exited("rank_0_exit_1")
    assert staged == []


def test_once_every_rank_has_reported_success_a_later_marker_does_not_change_the_outcome(tmp_path):
    """Each rank's launcher leaves one marker; the outcome is made from those read when the last one came (the
    folder is not read again after mpiexec exits): a marker that appears later (a process the ranks left behind,
    writing in the job's run folder) neither fails the job nor joins its ranks."""
    from acpt_estimator.backends.local.supervisor import Supervisor, _Process

    supervisor = Supervisor(run_id="r_1_00000000", status_dir=str(tmp_path), cancel_flag=str(tmp_path / "cancel"),
                            launcher_log=str(tmp_path / "log"), world_size=2)
    try:
        for name in ("rank_0_exit_0", "rank_1_exit_0"):
            (tmp_path / name).touch()
        supervisor._check_exits()
        (tmp_path / "rank_1_exit_3").touch()
        supervisor.process = _Process(os.getpid(), born_inside=True)
        supervisor.process.returncode = 0
        outcome = supervisor._outcome()
        assert outcome.reason == "completed" and outcome.first_failure is None
        assert sorted((e.rank, e.code) for e in outcome.exits) == [(0, 0), (1, 0)]
    finally:
        supervisor._close_wake_pipe()


def test_the_markers_the_watch_saw_make_the_outcome_once_every_rank_succeeded(tmp_path):
    """When driver_events has seen every rank's marker say 0, the watcher takes them as seen (the folder is not
    read again as the final record is made); until then, and for a failure, it reads the folder."""
    from acpt_estimator.backends.local.supervisor import Supervisor

    staged = []
    supervisor = Supervisor(run_id="r_1_00000000", status_dir=str(tmp_path), cancel_flag=str(tmp_path / "cancel"),
                            launcher_log=str(tmp_path / "log"), world_size=2,
                            on_ranks_done=lambda expected: staged.append(expected))
    try:
        supervisor._rank_exited("rank_1_exit_0")
        supervisor._check_exits()  # one of two: the folder decides, and it holds no marker yet
        assert staged == [] and supervisor._reason is None
        supervisor._rank_exited("rank_1_exit_0")  # the same marker twice (an event read again) counts once
        supervisor._rank_exited("rank_0_exit_0")
        supervisor._check_exits()  # the folder still holds none: the markers came from the watch
        assert [[(e.rank, e.code) for e in expected.exits] for expected in staged] == [[(1, 0), (0, 0)]]
    finally:
        supervisor._close_wake_pipe()
