"""Horovod's MNIST example as an unchanged v1 MPI estimator, run locally through mpiexec with real Horovod (MPI and
Gloo controllers) and with acpt-estimator's layer (MPI and gloo transports), 1x2 and 2x2; both give the same numbers.

Real Horovod must be installed (scripts/setup.sh builds it): these tests fail rather than skip without it.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import torch

from acpt_estimator import PyTorch
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.workspace import Workspace

pytestmark = pytest.mark.integration

SOURCE = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "samples", "horovod_mnist", "src")
EPOCHS, BATCHES = 2, 5
# name -> (nodes, job environment variables). Real Horovod is required (mode 'real'), never silently replaced.
JOBS = {
    "real_mpi_1x2": (1, {"ACPT_ESTIMATOR_HOROVOD": "real"}),
    "real_mpi_2x2": (2, {"ACPT_ESTIMATOR_HOROVOD": "real"}),
    "real_gloo_2x2": (2, {"ACPT_ESTIMATOR_HOROVOD": "real", "HOROVOD_CONTROLLER": "gloo"}),
    "layer_mpi_1x2": (1, {"ACPT_ESTIMATOR_HOROVOD": "layer", "ACPT_ESTIMATOR_HOROVOD_CPU_TRANSPORT": "mpi"}),
    "layer_mpi_2x2": (2, {"ACPT_ESTIMATOR_HOROVOD": "layer", "ACPT_ESTIMATOR_HOROVOD_CPU_TRANSPORT": "mpi"}),
    "layer_gloo_2x2": (2, {"ACPT_ESTIMATOR_HOROVOD": "layer", "ACPT_ESTIMATOR_HOROVOD_CPU_TRANSPORT": "gloo"}),
}
# The same seed through both implementations: the layer against real Horovod, and Horovod's two controllers.
PAIRS = [("layer_mpi_1x2", "real_mpi_1x2"), ("layer_mpi_2x2", "real_mpi_2x2"), ("layer_gloo_2x2", "real_mpi_2x2"),
         ("real_gloo_2x2", "real_mpi_2x2")]


@pytest.fixture(scope="module")
def jobs(tmp_path_factory):
    """Runs each job once, on first use; the parity test reuses the runs of the training tests."""
    root = tmp_path_factory.mktemp("horovod")
    done = {}

    def get(name):
        if name not in done:
            nodes, variables = JOBS[name]
            with pytest.MonkeyPatch.context() as patch:
                patch.setenv("ACPT_ESTIMATOR_HOME", str(root / "store"))
                est = PyTorch(SOURCE, entry_script="train.py", compute_target="local", node_count=nodes,
                              process_count_per_node=2, distributed_backend="mpi", environment_variables=variables,
                              script_params={"--epochs": EPOCHS, "--batches-per-epoch": BATCHES})
                run = Experiment(Workspace._local(), name).submit(est)
                details = run.wait_for_completion(raise_on_error=False)
                out = root / name
                run.download_files(prefix="outputs", output_directory=str(out))
            weights = [torch.load(out / "outputs" / f"weights_rank{r}.pt") for r in range(2 * nodes)] \
                if details["status"] == "Completed" else []
            done[name] = {"details": details, "metrics": run.get_metrics(), "weights": weights, "world": 2 * nodes}
        return done[name]

    return get


def _rank_losses(metrics) -> dict:
    table = metrics["rank_loss"]
    return {(e, b, r): loss for e, b, r, loss in zip(table["epoch"], table["batch"], table["rank"], table["loss"])}


@pytest.mark.parametrize("name", sorted(JOBS))
def test_horovod_mnist_trains_in_sync(jobs, name):
    job = jobs(name)
    details, metrics, world = job["details"], job["metrics"], job["world"]
    assert details["status"] == "Completed", details.get("error")
    assert metrics["hvd_size"] == [world] * world  # every rank sees the whole job: no N x 1
    assert metrics["horovod_layer"] == [int(name.startswith("layer"))] * world
    assert metrics["gloo_controller"] == [int("gloo" in name)] * world  # Gloo controller, or gloo transport
    # metric averaging: every rank logged the same allreduced loss each epoch, and it went down
    losses = metrics["loss"]
    assert len(losses) == EPOCHS * world and len(set(losses[:world])) == 1
    assert losses[-1] < losses[0]
    assert len(_rank_losses(metrics)) == EPOCHS * BATCHES * world  # Run.get_context().log_row on every rank
    first = job["weights"][0]
    for other in job["weights"][1:]:  # DistributedOptimizer + broadcasts leave identical weights everywhere
        assert all(torch.equal(first[k], other[k]) for k in first)


@pytest.mark.parametrize("pair", PAIRS, ids=["-vs-".join(p) for p in PAIRS])
def test_same_numbers_with_either_implementation(jobs, pair):
    a, b = jobs(pair[0]), jobs(pair[1])
    assert a["details"]["status"] == b["details"]["status"] == "Completed"
    la, lb = _rank_losses(a["metrics"]), _rank_losses(b["metrics"])
    assert la.keys() == lb.keys()
    worst = max(abs(la[k] - lb[k]) for k in la)
    assert worst <= 1e-5, f"per-rank losses differ by up to {worst:.3g}"
    wa, wb = a["weights"][0], b["weights"][0]
    assert max((wa[k] - wb[k]).abs().max().item() for k in wa) <= 1e-5


def test_horovod_without_rendezvous_under_mpirun_fails_loudly(tmp_path, monkeypatch):
    """A Gloo-controller Horovod that nobody gave a rendezvous runs N one-process jobs; the guard stops it."""
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store"))
    variables = {"ACPT_ESTIMATOR_HOROVOD": "real", "HOROVOD_CONTROLLER": "gloo", "HOROVOD_CPU_OPERATIONS": "gloo",
                 "ACPT_ESTIMATOR_HOROVOD_GLOO_RENDEZVOUS": "off"}
    est = PyTorch(SOURCE, entry_script="train.py", compute_target="local", process_count_per_node=2,
                  distributed_backend="mpi", environment_variables=variables, script_params={"--epochs": 1})
    run = Experiment(Workspace._local(), "n-by-one").submit(est)
    details = run.wait_for_completion(raise_on_error=False)
    assert details["status"] == "Failed"
    error = details["error"]["error"]
    tail = "\n".join(error["logTail"])
    assert "Horovod reports size()=1 but the launcher started 2 processes" in tail
    assert "Gloo controller had no rendezvous" in tail and "ACPT_ESTIMATOR_HOROVOD=layer" in tail
    assert "hvd_size" not in run.get_metrics()  # stopped in hvd.init(), before any training


def test_sample_driver_runs_unchanged(tmp_path):
    """samples/horovod_mnist/driver.py, a cloud target forced onto this machine (no Azure, no config.json)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACPT_ESTIMATOR_")}
    env.update(ACPT_ESTIMATOR_TARGET="local", ACPT_ESTIMATOR_HOME=str(tmp_path / "store"))
    driver = os.path.join(os.path.dirname(SOURCE), "driver.py")
    done = subprocess.run([sys.executable, driver, "--epochs", "1"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "status: Completed" in done.stdout and "horovod size: [2, 2] layer: [0, 0]" in done.stdout
