"""v1 ``azureml.train.hyperdrive.error_definition``: internal error definitions; refuse on use."""

from acpt_estimator.v1._no_equivalent import define
from acpt_estimator.v1.train.hyperdrive.error_strings import HyperDriveErrorStrings  # noqa: F401

__all__ = sorted(define(globals()) + ["HyperDriveErrorStrings"])
