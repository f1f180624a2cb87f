"""Shim for ``azureml.data.output_dataset_config``: re-exports ``acpt_estimator.v1.data.output_dataset_config``."""
from acpt_estimator.v1.data.output_dataset_config import *  # noqa: F401,F403
from acpt_estimator.v1.data.output_dataset_config import __all__, __dir__, __getattr__  # noqa: F401
