"""The request channel between a job with a read-only store and its driver (store_grants, store_view.Granter)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time

import pytest

from acpt_estimator.backends.local import store_grants
from acpt_estimator.backends.local.models import get_model
from acpt_estimator.backends.local.store_view import Granter
from acpt_estimator.exceptions import UserErrorException

JOB = textwrap.dedent("""
    import sys
    from acpt_estimator.backends.local.models import register
    from acpt_estimator.backends.local.store_grants import request
    try:
        print(repr({code}))
    except Exception as err:
        print(type(err).__name__, getattr(err, "message", err))
""")


@pytest.fixture
def granted(tmp_path):
    """A driver's Granter for one run (in this process), with no job namespace to bind runs into."""
    store = tmp_path / "store"
    own = store / "runs" / "own"
    (own / "files" / "outputs").mkdir(parents=True)
    (own / "files" / "outputs" / "model.txt").write_text("weights")
    granter = Granter(str(own), str(store), lambda: None)
    yield granter, store, own
    granter.close()


def _in_job(granter, code: str) -> str:
    """What a process of the job prints for ``code`` (its result, or its exception)."""
    env = dict(os.environ, **granter.env())
    return subprocess.run([sys.executable, "-c", JOB.format(code=code)], env=env, capture_output=True, text=True,
                          check=True, timeout=60).stdout.strip()


def test_the_driver_registers_a_model_the_job_asks_for(granted):
    granter, store, own = granted
    files = own / "files"
    out = _in_job(granter, f"register(store_home={str(store)!r}, run_id='own', experiment_name='exp', "
                           f"files_dir={str(files)!r}, file_names=[], model_name='asked', "
                           "model_path='outputs/model.txt').id")
    assert out == "'asked:1'"
    model = get_model("asked", store_home=str(store))
    assert open(model.path).read() == "weights" and model.run_id == "own"
    assert sorted(os.listdir(own)) == ["files"]  # request and reply removed


def test_a_refused_request_raises_the_drivers_error_in_the_job(granted):
    granter, store, own = granted
    out = _in_job(granter, f"register(store_home={str(store)!r}, run_id='own', experiment_name='exp', "
                           f"files_dir={str(own / 'files')!r}, file_names=[], model_name='asked', "
                           "model_path='outputs/nope.txt')")
    assert out.startswith("ModelPathNotFoundException")  # checked in the job first
    out = _in_job(granter, "request('model', files_dir='/nowhere', model_name='asked', model_path='x')")
    assert out.startswith("ModelPathNotFoundException")  # and by the driver, whatever the job sends
    assert _in_job(granter, "request('run', run_id='child_1')").startswith("ExperimentExecutionException")
    assert _in_job(granter, "request('secrets')").startswith("UserErrorException Unknown store request")


def test_the_driver_never_answers_through_a_link_the_job_left_under_the_replys_name(granted, tmp_path):
    granter, store, own = granted
    victim = tmp_path / "victim.txt"
    victim.write_text("kept")
    os.symlink(victim, own / ".grant-abc123.reply")  # the job plants a link where the reply will be written
    (own / ".grant-abc123.request.tmp").write_text(json.dumps({"op": "secrets", "args": {}}))
    os.rename(own / ".grant-abc123.request.tmp", own / ".grant-abc123.request")
    deadline = time.monotonic() + 10
    while os.path.islink(own / ".grant-abc123.reply") and time.monotonic() < deadline:
        time.sleep(0.01)
    assert victim.read_text() == "kept"  # the reply replaced the link, it did not write through it
    assert "Unknown store request" in (own / ".grant-abc123.reply").read_text()


def test_what_the_job_left_of_its_requests_goes_when_it_stops_and_close_changes_nothing(granted):
    """stop() when the ranks have ended (no more answers): the leftovers go then, and again at a second stop() (after
    leftover processes were ended); close(), once the run's record is final (LocalJob's after_done), changes nothing
    in the folder, which the caller may be removing by then."""
    granter, _, own = granted
    left = (".grant-abc.request", ".grant-abc.reply", "..grant-abc.request.1.x.tmp")
    for name in (*left, "kept.txt"):
        (own / name).write_text("x")
    granter.stop()
    assert sorted(os.listdir(own)) == ["files", "kept.txt"]
    (own / ".grant-late.request").write_text("x")  # (a process the ranks left behind, before it was ended)
    granter.stop()
    assert sorted(os.listdir(own)) == ["files", "kept.txt"]
    (own / ".grant-after.request").write_text("x")
    granter.close()
    assert sorted(os.listdir(own)) == [".grant-after.request", "files", "kept.txt"]
    granter.close()


def test_a_request_after_the_job_ended_says_the_driver_has_ended(granted):
    granter, _, own = granted
    env = granter.env()
    granter.stop()
    granter.env = lambda: env
    (own / "run.json").write_text(json.dumps({"status": "Completed"}))  # the driver finished the run
    started = time.monotonic()
    out = _in_job(granter, "request('run', run_id='late_1')")
    assert out.startswith("ExperimentExecutionException") and "has ended" in out
    assert time.monotonic() - started < 30  # told at once, not after the reply timeout
    env["ACPT_ESTIMATOR_STORE_GRANTER"] = "999999999"  # a driver that is gone
    (own / "run.json").unlink()
    assert "has ended" in _in_job(granter, "request('run', run_id='late_2')")


def test_refusals_name_what_and_the_fix_only_inside_a_protected_job(granted, tmp_path, monkeypatch):
    granter, store, own = granted
    for name, value in granter.env().items():
        monkeypatch.setenv(name, value)
    store_grants.refuse(str(tmp_path / "another-store"), "set secret 'x'")  # another store: not refused
    store_grants.refuse(str(store), "upload", str(own / "files" / "x"))  # a writable folder of the job's own
    with pytest.raises(UserErrorException, match="cannot set secret 'x'.*read-only to its jobs.*driver script"):
        store_grants.refuse(str(store), "set secret 'x'")
    monkeypatch.delenv(store_grants.GRANTS_VAR)
    store_grants.refuse(str(store), "set secret 'x'")  # a driver: never refused


def test_after_the_job_the_driver_follows_no_link_the_job_left_in_its_run_folder(tmp_path):
    from acpt_estimator.backends.local import mlflow_sqlite
    from acpt_estimator.backends.local.job import _collect
    from acpt_estimator.backends.local.store import RunPaths, within

    paths = RunPaths(str(tmp_path / "store"), "own_1")
    victim = tmp_path / "store" / "runs" / "victim_1"
    (victim / "files" / "outputs").mkdir(parents=True)
    (victim / "files" / "outputs" / "kept.txt").write_text("kept")
    (victim / "metrics").mkdir()
    for folder in ("snapshot/outputs", "snapshot/logs", "files"):
        os.makedirs(os.path.join(paths.root, folder))
    open(os.path.join(paths.snapshot, "outputs", "evil.txt"), "w").write("evil")
    open(os.path.join(paths.snapshot, "logs", "evil.txt"), "w").write("evil")
    os.symlink(victim / "files" / "outputs", os.path.join(paths.files, "outputs"))
    os.makedirs(os.path.join(paths.files, "logs"))
    os.symlink(victim / "files", os.path.join(paths.files, "logs", "sub"))
    os.makedirs(os.path.join(paths.snapshot, "logs", "sub"))
    open(os.path.join(paths.snapshot, "logs", "sub", "evil.txt"), "w").write("evil")
    os.symlink(victim / "metrics", paths.metrics)

    assert within(paths.root, paths.snapshot) and not within(paths.root, os.path.join(paths.files, "outputs", "x"))
    left = _collect(paths)
    assert len(left) == 2 and all("leads out of" in note for note in left)
    assert sorted(os.listdir(victim / "files")) == ["outputs"]
    assert os.listdir(victim / "files" / "outputs") == ["kept.txt"]
    assert os.path.isfile(os.path.join(paths.files, "logs", "evil.txt"))  # what has no link on its way: collected
    problems = mlflow_sqlite.export_run(paths, {"runId": "own_1", "mlflow": {"runId": "abc"}})
    assert problems and os.listdir(victim / "metrics") == []
