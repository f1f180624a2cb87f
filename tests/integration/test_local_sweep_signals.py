"""SIGTERM to a driver mid-sweep ends the sweep and its running trials as Canceled, like a single run (issue 23)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from acpt_estimator.backends.local import get_run

pytestmark = pytest.mark.integration
SRC = os.path.join(os.path.dirname(__file__), os.pardir, "data", "sweep_src")

DRIVER = textwrap.dedent(f"""
    import sys
    from acpt_estimator import PyTorch
    from acpt_estimator.v1.core.experiment import Experiment
    from acpt_estimator.v1.core.workspace import Workspace
    from acpt_estimator.v1.train.hyperdrive.runconfig import HyperDriveConfig
    from acpt_estimator.v1.train.hyperdrive.sampling import GridParameterSampling
    from acpt_estimator.v1.train.hyperdrive.policy import PrimaryMetricGoal
    from acpt_estimator.v1.train.hyperdrive.parameter_expressions import choice
    est = PyTorch({SRC!r}, compute_target="local", entry_script="objective.py", script_params={{"--steps": 400}})
    config = HyperDriveConfig(estimator=est, hyperparameter_sampling=GridParameterSampling({{"quality": choice(1, 2, 3)}}),
                              primary_metric_name="accuracy", primary_metric_goal=PrimaryMetricGoal.MAXIMIZE,
                              max_total_runs=3, max_concurrent_runs=2)
    run = Experiment(Workspace.from_config(), "sweep-signal").submit(config)
    print("RUN", run.id, flush=True)
    if sys.argv[1] == "wait":
        run.wait_for_completion()
""")  # "return": the driver's code ends at once; the interpreter waits for the sweep, as for single runs


@pytest.mark.parametrize("driver_mode", ["wait", "return"])
def test_sigterm_mid_sweep_cancels_the_sweep_and_its_running_trials(tmp_path, driver_mode):
    (tmp_path / "driver.py").write_text(DRIVER)
    store = tmp_path / "store"
    env = dict(os.environ, ACPT_ESTIMATOR_TARGET="local", ACPT_ESTIMATOR_HOME=str(store))
    driver = subprocess.Popen([sys.executable, "driver.py", driver_mode], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    run_id = driver.stdout.readline().split()[-1]
    sweep = get_run(run_id, store_home=str(store))
    deadline = time.time() + 90
    while time.time() < deadline and not any(c.get_metrics("accuracy") for c in sweep.get_children()):
        time.sleep(0.2)
    driver.send_signal(signal.SIGTERM)
    out = driver.communicate(timeout=120)[0]
    sweep = get_run(run_id, store_home=str(store))
    children = list(sweep.get_children())
    assert sweep.get_status() == "Canceled", out
    assert children and all(c.get_status() == "Canceled" for c in children), [c.get_status() for c in children]
