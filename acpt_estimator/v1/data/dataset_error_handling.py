"""v1 ``azureml.data.dataset_error_handling``: the dataset exceptions v1 code catches."""

from acpt_estimator.exceptions import UserErrorException


class DatasetValidationError(UserErrorException):
    """A dataset failed validation (v1 keeps the cause as ``exception``)."""

    def __init__(self, message, exception=None):
        super().__init__(message, inner_exception=exception)
        self.exception = exception


class DatasetExecutionError(UserErrorException):
    """Reading a dataset failed (v1 keeps the cause as ``exception``)."""

    def __init__(self, message, exception=None):
        super().__init__(message, inner_exception=exception)
        self.exception = exception


__all__ = ["DatasetExecutionError", "DatasetValidationError", "UserErrorException"]
