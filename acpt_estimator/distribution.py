"""Every v1 way to ask for distributed training, normalised to one ``Distribution``."""

from __future__ import annotations

import logging

import attrs

from .exceptions import RunConfigurationException, TrainingException
from .spec import Distribution

logger = logging.getLogger(__name__)

SUPPORTED_BACKENDS = ["mpi", "gloo", "nccl"]


class _DistributedTraining:
    """Base of v1's ``azureml.train.dnn`` distributed-training markers."""


@attrs.define
class Mpi(_DistributedTraining):
    """v1 ``azureml.train.dnn.Mpi``: one MPI job with ``process_count_per_node`` ranks per node."""

    process_count_per_node: int = 1


@attrs.define
class Gloo(_DistributedTraining):
    """v1 ``azureml.train.dnn.Gloo``: torch.distributed over gloo, env:// rendezvous."""


@attrs.define
class Nccl(_DistributedTraining):
    """v1 ``azureml.train.dnn.Nccl``: torch.distributed over NCCL, env:// rendezvous."""


@attrs.define
class ParameterServer(_DistributedTraining):
    """v1 TensorFlow parameter-server training; refused for PyTorch like v1 did."""

    worker_count: int = 1
    parameter_server_count: int = 1


@attrs.define
class MpiConfiguration:
    """v1 ``azureml.core.runconfig.MpiConfiguration``."""

    process_count_per_node: int = 1
    node_count: int = 1


def _lower_backend(value):
    if not isinstance(value, str) or value.lower() not in ("nccl", "gloo"):
        raise RunConfigurationException(
            f"{value} is not a supported backend. 'communication_backend' must be 'Nccl' or 'Gloo'. "
            f"Got communication_backend={value!r}; pass communication_backend='Gloo' for CPU jobs or 'Nccl' for GPU jobs."
        )
    return value.lower()


@attrs.define
class PyTorchConfiguration:
    """v1 ``azureml.core.runconfig.PyTorchConfiguration``; ``process_count`` is the total over all nodes."""

    communication_backend: str = attrs.field(default="Nccl", converter=_lower_backend)
    process_count: int | None = None
    node_count: int = 1

    def __attrs_post_init__(self):
        if self.node_count is None or int(self.node_count) < 1:
            raise RunConfigurationException(
                f"PyTorchConfiguration node_count={self.node_count!r} is not allowed: it must be at least 1."
            )
        if self.process_count is not None and (
            int(self.process_count) < 1 or int(self.process_count) % int(self.node_count)
        ):
            raise RunConfigurationException(
                f"PyTorchConfiguration process_count={self.process_count!r} must be a positive multiple of "
                f"node_count={self.node_count!r}: process_count is the TOTAL number of processes over all nodes "
                f"(v2 needs a per-node count). Use process_count={int(self.node_count) * max(1, int(self.process_count) // int(self.node_count) or 1)} "
                f"or change node_count."
            )


@attrs.define
class TensorflowConfiguration:
    """v1 TensorFlow parameter-server configuration; not a PyTorch job, refused at translation."""

    worker_count: int = 1
    parameter_server_count: int = 1


def check_counts(node_count, process_count_per_node) -> None:
    """v1 rule 4, with the fix spelled out."""
    if not isinstance(node_count, int) or node_count < 1:
        raise TrainingException(
            f"Node count should be at least 1. Got node_count={node_count!r}; pass a whole number >= 1."
        )
    if not isinstance(process_count_per_node, int) or process_count_per_node < 1:
        raise TrainingException(
            "Process count per node should be at least 1. "
            f"Got process_count_per_node={process_count_per_node!r}; pass a whole number >= 1."
        )


def check_backend(distributed_backend, distributed_training, supported=SUPPORTED_BACKENDS, framework="PyTorch") -> None:
    """v1 rules 5 and 6."""
    if distributed_backend is not None and (
        not isinstance(distributed_backend, str) or distributed_backend.lower() not in supported
    ):
        raise TrainingException(
            f"Unsupported distributed backend value: {distributed_backend}. Supported backend(s): {supported}. "
            f"Fix distributed_backend={distributed_backend!r}: pass one of {supported}, "
            "or use distributed_training=Mpi()/Gloo()/Nccl()."
        )
    allowed = (Mpi, Gloo, Nccl, MpiConfiguration, PyTorchConfiguration) if framework == "PyTorch" else (Mpi, MpiConfiguration)
    if distributed_training is not None and not isinstance(distributed_training, allowed):
        kind = type(distributed_training).__name__
        raise TrainingException(
            f"Unsupported framework for {kind} distributed training type. Supported frameworks are: "
            f"['tensorflow', 'estimator']. distributed_training={kind}(...) cannot run a {framework} job; "
            f"use one of {[c.__name__ for c in allowed]}."
        )


def normalise(
    *,
    node_count: int,
    process_count_per_node: int,
    distributed_backend: str | None,
    distributed_training,
) -> Distribution:
    """Map the v1 spellings of §2 to one ``Distribution``; v1's validation rules run before this."""
    if distributed_training is None and distributed_backend is None:
        if node_count > 1 or process_count_per_node > 1:
            raise TrainingException(
                "'distributed_backend' or 'distributed_training' must be specified when node_count > 1 or "
                f"process_count_per_node > 1. Got node_count={node_count}, process_count_per_node="
                f"{process_count_per_node}; add distributed_training=Mpi({process_count_per_node}) (or Gloo()/Nccl())."
            )
        return Distribution()
    if distributed_training is not None:
        return _from_object(distributed_training, node_count, process_count_per_node)
    backend = distributed_backend.lower()
    spelling = f"distributed_backend={distributed_backend!r}"
    if backend == "mpi":
        return Distribution("mpi", node_count, process_count_per_node, None, spelling)
    return Distribution("pytorch", node_count, process_count_per_node, backend, spelling)


def _from_object(cfg, node_count: int, process_count_per_node: int) -> Distribution:
    if isinstance(cfg, Mpi):
        check_counts(node_count, cfg.process_count_per_node)
        _warn_ignored_pcpn(process_count_per_node, cfg.process_count_per_node, "Mpi")
        return Distribution("mpi", node_count, cfg.process_count_per_node, None, f"Mpi({cfg.process_count_per_node})")
    if isinstance(cfg, (Gloo, Nccl)):
        backend = type(cfg).__name__.lower()
        return Distribution("pytorch", node_count, process_count_per_node, backend, f"{type(cfg).__name__}()")
    if isinstance(cfg, MpiConfiguration):
        check_counts(node_count, cfg.process_count_per_node)
        _warn_ignored_pcpn(process_count_per_node, cfg.process_count_per_node, "MpiConfiguration")
        if cfg.node_count not in (1, node_count):
            logger.warning(
                "MpiConfiguration(node_count=%s) differs from the estimator's node_count=%s; like v1, the "
                "estimator's node_count is used.", cfg.node_count, node_count)
        return Distribution(
            "mpi", node_count, cfg.process_count_per_node, None,
            f"MpiConfiguration({cfg.process_count_per_node}, {cfg.node_count})")
    if isinstance(cfg, PyTorchConfiguration):
        return from_pytorch_configuration(cfg, estimator_node_count=node_count)
    raise TrainingException(f"Unsupported distributed_training={cfg!r}; use Mpi(), Gloo(), Nccl() or MpiConfiguration().")


def from_pytorch_configuration(cfg: PyTorchConfiguration, estimator_node_count: int = 1) -> Distribution:
    """``process_count`` is a total in v1; v2 wants it per node (checked divisible at construction)."""
    nodes = cfg.node_count
    if estimator_node_count not in (1, nodes):
        raise TrainingException(
            f"node_count={estimator_node_count} conflicts with PyTorchConfiguration(node_count={nodes}). "
            "Set the node count in one place only (PyTorchConfiguration's node_count)."
        )
    total = cfg.process_count if cfg.process_count is not None else nodes
    spelling = f"PyTorchConfiguration({cfg.communication_backend!r}, process_count={cfg.process_count}, node_count={nodes})"
    return Distribution("pytorch", nodes, total // nodes, cfg.communication_backend, spelling)


def from_mpi_configuration(cfg: MpiConfiguration) -> Distribution:
    """ScriptRunConfig's use: both counts come from the configuration."""
    check_counts(cfg.node_count, cfg.process_count_per_node)
    return Distribution(
        "mpi", cfg.node_count, cfg.process_count_per_node, None,
        f"MpiConfiguration({cfg.process_count_per_node}, {cfg.node_count})")


def _warn_ignored_pcpn(estimator_pcpn: int, object_pcpn: int, kind: str) -> None:
    if estimator_pcpn not in (1, object_pcpn):
        logger.warning(
            "process_count_per_node=%s is ignored because %s(process_count_per_node=%s) is given; "
            "set the count in one place only.", estimator_pcpn, kind, object_pcpn)
