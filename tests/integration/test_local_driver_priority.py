"""The driver's own threads, spawn server and a job's MPI launcher run at SCHED_BATCH; the job's ranks run at the driver's
own policy."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from acpt_estimator.backends.local import driver_priority

pytestmark = pytest.mark.integration
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

DRIVER = r"""
import os, sys, threading
policy = sys.argv[1]
if policy == "idle":
    os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))  # as `chrt --idle 0 python driver.py`
from acpt_estimator import Mpi, PyTorch
from acpt_estimator.backends.local import cgroup_spawn, rank_exec
cgroup_spawn.build(), rank_exec.build()  # (both jobs then start through them, whatever the cache held)
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.workspace import Workspace
estimator = PyTorch("src", entry_script="script.py", compute_target="local",
                    distributed_training=Mpi(process_count_per_node=2))
experiment = Experiment(Workspace._local(), "policy")
for _ in range(2):
    run = experiment.submit(estimator)
    assert run.wait_for_completion()["status"] == "Completed"
server = cgroup_spawn._servers.get(os.getpid())
print("server", os.sched_getscheduler(server.pid) if server else "none")
print("events", next(os.sched_getscheduler(t.native_id) for t in threading.enumerate() if t.name == "acpt-store-grants"))
print("main", os.sched_getscheduler(0))
for rank in range(2):
    with open(os.path.join(run.get_details()["logFiles"][f"user_logs/std_log_process_{rank}.txt"])) as handle:
        print(handle.read().strip())
"""


def _run_driver(tmp_path, policy: str) -> dict:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "script.py").write_text(
        "import os\nparent = os.getppid()\nwith open(f'/proc/{parent}/comm') as handle:\n    name = handle.read().strip()\n"
        "print('rank', os.sched_getscheduler(0), name, os.sched_getscheduler(parent))\n")
    (tmp_path / "driver.py").write_text(DRIVER)
    env = dict(os.environ, ACPT_ESTIMATOR_HOME=str(tmp_path / "store"),
               PYTHONPATH=os.pathsep.join([REPO, os.path.join(REPO, "compat")]))
    done = subprocess.run([sys.executable, "driver.py", policy], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [line.split() for line in done.stdout.splitlines()]
    ranks = [words for words in lines[3:] if words[0] == "rank"]
    return {"server": lines[0][1], "events": int(lines[1][1]), "main": int(lines[2][1]),
            "ranks": [int(words[1]) for words in ranks], "parents": [(words[2], int(words[3])) for words in ranks]}


def test_the_driver_s_threads_yield_and_the_job_runs_at_the_driver_s_own_policy(tmp_path):
    seen = _run_driver(tmp_path, "other")
    assert seen["main"] == os.SCHED_OTHER  # the user's thread is never changed
    assert seen["events"] == os.SCHED_BATCH
    assert seen["server"] in (str(os.SCHED_BATCH), "none")  # (none: no cgroup v2 or compiler here)
    assert seen["ranks"] == [os.SCHED_OTHER, os.SCHED_OTHER]  # as under a plain mpiexec
    if seen["server"] == str(os.SCHED_BATCH):
        # Their C launcher (with mpiexec and its proxy) stays at SCHED_BATCH: mpiexec, woken by its exiting proxy,
        # must not preempt it (rank_exec.c); it gives the rank's command the driver's policy back.
        assert [name[:len("acpt-rank")] for name, _ in seen["parents"]] == ["acpt-rank"] * 2, seen["parents"]
        assert [policy for _, policy in seen["parents"]] == [os.SCHED_BATCH] * 2


def test_a_driver_under_another_policy_keeps_it_and_so_does_its_job(tmp_path):
    seen = _run_driver(tmp_path, "idle")
    assert seen["main"] == seen["events"] == os.SCHED_IDLE
    assert seen["server"] in (str(os.SCHED_IDLE), "none")
    assert seen["ranks"] == [os.SCHED_IDLE, os.SCHED_IDLE]
    assert [policy for _, policy in seen["parents"]] == [os.SCHED_IDLE] * 2


def test_a_thread_moved_to_batch_goes_back_before_it_starts_a_job_s_process():
    policies = []

    def work():
        driver_priority.yield_to_jobs()
        policies.append(os.sched_getscheduler(0))
        driver_priority.stop_yielding()
        policies.append(os.sched_getscheduler(0))
        driver_priority.stop_yielding()  # (once is enough)
        policies.append(os.sched_getscheduler(0))

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert policies == [os.SCHED_BATCH, os.SCHED_OTHER, os.SCHED_OTHER]
    assert os.sched_getscheduler(0) == os.SCHED_OTHER  # the calling thread only
