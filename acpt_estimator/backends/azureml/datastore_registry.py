"""A workspace's v2 datastores in v1's fields (the workspace's datastores service); azure imported on use."""

from __future__ import annotations

from ...datastore_paths import datastore_fields, missing_datastore
from ...exceptions import UserErrorException
from ...refusal import refuse
from .client import azure_errors, ml_client

# v2 DatastoreType values -> v1 datastore_type (v1 called Gen1 "AzureDataLake")
_V2_TYPES = {"AzureBlob": "AzureBlob", "AzureFile": "AzureFile", "AzureDataLakeGen2": "AzureDataLakeGen2",
             "AzureDataLakeGen1": "AzureDataLake", "OneLake": "OneLake"}


def _from_v2(store) -> dict:
    value = str(getattr(store.type, "value", store.type))
    kind = _V2_TYPES.get(value, value)
    container = getattr(store, "container_name", None) or getattr(store, "file_share_name", None) or \
        getattr(store, "filesystem", None) or getattr(store, "store_name", None)
    return datastore_fields(kind, container, getattr(store, "account_name", None), getattr(store, "protocol", None),
                            getattr(store, "endpoint", None))


class CloudDatastores:
    def __init__(self, workspace):
        self.workspace = workspace

    def describe(self, name) -> dict:
        from azure.core.exceptions import ResourceNotFoundError

        try:
            with azure_errors(self.workspace, f"read datastore {name!r}"):
                return _from_v2(ml_client(self.workspace).datastores.get(name))
        except ResourceNotFoundError:
            raise missing_datastore(self.workspace, name, [n for n, _ in self.list_all()]) from None

    def list_all(self) -> list:
        with azure_errors(self.workspace, "list datastores"):
            return [(store.name, _from_v2(store)) for store in ml_client(self.workspace).datastores.list()]

    def default_name(self) -> str:
        with azure_errors(self.workspace, "read the default datastore"):
            return ml_client(self.workspace).datastores.get_default().name

    def register(self, name, new_fields, overwrite, secret=None, secret_kind="account_key") -> None:
        from azure.ai.ml.entities import AccountKeyConfiguration, AzureBlobDatastore, AzureFileDatastore, \
            SasTokenConfiguration
        from azure.core.exceptions import ResourceNotFoundError

        client = ml_client(self.workspace)
        credentials = None
        if secret:
            credentials = AccountKeyConfiguration(account_key=secret) if secret_kind == "account_key" else \
                SasTokenConfiguration(sas_token=secret)
        common = {"name": name, "account_name": new_fields["account_name"], "protocol": new_fields["protocol"],
                  "endpoint": new_fields["endpoint"], "credentials": credentials}
        if new_fields["datastore_type"] == "AzureBlob":
            entity = AzureBlobDatastore(container_name=new_fields["container_name"], **common)
        else:
            entity = AzureFileDatastore(file_share_name=new_fields["container_name"], **common)
        with azure_errors(self.workspace, f"register datastore {name!r}"):
            if not overwrite:
                try:
                    existing = _from_v2(client.datastores.get(name))
                except ResourceNotFoundError:
                    existing = None
                if existing is not None and existing != new_fields:
                    raise UserErrorException(f"Datastore {name!r} is already registered with other settings; pass "
                                             "overwrite=True to replace the registration.")
            client.datastores.create_or_update(entity)

    def set_default(self, name) -> None:
        refuse("Datastore.set_as_default (cloud workspace)", "v2's REST API has no operation that changes the "
               "default datastore.", "the Azure ML studio: Data > Datastores > <name> > Set as default")

    def unregister(self, name) -> None:
        with azure_errors(self.workspace, f"unregister datastore {name!r}"):
            ml_client(self.workspace).datastores.delete(name)

    def upload(self, name, src_dir, target_path, overwrite, show_progress, files) -> None:
        """Upload ``files`` (relative to ``src_dir``) to the datastore's blob container."""
        from .data_ops import upload

        return upload(self.workspace, name, src_dir, target_path, overwrite, show_progress, files)

    def download(self, name, target_path, prefix, overwrite, show_progress) -> int:
        from .data_ops import download

        return download(self.workspace, name, target_path, prefix, overwrite, show_progress)
