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
     │    ├── V1NotSupportedException (a v1 member with no equivalent: names it and its v2 replacement)
     │    └── OnnxExportError (acpt_estimator.onnx) ── OnnxVerificationError
     ├── WebserviceException (v1 raised it for invalid model names too)
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


class HyperDriveConfigException(UserErrorException):
    """A HyperDrive configuration, sampling or policy is invalid."""


class ModelPathNotFoundException(UserErrorException):
    """``register_model`` was given a path the run does not have."""


class SnapshotException(UserErrorException):
    """The source directory cannot be snapshotted (too big, too many files, secrets)."""


class RunEnvironmentException(UserErrorException):
    """``Run.get_context(allow_offline=False)`` was called outside a job."""


class WorkspaceException(UserErrorException):
    """The workspace cannot be found or reached."""


class V1NotSupportedException(UserErrorException):
    """A v1 member that has no equivalent here; the message names it, says why, and names the v2 replacement."""


class WebserviceException(AzureMLException):
    """A web service (deployment) operation failed; v1 also raised it for missing models."""

    def __init__(self, exception_message: str = "", status_code=None, logger=None, **kwargs):
        super().__init__(exception_message, **kwargs)
        self.status_code = status_code


class ActivityFailedException(AzureMLException):
    """A run ended in ``Failed``; raised by ``wait_for_completion``."""


class ExperimentExecutionException(AzureMLException):
    """A run could not be started."""


__all__ = sorted(
    [
        "ActivityFailedException",
        "AzureMLException",
        "ComputeTargetException",
        "ExperimentExecutionException",
        "HyperDriveConfigException",
        "ModelPathNotFoundException",
        "RunConfigurationException",
        "RunEnvironmentException",
        "SnapshotException",
        "TrainingException",
        "UserErrorException",
        "V1NotSupportedException",
        "WebserviceException",
        "WorkspaceException",
    ]
)
