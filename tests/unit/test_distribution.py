"""All v1 spellings of distributed training normalise to one form (spec/v1-api.md §2)."""

import pytest

from acpt_estimator import Gloo, Mpi, MpiConfiguration, Nccl, PyTorch, PyTorchConfiguration
from acpt_estimator.distribution import from_mpi_configuration, from_pytorch_configuration

from .golden_cases import SRC


def dist(**kwargs):
    return PyTorch(SRC, compute_target="c", entry_script="train.py", **kwargs).to_job_spec().distribution


@pytest.mark.parametrize("kwargs, expected", [
    ({}, ("none", 1, 1, None)),
    ({"distributed_backend": "mpi", "node_count": 2, "process_count_per_node": 3}, ("mpi", 2, 3, None)),
    ({"distributed_backend": "gloo", "node_count": 2}, ("pytorch", 2, 1, "gloo")),
    ({"distributed_backend": "nccl", "node_count": 3, "process_count_per_node": 2}, ("pytorch", 3, 2, "nccl")),
    ({"distributed_training": Mpi(4), "node_count": 2}, ("mpi", 2, 4, None)),
    ({"distributed_training": Gloo(), "node_count": 2}, ("pytorch", 2, 1, "gloo")),
    ({"distributed_training": Nccl(), "node_count": 2, "process_count_per_node": 4}, ("pytorch", 2, 4, "nccl")),
    ({"distributed_training": MpiConfiguration(3, 5), "node_count": 2}, ("mpi", 2, 3, None)),
    ({"distributed_training": PyTorchConfiguration("Gloo", process_count=4, node_count=2)}, ("pytorch", 2, 2, "gloo")),
])
def test_spellings_normalise(kwargs, expected):
    d = dist(**kwargs)
    assert (d.kind, d.node_count, d.process_count_per_node, d.backend) == expected


def test_pytorch_configuration_total_is_split_per_node():
    d = from_pytorch_configuration(PyTorchConfiguration(process_count=8, node_count=4))
    assert (d.node_count, d.process_count_per_node, d.world_size) == (4, 2, 8)


def test_mpi_configuration_for_script_run_config_uses_its_node_count():
    d = from_mpi_configuration(MpiConfiguration(process_count_per_node=2, node_count=3))
    assert (d.kind, d.node_count, d.process_count_per_node) == ("mpi", 3, 2)


def test_communication_backend_stored_lower_case():
    assert PyTorchConfiguration(communication_backend="Gloo").communication_backend == "gloo"
