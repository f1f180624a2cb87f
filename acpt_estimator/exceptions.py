"""v1's exception classes, so existing ``except`` clauses keep working.

Hierarchy (same names as ``azureml.exceptions``)::

    AzureMLException(Exception)
     ├── UserErrorException
     │    ├── ComputeTargetException
     │    ├── RunConfigurationException
     │    ├── HyperDriveConfigException
     │    ├── ModelPathNotFoundException
     │    ├── SnapshotException
     │    ├── RunEnvironmentException
     │    ├── WorkspaceException
     │    ├── WebserviceException (v1's model-management errors: ``ModelNotFound: ...``)
     │    ├── V1NotSupportedException (a v1 member with no equivalent: names it and its v2 replacement)
     │    ├── AuthenticationException
     │    └── OnnxExportError (acpt_estimator.onnx) ── OnnxVerificationError
     ├── HyperDriveException ── HyperDriveConfigException (also a UserErrorException)
     ├── AzureMLAggregatedException, DatasetTimestampMissingError, DiscoveryUrlNotFoundException,
     │   ModelNotFoundException, ParallelRunException, ProjectSystemException, ServiceException,
     │   WebserviceException (v1 raised it for invalid model names too), WorkspacePrivateEndpointException
     ├── TrainingException
     ├── ActivityFailedException
     └── ExperimentExecutionException
"""

from __future__ import annotations

import json


class AzureMLException(Exception):
    """Base of every exception raised by acpt-estimator, like v1's ``AzureMLException``.

    ``e.message`` holds the plain text; ``str(e)`` mimics v1's framed form so logs look familiar.
    """

    def __init__(self, message: str = "", inner_exception: BaseException | None = None, **kwargs):
        super().__init__(message)
        self.message = message
        self.inner_exception = inner_exception
        self._details = kwargs

    def __str__(self) -> str:
        error = {"error": {"code": self._error_code(), "message": self.message}}
        return (
            f"{type(self).__name__}:\n\tMessage: {self.message}\n\tInnerException {self.inner_exception}"
            f"\n\tErrorResponse \n{json.dumps(error, indent=4)}"
        )

    def _error_code(self) -> str:
        return "UserError" if isinstance(self, UserErrorException) else "SystemError"


class UserErrorException(AzureMLException):
    """The caller passed something that cannot work; the message says what to change."""


class TrainingException(AzureMLException):
    """An estimator or its configuration is invalid (v1: ``azureml.train.estimator``)."""


class ComputeTargetException(UserErrorException):
    """A compute target is missing or unsupported."""


class RunConfigurationException(UserErrorException):
    """A run configuration (distributed config, script run config) is invalid."""


class HyperDriveException(AzureMLException):
    """v1's base of the HyperDrive exceptions (``azureml.train.hyperdrive.exceptions``)."""


class HyperDriveConfigException(UserErrorException, HyperDriveException):
    """A HyperDrive configuration, sampling or policy is invalid."""


class ModelPathNotFoundException(UserErrorException):
    """``register_model`` was given a path the run does not have."""


class SnapshotException(UserErrorException):
    """The source directory cannot be snapshotted (too big, too many files, secrets)."""


class RunEnvironmentException(UserErrorException):
    """``Run.get_context(allow_offline=False)`` was called outside a job."""


class WebserviceException(UserErrorException):
    """A model (v1's model-management service) is missing or cannot be changed."""


class WorkspaceException(UserErrorException):
    """The workspace cannot be found or reached."""


class V1NotSupportedException(UserErrorException):
    """A v1 member that has no equivalent here; the message names it, says why, and names the v2 replacement."""


class AuthenticationException(UserErrorException):
    """Credentials could not be obtained or were refused."""


class AzureMLAggregatedException(AzureMLException):
    """Several errors at once (v1 takes the list of messages)."""

    def __init__(self, exceptions_list=(), **kwargs):
        super().__init__("\n".join(str(e) for e in exceptions_list), **kwargs)


class DatasetTimestampMissingError(AzureMLException):
    """A time-series operation on a dataset without timestamp columns."""


class DiscoveryUrlNotFoundException(AzureMLException):
    """A service endpoint of the workspace could not be discovered."""


class ModelNotFoundException(AzureMLException):
    """A registered model could not be found."""


class ParallelRunException(AzureMLException):
    """Raised by v1 ParallelRunStep entry scripts (kept so their except clauses import)."""


class ProjectSystemException(AzureMLException):
    """A project folder or its configuration is unusable."""


class ServiceException(AzureMLException):
    """The service answered with an error."""


class WebserviceException(AzureMLException):
    """A web service (deployment) operation failed; v1 also raised it for missing models."""

    def __init__(self, exception_message: str = "", status_code=None, logger=None, **kwargs):
        super().__init__(exception_message, **kwargs)
        self.status_code = status_code


class WorkspacePrivateEndpointException(AzureMLException):
    """A workspace private endpoint operation failed."""


class ActivityFailedException(AzureMLException):
    """A run ended in ``Failed``; raised by ``wait_for_completion``."""


class ExperimentExecutionException(AzureMLException):
    """A run could not be started."""


__all__ = sorted(
    [
        "ActivityFailedException",
        "AuthenticationException",
        "AzureMLAggregatedException",
        "AzureMLException",
        "ComputeTargetException",
        "DatasetTimestampMissingError",
        "DiscoveryUrlNotFoundException",
        "ExperimentExecutionException",
        "HyperDriveConfigException",
        "HyperDriveException",
        "ModelNotFoundException",
        "ModelPathNotFoundException",
        "ParallelRunException",
        "ProjectSystemException",
        "RunConfigurationException",
        "RunEnvironmentException",
        "ServiceException",
        "SnapshotException",
        "TrainingException",
        "UserErrorException",
        "V1NotSupportedException",
        "WebserviceException",
        "WorkspaceException",
        "WorkspacePrivateEndpointException",
    ]
)
