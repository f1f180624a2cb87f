"""A Horovod estimator on ACPT 2.8 becomes a v2 job that ships the job runtime, and its command makes the layer
importable: the translated command is run here per rank under mpiexec, the way an MPI job runs it."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys

import pytest

from acpt_estimator import Gloo, PyTorch
from acpt_estimator.backends.azureml.translate import to_command
from acpt_estimator.backends.local.mpi import find_launcher
from acpt_estimator.job_runtime import INPUT_NAME, RUNTIME_DIR

pytestmark = pytest.mark.integration

SOURCE = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "samples", "horovod_mnist", "src")
# One write per rank (print makes two when unbuffered), so the ranks' lines cannot interleave.
PROBE = ("import os, horovod, horovod.torch as hvd\nhvd.init()\n"
         "os.write(1, f'probe {hvd.rank()} {hvd.size()} {horovod._acpt_layer}\\n'.encode())\n")


def _horovod_estimator(source=SOURCE, **kwargs):
    # v1's Horovod recipe: distributed_backend='mpi' on GPU nodes, which now means the ACPT 2.8 image (no Horovod).
    return PyTorch(source, compute_target="gpu-cluster", entry_script="train.py", node_count=1,
                   process_count_per_node=2, distributed_backend="mpi", use_gpu=True, **kwargs)


def test_horovod_estimator_on_acpt_ships_the_job_runtime():
    command = to_command(_horovod_estimator(script_params={"--epochs": 1}).to_job_spec(experiment_name="hvd"))
    assert command.environment == "azureml:AzureML-acpt-pytorch-2.8-cuda12.6@latest"
    runtime = command.inputs[INPUT_NAME]
    assert (runtime.type, runtime.path, runtime.mode) == ("uri_folder", RUNTIME_DIR, "download")
    assert command.command.splitlines()[1] == \
        f'export PYTHONPATH="${{{{inputs.{INPUT_NAME}}}}}${{PYTHONPATH:+:${{PYTHONPATH}}}}"'
    assert os.path.isfile(os.path.join(RUNTIME_DIR, "horovod", "torch", "__init__.py"))


def test_only_jobs_that_may_use_horovod_or_lack_azureml_core_get_it():
    gloo = PyTorch(SOURCE, compute_target="gpu-cluster", entry_script="train.py", node_count=2,
                   distributed_training=Gloo(), use_gpu=True)  # ACPT: no Horovod use, azureml-core included
    assert INPUT_NAME not in (to_command(gloo.to_job_spec()).inputs or {})
    cpu = PyTorch(SOURCE, compute_target="cpu-cluster", entry_script="train.py", node_count=2,
                  distributed_training=Gloo())  # the CPU image has no azureml-core: the runtime's Run serves it
    assert INPUT_NAME in to_command(cpu.to_job_spec()).inputs
    single = PyTorch(SOURCE, compute_target="cpu-cluster", entry_script="train.py",
                     environment_variables={"ACPT_ESTIMATOR_HOROVOD": "auto"})  # a one-process Horovod script
    assert INPUT_NAME in to_command(single.to_job_spec()).inputs


def test_translated_command_imports_the_layer_on_every_rank(tmp_path):
    source = tmp_path / "code"
    source.mkdir()
    (source / "train.py").write_text(PROBE)
    command = to_command(_horovod_estimator(str(source)).to_job_spec(experiment_name="hvd")).command
    # What the v2 service does: download the input (.amlignore keeps bytecode out) and substitute its path.
    downloaded = tmp_path / "inputs" / INPUT_NAME
    shutil.copytree(RUNTIME_DIR, downloaded, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    script = command.replace(f"${{{{inputs.{INPUT_NAME}}}}}", str(downloaded))
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ACPT_ESTIMATOR_", "PYTHONPATH", "MASTER_"))}
    env.update({"PATH": os.path.dirname(sys.executable) + os.pathsep + env["PATH"], "MASTER_PORT": str(port),
                # ACPT 2.8 has no Horovod; this machine has one installed, so ask for the layer explicitly.
                "ACPT_ESTIMATOR_HOROVOD": "layer"})
    done = subprocess.run([find_launcher().path, "-n", "2", "bash", "-c", script], cwd=source, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(line for line in done.stdout.splitlines() if line.startswith("probe")) == \
        ["probe 0 2 True", "probe 1 2 True"]
