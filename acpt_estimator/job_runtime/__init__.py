"""Files jobs see on PYTHONPATH (this folder itself, never imported from here): ``horovod`` and ``azureml.core``.

The folder goes first on the ranks' PYTHONPATH in local runs and ships as a v2 job input in cloud jobs. Its
``horovod`` package serves a real Horovod if one is installed, else acpt-estimator's layer over torch.distributed;
its ``azureml.core`` serves the image's real azureml-core (ACPT images have it), else a ``Run`` that logs to the
job's MLflow run. This module only says where the folder is and which jobs get it.
May import: only itself and the standard library (it runs in images without acpt-estimator); the engine imports it.
"""

from __future__ import annotations

import os

RUNTIME_DIR = os.path.dirname(os.path.abspath(__file__))
INPUT_NAME = "acpt_job_runtime"  # the v2 job input that carries RUNTIME_DIR
MODE_VAR = "ACPT_ESTIMATOR_HOROVOD"  # auto | layer | real (read by horovod/_select.py in the job)
# Also spelled out in horovod/_topology.py: job processes do not import acpt_estimator.
RENDEZVOUS_PORT_VAR = "ACPT_ESTIMATOR_RENDEZVOUS_PORT"


TRACKING_CHECK = "acpt_check_tracking"  # module run first in jobs on user-managed environments


def ships_with_cloud_job(spec) -> bool:
    """Cloud jobs that may lack azureml-core (images other than ACPT: CPU, custom, registered, a user's Dockerfile)
    get it too, so ``from azureml.core.run import Run`` keeps working there and logs to the job's MLflow run."""
    env = spec.environment
    user_build = env.kind == "build" and env.torch_version is None  # not a build on ACPT
    return needs_job_runtime(spec) or env.kind in ("image", "registered") or user_build


def checks_tracking(spec) -> bool:
    """Environments we install nothing into (user-managed, or registered in the workspace): the job checks first
    that run.log(...) can reach the run, instead of losing the metrics (or crashing in MLflow) hours later."""
    return spec.environment.user_managed or spec.environment.kind == "registered"


def needs_job_runtime(spec) -> bool:
    """MPI jobs (how v1 launched Horovod: distributed_backend='mpi', Mpi(), MpiConfiguration()), or any job that
    sets ACPT_ESTIMATOR_HOROVOD in its environment_variables (a single-process script that imports horovod)."""
    return spec.distribution.kind == "mpi" or MODE_VAR in spec.environment_variables
