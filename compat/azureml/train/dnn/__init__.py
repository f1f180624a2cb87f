"""Shim for ``azureml.train.dnn``."""
from acpt_estimator.distribution import Gloo, Mpi, Nccl  # noqa: F401
from acpt_estimator.estimator import PyTorch  # noqa: F401
from acpt_estimator.unsupported import TensorFlow  # noqa: F401
