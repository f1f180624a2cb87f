"""v1 ``azureml.core.datastore``: a named store in the workspace."""

from __future__ import annotations

import logging
import os

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.names import check
from acpt_estimator.paths import relative_parts
from acpt_estimator.v1._refusal import refused
from acpt_estimator.v1.data.data_reference import DataReference
from acpt_estimator._lazy import lazy_names

logger = logging.getLogger(__name__)
_warned_datastore_as = set()


def _warn_datastore_deprecated(method: str) -> None:
    if method not in _warned_datastore_as:
        _warned_datastore_as.add(method)
        logger.warning(
            '"datastore.%s" is deprecated after version 1.0.69. Please use "file_dataset.%s" instead. '
            "See Dataset API change notice at https://aka.ms/dataset-deprecation.", method, method)


_DEFAULT = "workspaceblobstore"
_NO_SQL_WHY = ("v2 datastores are storage only (Blob, File, Data Lake Gen1/Gen2); database connections became "
               "workspace connections.")


class Datastore:
    """v1 ``azureml.core.Datastore``: a named store in the workspace (``workspaceblobstore`` by default).

    ``Datastore(ws, name)`` is a cheap reference (no call); its v1 fields (``datastore_type``, ``account_name``,
    ...) are read from the workspace on first use. ``Datastore.get`` returns v1's typed class
    (``AzureBlobDatastore``, ``AzureFileDatastore``). Locally the datastore is a folder of the run store.
    """

    def __init__(self, workspace, name=None):
        self._workspace = workspace
        # Checked at construction: the name becomes a store folder and part of $AZUREML_DATAREFERENCE_<name>.
        self._name = check("datastore", name, parameter="datastore_name") if name is not None \
            else default_name(workspace)
        self._fields = None  # v1 fields, described on first use

    @property
    def workspace(self):
        return self._workspace

    @property
    def name(self) -> str:
        return self._name

    def _describe(self) -> dict:
        if self._fields is None:
            self._fields = describe(self._workspace, self._name)
        return self._fields

    @property
    def datastore_type(self) -> str:
        return self._describe()["datastore_type"]

    @property
    def account_name(self):
        return self._describe().get("account_name")

    @property
    def container_name(self):
        return self._describe().get("container_name")

    @property
    def protocol(self):
        return self._describe().get("protocol")

    @property
    def endpoint(self):
        return self._describe().get("endpoint")

    # ---- v1 static members ---------------------------------------------------------------------------
    @staticmethod
    def get(workspace, datastore_name: str) -> "Datastore":
        """The datastore as v1's typed class; a missing name is an error naming it (checked offline too)."""
        fields = describe(workspace, datastore_name)
        return _typed(workspace, datastore_name, fields)

    @staticmethod
    def get_default(workspace) -> "Datastore":
        return Datastore.get(workspace, default_name(workspace))

    @staticmethod
    def _list(workspace) -> list:
        from acpt_estimator.v1.core import _datastore_registry as registry

        return [_typed(workspace, name, fields) for name, fields in registry.list_all(workspace)]

    @staticmethod
    def register_azure_blob_container(workspace, datastore_name, container_name, account_name, sas_token=None,
                                      account_key=None, protocol=None, endpoint=None, overwrite=False,
                                      create_if_not_exists=False, skip_validation=False, blob_cache_timeout=None,
                                      grant_workspace_access=False, subscription_id=None, resource_group=None):
        """Register a blob container (v2 ``datastores.create_or_update``); locally a datastore folder."""
        from acpt_estimator.v1 import _params
        from acpt_estimator.v1.core import _datastore_registry as registry

        _params.check("Datastore.register_azure_blob_container", create_if_not_exists=create_if_not_exists,
                      grant_workspace_access=grant_workspace_access, subscription_id=subscription_id,
                      resource_group=resource_group, skip_validation=skip_validation,
                      blob_cache_timeout=blob_cache_timeout)

        fields = registry.fields("AzureBlob", container_name, account_name, protocol, endpoint)
        registry.register(workspace, datastore_name, fields, overwrite, secret=account_key or sas_token,
                          secret_kind="account_key" if account_key else "sas_token")
        return _typed(workspace, datastore_name, fields)

    @staticmethod
    def register_azure_file_share(workspace, datastore_name, file_share_name, account_name, sas_token=None,
                                  account_key=None, protocol=None, endpoint=None, overwrite=False,
                                  create_if_not_exists=False, skip_validation=False):
        """Register a file share (v2 ``AzureFileDatastore``); locally a datastore folder."""
        from acpt_estimator.v1 import _params
        from acpt_estimator.v1.core import _datastore_registry as registry

        _params.check("Datastore.register_azure_file_share", create_if_not_exists=create_if_not_exists,
                      skip_validation=skip_validation)

        fields = registry.fields("AzureFile", file_share_name, account_name, protocol, endpoint)
        registry.register(workspace, datastore_name, fields, overwrite, secret=account_key or sas_token,
                          secret_kind="account_key" if account_key else "sas_token")
        return _typed(workspace, datastore_name, fields)

    register_azure_data_lake = refused(
        "Datastore.register_azure_data_lake", "Data Lake Storage Gen1 is retired.",
        "ADLS Gen2: ml_client.datastores.create_or_update(AzureDataLakeGen2Datastore(...))")
    register_azure_data_lake_gen2 = refused(
        "Datastore.register_azure_data_lake_gen2", "service-principal registration takes v2's credential objects.",
        "ml_client.datastores.create_or_update(AzureDataLakeGen2Datastore(name=..., account_name=..., "
        "filesystem=..., credentials=ServicePrincipalConfiguration(...)))")
    register_azure_sql_database = refused("Datastore.register_azure_sql_database", _NO_SQL_WHY,
                                          "ml_client.connections.create_or_update(AzureSqlDbConnection(...))")
    register_azure_postgre_sql = refused("Datastore.register_azure_postgre_sql", _NO_SQL_WHY,
                                         "a workspace connection (ml_client.connections.create_or_update)")
    register_azure_my_sql = refused("Datastore.register_azure_my_sql", _NO_SQL_WHY,
                                    "a workspace connection (ml_client.connections.create_or_update)")
    register_dbfs = refused("Datastore.register_dbfs", "DBFS datastores served Databricks pipeline steps.",
                            "read DBFS from Databricks, or copy the data to a Blob/ADLS Gen2 datastore")
    register_hdfs = refused("Datastore.register_hdfs", "HDFS datastores served v1 pipelines on HDInsight.",
                            "copy the data to a Blob/ADLS Gen2 datastore (ml_client.datastores.create_or_update)")

    # ---- v1 instance members -------------------------------------------------------------------------
    def set_as_default(self) -> None:
        from acpt_estimator.v1.core import _datastore_registry as registry

        registry.set_default(self._workspace, self._name)

    def unregister(self) -> None:
        """Remove the registration (the data in storage stays, like v1)."""
        from acpt_estimator.v1.core import _datastore_registry as registry

        registry.unregister(self._workspace, self._name)

    def download(self, target_path, prefix=None, overwrite=False, show_progress=True) -> int:
        """v1: copy the files under ``prefix`` into ``target_path`` (kept relative); returns how many were copied.

        Files already at the target are skipped unless ``overwrite``."""
        if prefix is not None:  # '../x' would match nothing and silently download 0 files
            relative_parts(prefix, parameter="prefix", fix="Pass a path inside the datastore, e.g. prefix='data/train'.")
        from acpt_estimator.services import services_for

        return services_for(self._workspace).datastores.download(self._name, target_path, prefix, overwrite,
                                                                 show_progress)

    def path(self, path: str | None = None, data_reference_name: str | None = None) -> DataReference:
        return DataReference(self, data_reference_name, path_on_datastore=path)

    def to_input_spec(self):
        """The engine's DataInput: the whole datastore mounted under its name (v1's bare-datastore argument)."""
        return DataReference(self, self.name, None, "mount").to_input_spec()

    def as_mount(self) -> DataReference:
        _warn_datastore_deprecated("as_mount")
        return DataReference(self, self.name, None, "mount")

    def as_download(self, path_on_compute=None) -> DataReference:
        _warn_datastore_deprecated("as_download")
        return DataReference(self, self.name, None, "download", path_on_compute)

    def as_upload(self, path_on_compute=None) -> DataReference:
        _warn_datastore_deprecated("as_upload")
        return DataReference(self, self.name, None, "upload", path_on_compute)

    def upload(self, src_dir, target_path=None, overwrite=False, show_progress=True) -> DataReference:
        """v1 (deprecated but common): copy a folder to ``target_path``; returns a reference to it.

        Locally the datastore is a folder of the local store; in the cloud the files go to the blob container.
        Files already there with the same content are skipped; different ones need ``overwrite=True``.
        """
        from acpt_estimator.backends.local.datastores import list_source_files

        files = list_source_files(src_dir)
        self._upload(src_dir, files, target_path, overwrite, show_progress)
        return DataReference(self, data_reference_name=None, path_on_datastore=target_path)

    def upload_files(self, files, relative_root=None, target_path=None, overwrite=False, show_progress=True):
        """v1: upload individual files, keeping their paths relative to ``relative_root``."""
        root = relative_root or os.path.commonpath([os.path.dirname(os.path.abspath(f)) for f in files])
        relative = [os.path.relpath(os.path.abspath(f), root).replace(os.sep, "/") for f in files]
        missing = [f for f in files if not os.path.isfile(f)]
        if missing:
            raise UserErrorException(f"upload_files: {missing} do not exist. Pass paths of existing files.")
        self._upload(root, relative, target_path, overwrite, show_progress)
        return DataReference(self, data_reference_name=None, path_on_datastore=target_path)

    def _upload(self, src_dir, files, target_path, overwrite, show_progress):
        # Both backends: a target_path climbing out of the datastore is refused before anything is sent.
        relative_parts(target_path or "", parameter="target_path",
                       fix="Pass a path inside the datastore, e.g. target_path='mnist/train'.")
        from acpt_estimator.services import services_for

        return services_for(self.workspace).datastores.upload(self.name, src_dir, target_path, overwrite,
                                                              show_progress, files)

    def __str__(self) -> str:
        return f"$AZUREML_DATAREFERENCE_{self.name}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(workspace={getattr(self._workspace, 'name', None)!r}, name={self._name!r})"


def default_name(workspace) -> str:
    from acpt_estimator.v1.core import _datastore_registry as registry

    return registry.default_name(workspace)


def describe(workspace, name) -> dict:
    from acpt_estimator.v1.core import _datastore_registry as registry

    return registry.describe(workspace, name)


def _typed(workspace, name, fields) -> Datastore:
    """v1's class for a datastore type: AzureBlobDatastore, AzureFileDatastore, else a plain Datastore."""
    from acpt_estimator.v1.data.azure_storage_datastore import AzureBlobDatastore, AzureFileDatastore

    cls = {"AzureBlob": AzureBlobDatastore, "AzureFile": AzureFileDatastore}.get(fields["datastore_type"])
    if cls is None:
        store = Datastore(workspace, name)
        store._fields = fields
        return store
    return cls(workspace, name, fields.get("container_name"), fields.get("account_name"),
               protocol=fields.get("protocol"), endpoint=fields.get("endpoint"))


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    "UserErrorException": "acpt_estimator.exceptions",
})
