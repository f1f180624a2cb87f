"""v1 ``azureml.train.estimator``."""

from acpt_estimator.v1.train.estimator.estimator import Estimator
from acpt_estimator._lazy import lazy_names

__all__ = ["Estimator"]


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["Gloo", "Mpi", "Nccl", "ParameterServer"], "acpt_estimator.distribution"),
    "MMLBaseEstimatorRunConfig": "acpt_estimator.v1.core.runconfig:RunConfiguration",
    "MMLBaseEstimator": "acpt_estimator.v1.train.estimator.estimator:_EstimatorBase",
})
