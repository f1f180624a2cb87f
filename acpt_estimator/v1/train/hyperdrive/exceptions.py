"""v1 ``azureml.train.hyperdrive.exceptions``: the HyperDrive exceptions v1 code catches."""

from acpt_estimator.exceptions import HyperDriveConfigException, HyperDriveException

__all__ = ["ErrorResponseException", "HyperDriveConfigException", "HyperDriveException",
           "HyperDriveNotImplementedException", "HyperDriveRehydrateException",
           "HyperDriveScenarioNotSupportedException", "HyperDriveServiceException"]


class HyperDriveServiceException(HyperDriveException):
    """The HyperDrive (sweep) service answered with an error."""


class HyperDriveScenarioNotSupportedException(HyperDriveConfigException):
    """A HyperDrive configuration that the service does not support."""


class HyperDriveNotImplementedException(HyperDriveScenarioNotSupportedException):
    """A HyperDrive feature that is not implemented."""


class HyperDriveRehydrateException(HyperDriveException):
    """A sampling or policy could not be rebuilt from its saved form."""


class ErrorResponseException(HyperDriveServiceException):
    """v1's HyperDrive REST client error (``azureml.train.restclients.hyperdrive.models``)."""
