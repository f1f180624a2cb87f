"""The estimator shapes whose v2 translations are pinned by golden files."""

import os

from acpt_estimator import Datastore, Gloo, Mpi, Nccl, PyTorch, PyTorchConfiguration

SRC = os.path.join(os.path.dirname(__file__), os.pardir, "data", "golden_src")


class _Workspace:
    name = "ws"


def _ds():
    return Datastore(_Workspace(), "workspaceblobstore")


def _dist_params(backend):
    return {"--dist-backend": backend, "--dist-url": "$AZ_BATCHAI_PYTORCH_INIT_METHOD",
            "--rank": "$AZ_BATCHAI_TASK_INDEX", "--world-size": 2}


CASES = {
    # 2018 Horovod sample: 2 nodes x 1 process, MPI, GPU.
    "horovod_2018": lambda: PyTorch(SRC, compute_target="gpu-cluster", entry_script="train.py",
                                    script_params={"--epochs": 10}, node_count=2, process_count_per_node=1,
                                    distributed_backend="mpi", use_gpu=True),
    "mpi_2020": lambda: PyTorch(SRC, compute_target="gpu-cluster", entry_script="train.py",
                                script_params={"--rank": "$AZ_BATCHAI_TASK_INDEX"}, node_count=2,
                                distributed_training=Mpi(4), use_gpu=True, framework_version="1.6"),
    "nccl_2020": lambda: PyTorch(SRC, compute_target="gpu-cluster", entry_script="train.py",
                                 script_params=_dist_params("nccl"), node_count=2, distributed_training=Nccl(),
                                 use_gpu=True),
    "gloo_2020": lambda: PyTorch(SRC, compute_target="cpu-cluster", entry_script="train.py",
                                 script_params=_dist_params("gloo"), node_count=2, distributed_training=Gloo()),
    "pytorch_configuration": lambda: PyTorch(
        SRC, compute_target="gpu-cluster", entry_script="train.py", use_gpu=True,
        distributed_training=PyTorchConfiguration(communication_backend="Nccl", process_count=4, node_count=2)),
    "data_params": lambda: PyTorch(
        SRC, compute_target="gpu-cluster", entry_script="train.py", use_gpu=True,
        script_params={"--data-folder": _ds().as_mount(),
                       "--cache": _ds().path("mnist/cache", data_reference_name="cache").as_download(),
                       "--labels": _ds().path("mnist/labels.csv", data_reference_name="labels").as_download(),
                       "--use-amp": "", "--layers": [64, 32, 10], "--lr": 0.01, "--epochs": 30, "--seed": 0,
                       "--note": "it's a \"test\"; rm -rf /"}),
    "pip_packages": lambda: PyTorch(SRC, compute_target="gpu-cluster", entry_script="train.py", use_gpu=True,
                                    pip_packages=["transformers==4.46.0", "datasets"],
                                    pip_requirements_file="requirements.txt", framework_version="2.8"),
    "cpu_job": lambda: PyTorch(SRC, compute_target="cpu-cluster", entry_script="train.py",
                               pip_packages=["pillow"], environment_variables={"OMP_NUM_THREADS": "4"},
                               max_run_duration_seconds=3600),
    "custom_image": lambda: PyTorch(SRC, compute_target="gpu-cluster", entry_script="train.py", use_gpu=True,
                                    custom_docker_image="myregistry.azurecr.io/train:1.2", shm_size="16g"),
    "vm_size_serverless": lambda: PyTorch(SRC, vm_size="Standard_NC6s_v3", vm_priority="lowpriority",
                                          entry_script="train.py", use_gpu=True, node_count=2,
                                          distributed_backend="nccl"),
}
