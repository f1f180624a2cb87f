"""A local job cannot change any record of the store but its own; its logging, outputs, child runs, nested jobs
and model registration still work (issue 23). Where read-only binds are impossible, the driver says so."""

from __future__ import annotations

import json
import os
import threading
import textwrap
from pathlib import Path

import pytest

from acpt_estimator import PyTorch
from acpt_estimator.backends.local import store_view
from acpt_estimator.backends.local.models import get_model
from acpt_estimator.backends.local import get_run
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.model import Model
from acpt_estimator.v1.core.workspace import Workspace

pytestmark = pytest.mark.integration

HOSTILE = textwrap.dedent("""
    import errno, json, os, subprocess, sys
    from acpt_estimator.v1.core.model import Model
    from acpt_estimator.v1.core.run import Run
    {mlflow}
    victim_run, victim_model, driver_pid = sys.argv[1:4]
    store = os.environ["ACPT_ESTIMATOR_HOME"]
    attempts = {{}}

    def attempt(name, action):
        try:
            action()
            attempts[name] = "written"
        except OSError as err:
            attempts[name] = errno.errorcode[err.errno]

    def rewrite(path, text='{{"evil": true}}'):
        with open(path, "w") as handle:
            handle.write(text)

    record = json.load(open(os.path.join(victim_run, "run.json")))
    attempt("other run's record", lambda: rewrite(os.path.join(victim_run, "run.json"),
                                                  json.dumps(dict(record, status="Completed"))))
    attempt("other run's metrics", lambda: rewrite(os.path.join(victim_run, "metrics", "evil.jsonl")))
    attempt("other run renamed", lambda: os.rename(victim_run, victim_run + "_gone"))
    attempt("registered model", lambda: rewrite(os.path.join(victim_model, "model.json")))
    attempt("registered model's file", lambda: rewrite(os.path.join(victim_model, "model.txt"), "evil"))
    attempt("new model version by hand", lambda: os.mkdir(os.path.join(os.path.dirname(victim_model), "99")))
    attempt("experiment index", lambda: rewrite(os.path.join(store, "experiments", "evil.json")))
    attempt("secrets", lambda: rewrite(os.path.join(store, "secrets", "db-password")))
    attempt("datastore registry", lambda: rewrite(os.path.join(store, "datastores.json")))
    attempt("through the driver's view", lambda: rewrite(
        f"/proc/{{driver_pid}}/root" + os.path.join(victim_run, "run.json")))
    remount = subprocess.run(["mount", "-o", "remount,rw", store], capture_output=True)
    attempts["remount"] = "refused" if remount.returncode else "remounted"

    run = Run.get_context()
    ws = run.experiment.workspace
    refusals = {{}}
    open("evil.txt", "w").write("evil")
    for name, action in {{
            "model tags": lambda: Model(ws, "victim").add_tags({{"evil": "1"}}),
            "secret": lambda: ws.get_default_keyvault().set_secret(name="db-password", value="evil"),
            "experiment tags": lambda: run.experiment.set_tags({{"evil": "1"}}),
            "datastore upload": lambda: ws.get_default_datastore().upload_files(["evil.txt"], target_path="evil"),
    }}.items():
        try:
            action()
            refusals[name] = "done"
        except Exception as err:
            refusals[name] = type(err).__name__ + (": read-only" if "read-only to its jobs" in str(err) else "")
    run.log("loss", 0.5)
    open("model.txt", "w").write("weights")
    run.upload_file("outputs/model.txt", "model.txt")
    child = run.child_run(name="child")
    child.log("child_metric", 1)
    child.complete()
    registered = run.register_model("from-job", model_path="outputs/model.txt")
    plain = Model.register(run.experiment.workspace, model_path="model.txt", model_name="from-job-plain")
    print("RESULT " + json.dumps({{"attempts": attempts, "refusals": refusals, "child": child.id,
                                   "models": [registered.id, plain.id]}}), flush=True)

    # Links in its own folder, for the driver to follow when it collects the job's files after the job.
    own = os.environ["ACPT_ESTIMATOR_RUN_DIR"]
    open("logs/evil.txt", "w").write("evil")
    os.rmdir(os.path.join(own, "files", "logs")) if os.path.isdir(os.path.join(own, "files", "logs")) else None
    os.symlink(os.path.join(victim_run, "files"), os.path.join(own, "files", "logs"))
    os.rename(os.path.join(own, "snapshot"), os.path.join(own, "snapshot_moved"))
    os.symlink(os.path.join(victim_run, "files"), os.path.join(own, "snapshot"))
""")

REFUSED = {"EROFS", "EACCES", "EBUSY", "EPERM"}


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store"))
    return tmp_path / "store"


def _victims(store, tmp_path):
    """A failed run and a registered model that are not the job's."""
    experiment = Experiment(Workspace._local(), "victims")
    victim = experiment.start_logging()
    victim.log("kept", 1)
    (tmp_path / "kept.txt").write_text("kept")
    victim.upload_file("outputs/kept.txt", str(tmp_path / "kept.txt"))
    victim.fail()
    (tmp_path / "model.txt").write_text("good weights")
    model = Model.register(Workspace._local(), model_path=str(tmp_path / "model.txt"), model_name="victim")
    Workspace._local().get_default_keyvault().set_secret(name="db-password", value="s3cret")
    (store / "experiments").mkdir(exist_ok=True)
    return victim, get_model("victim", model.version)


def _snapshot(folder) -> dict:
    return {str(p): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}



@pytest.mark.parametrize("uses_mlflow", [False, True], ids=["plain", "mlflow"])
def test_a_job_changes_no_record_but_its_own_and_its_own_work_goes_on(store, tmp_path, uses_mlflow):
    victim, model = _victims(store, tmp_path)
    secrets_before, victim_before = _snapshot(store / "secrets"), _snapshot(Path(victim.path))
    source = tmp_path / "src"
    source.mkdir()
    (source / "hostile.py").write_text(HOSTILE.format(mlflow="import mlflow" if uses_mlflow else ""))
    run = Experiment(Workspace._local(), "hostile").submit(PyTorch(
        str(source), entry_script="hostile.py", compute_target="local",
        script_params=[victim.path, os.path.dirname(model.path), str(os.getpid())]))
    details = run.wait_for_completion(raise_on_error=False)
    log = open(os.path.join(run.path, "files", "user_logs", "std_log.txt")).read()
    assert details["status"] == "Completed", log
    result = json.loads(next(line for line in log.splitlines() if line.startswith("RESULT "))[len("RESULT "):])
    written = {name: how for name, how in result["attempts"].items() if how not in REFUSED | {"refused"}}
    # The job's own work: metrics, files, a child run and two registered models.
    assert run.get_metrics()["loss"] == 0.5 and "outputs/model.txt" in run.get_file_names()
    child = get_run(result["child"])
    assert child.get_status() == "Completed" and child.get_metrics() == {"child_metric": 1}
    assert [c.id for c in run.get_children()] == [result["child"]]
    assert result["models"] == ["from-job:1", "from-job-plain:1"]
    assert open(get_model("from-job").path).read() == "weights" and get_model("from-job").run_id == run.id
    assert open(get_model("from-job-plain").path).read() == "weights"
    if not store_view.available():  # no read-only binds here (not root): the driver said so (test_local_store_notice)
        assert "other run's record" in written
        return
    assert written == {}, log
    assert set(result["refusals"].values()) == {"UserErrorException: read-only"}, result["refusals"]
    # Nothing of the others changed.
    assert get_run(victim.id).get_status() == "Failed"
    assert _snapshot(Path(victim.path)) == victim_before
    assert get_model("victim", model.version).tags == model.tags and open(model.path).read() == "good weights"
    assert _snapshot(store / "secrets") == secrets_before
    assert not (store / "experiments" / "evil.json").exists()
    assert not (store / "datastores.json").exists() or "evil" not in (store / "datastores.json").read_text()


NESTED = textwrap.dedent("""
    import os
    from acpt_estimator import PyTorch
    from acpt_estimator.v1.core.experiment import Experiment
    from acpt_estimator.v1.core.workspace import Workspace
    if os.environ.get("INNER"):
        from acpt_estimator.v1.core.run import Run
        run = Run.get_context()
        run.log("inner", 1)
        open("m.txt", "w").write("inner weights")
        run.upload_file("outputs/m.txt", "m.txt")
        print("registered", run.register_model("inner-model", model_path="outputs/m.txt").id)
    else:
        inner = PyTorch(".", entry_script="nested.py", compute_target="local", environment_variables={"INNER": "1"})
        run = Experiment(Workspace._local(), "inner").submit(inner)
        print("INNER", run.id, run.wait_for_completion()["status"], flush=True)
""")



def test_a_job_submitted_from_inside_a_job_runs_in_the_same_view(store, tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    (source / "nested.py").write_text(NESTED)
    outer = Experiment(Workspace._local(), "outer").submit(
        PyTorch(str(source), entry_script="nested.py", compute_target="local"))
    outer.wait_for_completion()
    log = open(os.path.join(outer.path, "files", "user_logs", "std_log.txt")).read()
    inner_id, status = next(line.split()[1:3] for line in log.splitlines() if line.startswith("INNER "))
    assert status == "Completed", log
    inner = get_run(inner_id)
    assert inner.get_metrics() == {"inner": 1} and get_model("inner-model").run_id == inner_id
    assert open(get_model("inner-model").path).read() == "inner weights"


def _namespace_descriptors() -> list:
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{fd}").startswith("mnt:"):
                found.append(fd)
        except OSError:  # (the descriptor listdir itself used, closed since)
            continue
    return found


@pytest.mark.skipif(not store_view.available(), reason="needs read-only binds (root with CAP_SYS_ADMIN)")
def test_the_job_s_namespace_is_held_while_its_record_is_made_final_then_let_go(store, tmp_path, monkeypatch):
    """The driver keeps a descriptor of the job's namespace while the job ends, so that mpiexec's exit does not wait
    out the namespace's teardown; the descriptor is closed once the run's record is final, never leaked."""
    from acpt_estimator.backends.local import cgroup_spawn
    from acpt_estimator.backends.local.job import LocalJob

    held_at_finish = []  # (launched through the spawn server, the namespace's descriptor held then)
    finished = LocalJob._finished

    def _finished(job, outcome):
        held_at_finish.append((job.supervisor._direct, job.supervisor._held_namespace is not None))
        finished(job, outcome)

    monkeypatch.setattr(LocalJob, "_finished", _finished)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "script.py").write_text("print('ok')\n")
    # An earlier test's job may still be tidying up (its waiting driver returns first): its descriptor goes then.
    for thread in threading.enumerate():
        if thread.name.startswith("acpt-local-") and not thread.daemon:  # (job watchers)
            thread.join(10)
    before = _namespace_descriptors()
    experiment = Experiment(Workspace._local(), "namespace-held")
    for _ in range(2):
        run = experiment.submit(PyTorch(str(tmp_path / "src"), entry_script="script.py", compute_target="local"))
        assert run.wait_for_completion()["status"] == "Completed"
        supervisor = run._handle._job.supervisor
        supervisor._thread.join(10)
        assert not supervisor._thread.is_alive()
        assert supervisor._held_namespace is None and _namespace_descriptors() == before
    if cgroup_spawn.ready():  # (the first job may start the slow way while the helper is being built)
        assert held_at_finish[-1] == (True, True)
    assert all(held == direct for direct, held in held_at_finish)  # (the slow way holds none: nothing to let go)
