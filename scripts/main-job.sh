#!/usr/bin/env bash
# Set up .venv/ if needed, then run the main job: the unchanged v1-style driver samples/pytorch_mpi_local/driver.py
# (PyTorch estimator, Mpi(2), exp.submit, wait_for_completion(show_output=True)) on this machine through mpiexec.
# ACPT_ESTIMATOR_TARGET=local forces the cloud target 'cpu-cluster' onto this machine: no Azure, no config.json.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
mkdir -p .main-job
cd .main-job  # runs (.acpt/), the downloaded model.pt and registered models land here
ACPT_ESTIMATOR_TARGET=local exec ../.venv/bin/python ../samples/pytorch_mpi_local/driver.py --compute-target cpu-cluster "$@"
