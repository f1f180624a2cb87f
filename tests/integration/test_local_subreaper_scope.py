"""The subreaper fallback (no job cgroups) touches only the job's processes (issue 23): the driver's own helpers
are neither killed nor reaped, and the driver gets its subreaper flag and signal handlers back after the job."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.integration

DRIVER = textwrap.dedent("""
    import ctypes, json, signal, subprocess, sys, time
    from acpt_estimator import PyTorch
    from acpt_estimator.v1.core.experiment import Experiment
    from acpt_estimator.v1.core.workspace import Workspace

    def subreaper():
        value = ctypes.c_int(-1)
        ctypes.CDLL(None).prctl(37, ctypes.byref(value), 0, 0, 0)  # PR_GET_CHILD_SUBREAPER
        return value.value

    before = (subreaper(), signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT))
    run = Experiment(Workspace._local(), "scope").submit(
        PyTorch("src", entry_script="job.py", compute_target="local"))
    time.sleep(0.5)  # the job has started: the helpers start after it, in sessions of their own
    quick = subprocess.Popen([sys.executable, "-c", "import sys; sys.exit(3)"], start_new_session=True)
    slow = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    status = run.wait_for_completion()["status"]
    after = (subreaper(), signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT))
    result = {"status": status, "quick": quick.wait(), "slow_alive": slow.poll() is None,
              "subreaper": [before[0], after[0]], "handlers_back": before[1:] == after[1:]}
    slow.kill()
    print(json.dumps(result))
""")
JOB = "import time\nfor _ in range(30):\n    time.sleep(0.1)\n"


def test_the_fallback_leaves_the_drivers_own_processes_and_settings_alone(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "job.py").write_text(JOB)
    (tmp_path / "driver.py").write_text(DRIVER)
    env = dict(os.environ, ACPT_ESTIMATOR_HOME=str(tmp_path / "store"), ACPT_ESTIMATOR_PROCESS_TRACKING="subreaper")
    done = subprocess.run([sys.executable, "driver.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["status"] == "Completed"
    assert result["quick"] == 3  # its exit code, not stolen by the job's reaping
    assert result["slow_alive"]  # not killed with the job
    assert result["subreaper"] == [0, 0] and result["handlers_back"], result
