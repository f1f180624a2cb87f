"""v1 ``azureml.train.dnn``: the PyTorch estimator and its distribution objects."""

from acpt_estimator.distribution import Gloo, Mpi, Nccl
from acpt_estimator.unsupported import TensorFlow
from acpt_estimator.v1.train.dnn.pytorch import PyTorch

__all__ = ["Gloo", "Mpi", "Nccl", "PyTorch", "TensorFlow"]
