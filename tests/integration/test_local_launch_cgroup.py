"""With cgroup tracking: mpiexec and every rank sit in the job's cgroup, with exactly the planned environment."""

from __future__ import annotations

import json
import os
import shutil
import threading

import pytest

from acpt_estimator import Mpi, PyTorch
from acpt_estimator.backends.local import cgroup, cgroup_spawn, mount_ns, procs, rank_exec
from acpt_estimator.backends.local.cgroup import job_cgroups_usable
from acpt_estimator.backends.local.procs import TRACKING_VAR
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.workspace import Workspace

pytestmark = pytest.mark.integration

# Each rank writes the cgroup of every ancestor up to mpiexec, and what it got of the driver's odd variables.
JOB = """
import json, os
def cgroup(pid):
    with open(f"/proc/{pid}/cgroup") as handle:
        return next(line.strip()[3:] for line in handle if line.startswith("0::"))
def parent(pid):
    with open(f"/proc/{pid}/stat") as handle:
        return int(handle.read().rsplit(")", 1)[1].split()[1])
chain, pid = [], os.getpid()
while True:
    with open(f"/proc/{pid}/comm") as handle:
        name = handle.read().strip()
    chain.append((name, cgroup(pid)))
    if name == "mpiexec" or pid <= 1:
        break
    pid = parent(pid)
os.makedirs("outputs", exist_ok=True)
with open(f"outputs/rank_{os.environ['RANK']}.json", "w") as handle:
    json.dump({"chain": chain, "odd": os.environ.get("ACPT_TEST_ODD"), "pmi": os.environ.get("PMI_STALE")}, handle)
"""
ODD = "two\nlines, 'quotes' and \"double\" $HOME `x` \\ end"


@pytest.mark.skipif(job_cgroups_usable() is None, reason="needs a writable cgroup v2 hierarchy")
@pytest.mark.parametrize("start", ["server", "own-helper", "moved-in"])
@pytest.mark.parametrize("rank_runner", ["rank_exec", "shell"])
def test_mpiexec_and_every_rank_are_born_in_the_job_cgroup_with_the_exact_environment(tmp_path, monkeypatch,
                                                                                     start, rank_runner):
    """Started inside by the driver's spawn server (which also makes the job's cgroup) or by a helper of its own
    (cgroup_spawn), or moved in after its start with the ranks held until then; each rank started by the C rank
    launcher or by rank.sh."""
    born_inside = start != "moved-in"
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store"))
    monkeypatch.delenv(TRACKING_VAR, raising=False)
    if rank_runner == "rank_exec":
        monkeypatch.delenv(rank_exec.DISABLE_VAR, raising=False)
        if rank_exec.build() is None:
            pytest.skip("no C compiler to build the rank launcher with")
    else:
        monkeypatch.setenv(rank_exec.DISABLE_VAR, "0")
    if born_inside:
        monkeypatch.delenv(cgroup_spawn.DISABLE_VAR, raising=False)
        if start == "own-helper":
            monkeypatch.setenv(cgroup_spawn.SERVER_VAR, "0")
        if cgroup_spawn.build() is None:
            pytest.skip("no C compiler to build the helper with")
    else:
        monkeypatch.setenv(cgroup_spawn.DISABLE_VAR, "0")
    spawned = []
    # The submitting thread's (made ahead by the server, or launched whole) and the watcher's.
    real_prepare, real_launch, real_spawn = cgroup_spawn.prepare, cgroup_spawn.launch, cgroup_spawn.spawn
    monkeypatch.setattr(cgroup_spawn, "prepare", lambda *a, **k: spawned.append(a[1]) or real_prepare(*a, **k))
    monkeypatch.setattr(cgroup_spawn, "launch", lambda *a, **k: spawned.append(a[1]) or real_launch(*a, **k))
    monkeypatch.setattr(cgroup_spawn, "spawn", lambda *a, **k: spawned.append(a[1]) or real_spawn(*a, **k))
    monkeypatch.setenv("ACPT_TEST_ODD", ODD)
    monkeypatch.setenv("PMI_STALE", "from an outer MPI job")  # launcher-owned: must not reach the ranks
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "job.py").write_text(JOB)
    run = Experiment(Workspace._local(), "stub").submit(
        PyTorch(str(tmp_path / "src"), entry_script="job.py", compute_target="local", distributed_training=Mpi(2)))
    assert run.wait_for_completion()["status"] == "Completed"
    record = run._record()
    assert record["tracking"]["kind"] == "cgroup"
    job_cgroup = record["tracking"]["path"]
    for rank in (0, 1):
        with open(os.path.join(run.path, "files", "outputs", f"rank_{rank}.json"), encoding="utf-8") as handle:
            seen = json.load(handle)
        names = [name for name, _ in seen["chain"]]
        assert names[-1] == "mpiexec", names
        assert all(job_cgroup.endswith(group) for _, group in seen["chain"]), seen["chain"]
        assert seen["odd"] == ODD and seen["pmi"] is None
    argv = record["runDefinition"]["launcher"]["argv"]
    program = argv[argv.index("-n") + 2]  # what mpiexec runs per rank
    assert program == rank_exec.ready() if rank_runner == "rank_exec" else program.endswith("sh")
    for name in ("rank.sh", "rank.plan"):
        assert not os.path.exists(os.path.join(run.path, name))  # they held the expanded arguments
    # prepare() finds no server with SERVER_VAR=0: the cgroup is made here and launch() starts a helper of its own.
    assert spawned == {"server": [job_cgroup], "own-helper": [job_cgroup] * 2, "moved-in": []}[start]


@pytest.mark.skipif(job_cgroups_usable() is None, reason="needs a writable cgroup v2 hierarchy")
def test_a_helper_that_fails_once_the_launch_began_hands_it_to_the_watcher_thread(tmp_path, monkeypatch):
    """The submitting thread starts mpiexec through the helper; a kernel that refuses its clone3 (here: a birth
    cgroup that is no cgroup) makes the watcher start it the usual way, moved in, with the job's view."""
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store"))
    monkeypatch.delenv(TRACKING_VAR, raising=False)
    monkeypatch.delenv(cgroup_spawn.DISABLE_VAR, raising=False)
    saved = dict(cgroup_spawn._state)
    if cgroup_spawn.build() is None:
        pytest.skip("no C compiler to build the helper with")
    (tmp_path / "not-a-cgroup").mkdir()
    monkeypatch.setattr(cgroup.CgroupTracker, "birth_cgroup", lambda self: str(tmp_path / "not-a-cgroup"))
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "job.py").write_text(JOB_WRITING_TO_THE_STORE)
    try:
        run = Experiment(Workspace._local(), "stub").submit(
            PyTorch(str(tmp_path / "src"), entry_script="job.py", compute_target="local",
                    distributed_training=Mpi(2)))
        assert run.wait_for_completion()["status"] == "Completed"
        assert cgroup_spawn.ready() is None  # found unusable at that launch
    finally:
        cgroup_spawn._state.clear()
        cgroup_spawn._state.update(saved)
    job_cgroup = run._record()["tracking"]["path"]
    for rank in (0, 1):
        with open(os.path.join(run.path, "files", "outputs", f"rank_{rank}.json"), encoding="utf-8") as handle:
            seen = json.load(handle)
        assert job_cgroup.endswith(seen["cgroup"])
        assert seen["store_writable"] is not mount_ns.available()  # read-only where the machine offers views


JOB_WRITING_TO_THE_STORE = """
import json, os
with open("/proc/self/cgroup") as handle:
    group = next(line.strip()[3:] for line in handle if line.startswith("0::"))
try:
    open(os.path.join(os.environ["ACPT_ESTIMATOR_HOME"], "probe-" + os.environ["RANK"]), "w").close()
    writable = True
except OSError:
    writable = False
os.makedirs("outputs", exist_ok=True)
with open(f"outputs/rank_{os.environ['RANK']}.json", "w") as handle:
    json.dump({"cgroup": group, "store_writable": writable}, handle)
"""


@pytest.mark.skipif(job_cgroups_usable() is None, reason="needs a writable cgroup v2 hierarchy")
def test_warming_up_the_cgroup_lock_leaves_the_guardian_where_it_was(monkeypatch):
    monkeypatch.delenv(TRACKING_VAR, raising=False)
    base = job_cgroups_usable()
    procs.new_tracker("warm_probe_1").release()  # a first job made the driver group and its guardian
    group = cgroup.driver_group(base)
    done = threading.Event()
    cgroup.warm_up(group)  # what making a job's cgroup asks of the guardian's thread
    cgroup._errands[group].put(done.set)  # run after the warm-up, on the same thread
    assert done.wait(30)
    guardian = cgroup._guardians[group]
    with open(os.path.join(base, "cgroup.procs"), encoding="utf-8") as handle:
        assert str(guardian) in handle.read().split()  # still in the driver's cgroup, still alive
    with open(f"/proc/{guardian}/comm", encoding="utf-8") as handle:
        assert handle.read().strip() == "sh"


@pytest.mark.skipif(job_cgroups_usable() is None, reason="needs a writable cgroup v2 hierarchy")
def test_a_warm_up_never_moves_a_process_that_is_not_the_guardian(monkeypatch):
    """Were the guardian gone and its pid reused by a job's process, rewriting that pid would take it out of its
    job's cgroup: the warm-up checks the start time it recorded for the guardian."""
    monkeypatch.delenv(TRACKING_VAR, raising=False)
    base = job_cgroups_usable()
    tracker = procs.new_tracker("warm_probe_2")
    pid = os.posix_spawn("/bin/sleep", ["sleep", "30"], {})
    try:
        tracker.started(pid)
        cgroup._rewrite(base, pid)  # as if this pid were a guardian's
        assert pid in tracker.pids()
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        tracker.release()


PROBE_EARLY = """
import os, sys
from acpt_estimator.backends.local import cgroup
base = cgroup._own_cgroup()
cgroup.start_probe()
probe, shell = cgroup._started_probes[base]
assert os.path.isdir(probe) and probe.startswith(base + os.sep), probe
cgroup.start_probe()  # once: a second call starts nothing
assert cgroup._started_probes[base] == (probe, shell)
assert cgroup.job_cgroups_usable() == base  # the verdict of the shell started above
assert not cgroup._started_probes and shell.returncode == 0 and not os.path.exists(probe)
cgroup.start_probe()  # probed already: nothing started
assert not cgroup._started_probes
print("ok")
"""


@pytest.mark.skipif(job_cgroups_usable() is None, reason="needs a writable cgroup v2 hierarchy")
def test_a_probe_started_early_gives_the_verdict_and_leaves_nothing_behind():
    """Without the spawn helper (never built here, or turned off), the probe is a shell that moves itself in."""
    import subprocess
    import sys

    env = dict(os.environ, ACPT_ESTIMATOR_CGROUP_SPAWN="0")
    done = subprocess.run([sys.executable, "-c", PROBE_EARLY], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


PROBE_BY_HELPER = """
import os, subprocess
from acpt_estimator.backends.local import cgroup, cgroup_spawn
assert cgroup_spawn.build() is not None
base = cgroup._own_cgroup()
started = []
real_popen = subprocess.Popen
subprocess.Popen = lambda *a, **k: started.append(a) or real_popen(*a, **k)
cgroup.start_probe()  # the helper is built: nothing to start ahead
assert not cgroup._started_probes
assert cgroup.job_cgroups_usable() == base  # a process started inside the probe cgroup by the helper said so
assert not started, started  # no shell moved itself in
assert not [name for name in os.listdir(base) if name.startswith("acpt-probe-")]
print("ok")
"""


@pytest.mark.skipif(job_cgroups_usable() is None, reason="needs a writable cgroup v2 hierarchy")
@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="needs a C compiler")
def test_where_the_spawn_helper_is_built_it_gives_the_probe_s_verdict_without_a_move():
    """A process started inside the probe cgroup (clone3) proves what a move into it would, without the move's wait
    for an RCU grace period (10-17 ms of a driver's first job)."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "ACPT_ESTIMATOR_CGROUP_SPAWN"}
    done = subprocess.run([sys.executable, "-c", PROBE_BY_HELPER], capture_output=True, text=True, timeout=120,
                          env=env)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


@pytest.mark.skipif(job_cgroups_usable() is None, reason="needs a writable cgroup v2 hierarchy")
def test_the_tracker_reads_its_cgroup_s_events_through_one_descriptor_kept_from_the_launch():
    """Once the launcher is tracked, cgroup.events stays open: whether anything is left is then one pread as the job
    ends (its content is made afresh at each read), and the descriptor goes with the cgroup."""
    import subprocess
    import time

    tracker = procs.new_tracker("events_probe_1")
    assert isinstance(tracker, cgroup.CgroupTracker)
    sleeper = subprocess.Popen(["sleep", "30"])
    try:
        tracker.started(sleeper.pid)
        descriptor = tracker._events
        assert descriptor is not None and tracker.pids() == [sleeper.pid]
    finally:
        sleeper.kill()
        sleeper.wait()
    deadline = time.monotonic() + 5
    while tracker.pids() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert tracker.pids() == [] and tracker._events == descriptor  # read again through the same descriptor
    tracker.release()
    assert tracker._events is None and not os.path.exists(tracker.path)
