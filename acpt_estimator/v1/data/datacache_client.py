"""v1 ``azureml.data.datacache_client``: the names it re-exported (datacache itself is refused)."""

from acpt_estimator.exceptions import UserErrorException  # noqa: F401
from acpt_estimator.v1.core.authentication import ServicePrincipalAuthentication  # noqa: F401
from acpt_estimator.v1.core.compute.compute import ComputeTarget  # noqa: F401
from acpt_estimator.v1.data.azure_storage_datastore import AzureBlobDatastore  # noqa: F401
from acpt_estimator.v1.data.file_dataset import FileDataset  # noqa: F401

__all__ = ["AzureBlobDatastore", "ComputeTarget", "FileDataset", "ServicePrincipalAuthentication", "UserErrorException"]
