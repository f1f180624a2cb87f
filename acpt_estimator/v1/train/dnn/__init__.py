"""v1 ``azureml.train.dnn``: the PyTorch estimator and its distribution objects."""

from acpt_estimator.distribution import Gloo, Mpi, Nccl
from acpt_estimator.unsupported import TensorFlow
from acpt_estimator.v1.train.dnn.pytorch import PyTorch
from acpt_estimator._lazy import lazy_names

__all__ = ["Gloo", "Mpi", "Nccl", "PyTorch", "TensorFlow"]


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    "ParameterServer": "acpt_estimator.distribution",
    "Chainer": "acpt_estimator.v1.train.dnn._chainer",
})
