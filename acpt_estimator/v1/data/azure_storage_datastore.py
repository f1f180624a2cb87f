"""v1 ``azureml.data.azure_storage_datastore``: blob container and file share datastores."""

from __future__ import annotations

from acpt_estimator.v1.core.datastore import Datastore
from acpt_estimator._lazy import lazy_names


class AbstractAzureStorageDatastore(Datastore):
    """v1's base of the Azure Storage datastores: container, account, protocol and endpoint, given or looked up."""

    _datastore_type = None

    def __init__(self, workspace, name, container_name, account_name, sas_token=None, account_key=None,
                 protocol=None, endpoint=None, request_session=None):
        super().__init__(workspace, name)
        # The key and SAS token are not kept: uploads and downloads get them from the workspace when needed.
        self._fields = {"datastore_type": self._datastore_type, "container_name": container_name,
                        "account_name": account_name, "protocol": protocol or "https",
                        "endpoint": endpoint or "core.windows.net"}
        self._is_sas = bool(sas_token)

    @property
    def is_sas(self) -> bool:
        """v1: whether the registration was made with a SAS token (rather than an account key)."""
        return self._is_sas


class AzureBlobDatastore(AbstractAzureStorageDatastore):
    """v1 ``AzureBlobDatastore`` (``datastore_type`` 'AzureBlob')."""

    _datastore_type = "AzureBlob"

    def __init__(self, workspace, name, container_name, account_name, sas_token=None, account_key=None,
                 protocol=None, endpoint=None, request_session=None, workspace_msi_has_access=False,
                 subscription_id=None, resource_group=None, service_data_access_auth_identity=None):
        super().__init__(workspace, name, container_name, account_name, sas_token, account_key, protocol, endpoint,
                         request_session)
        # Kept as v1 exposed them (read by callers; v2 datastores carry no such fields, so nothing is sent).
        self.workspace_msi_has_access = workspace_msi_has_access
        self.subscription_id, self.resource_group = subscription_id, resource_group
        self.service_data_access_auth_identity = service_data_access_auth_identity


class AzureFileDatastore(AbstractAzureStorageDatastore):
    """v1 ``AzureFileDatastore`` (``datastore_type`` 'AzureFile'); ``container_name`` is the file share."""

    _datastore_type = "AzureFile"

    def __init__(self, workspace, name, container_name, account_name, sas_token=None, account_key=None,
                 protocol=None, endpoint="core.windows.net", request_session=None):
        super().__init__(workspace, name, container_name, account_name, sas_token, account_key, protocol, endpoint,
                         request_session)


__all__ = ["AbstractAzureStorageDatastore", "AzureBlobDatastore", "AzureFileDatastore"]


# v1's kinds of a blob path (values kept).
FOLDER, EMPTY_FILE, FILE = 0, 1, 2


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    "UserErrorException": "acpt_estimator.exceptions",
    "AbstractDatastore": "acpt_estimator.v1.data.abstract_datastore",
    "DataReference": "acpt_estimator.v1.data.data_reference",
})
