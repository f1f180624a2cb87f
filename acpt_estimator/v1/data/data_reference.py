"""v1 ``azureml.data.data_reference``: a datastore path and how the job sees it."""

from __future__ import annotations

import uuid

import attrs

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.names import check
from acpt_estimator.datastore_paths import datastore_path_parts


@attrs.define(eq=False)
class DataReference:
    """v1 ``azureml.data.data_reference.DataReference``: a datastore path and how the job sees it."""

    datastore: "Datastore"
    data_reference_name: str | None = None
    path_on_datastore: str | None = None
    mode: str = "mount"
    path_on_compute: str | None = None
    overwrite: bool = False

    def __attrs_post_init__(self):
        if self.data_reference_name is None:
            self.data_reference_name = self.datastore.name if self.path_on_datastore is None else uuid.uuid4().hex
        # Both reach the job: `export AZUREML_DATAREFERENCE_<name>=...` and a folder under the datastore.
        check("reference", self.data_reference_name, parameter="data_reference_name")
        if self.path_on_datastore is not None:
            datastore_path_parts(self.path_on_datastore)
        if self.mode not in ("mount", "download", "upload", "direct"):
            raise UserErrorException(
                f"DataReference mode={self.mode!r} is not supported; use 'mount', 'download' or 'upload'.")

    def _with_mode(self, mode, path_on_compute=None, overwrite=False) -> "DataReference":
        return attrs.evolve(self, mode=mode, path_on_compute=path_on_compute, overwrite=overwrite)

    def as_mount(self) -> "DataReference":
        return self._with_mode("mount")

    def as_download(self, path_on_compute=None, overwrite=False) -> "DataReference":
        return self._with_mode("download", path_on_compute, overwrite)

    def as_upload(self, path_on_compute=None, overwrite=False) -> "DataReference":
        return self._with_mode("upload", path_on_compute, overwrite)

    @staticmethod
    def create(data_reference_name=None, datapath=None, datapath_compute_binding=None) -> "DataReference":
        """v1: a reference from a DataPath and its compute binding."""
        if datapath is None:
            raise UserErrorException("DataReference.create needs datapath=DataPath(datastore, 'path').")
        return datapath.create_data_reference(data_reference_name, datapath_compute_binding)

    def path(self, path=None, data_reference_name=None) -> "DataReference":
        """A reference to ``path`` below this one, in the same mode."""
        base = (self.path_on_datastore or "").rstrip("/")
        joined = f"{base}/{path.lstrip('/')}" if base and path else (path or self.path_on_datastore)
        return DataReference(self.datastore, data_reference_name, joined, self.mode, self.path_on_compute,
                             self.overwrite)

    def to_config(self):
        """v1's DataReferenceConfiguration of this reference (the run configuration's data_references entry)."""
        from acpt_estimator.v1.core import runconfig

        fields = {"datastore_name": self.datastore.name, "mode": self.mode,
                  "path_on_datastore": self.path_on_datastore, "path_on_compute": self.path_on_compute,
                  "overwrite": self.overwrite}
        config_class = getattr(runconfig, "DataReferenceConfiguration", None)
        return config_class(**fields) if config_class is not None else fields

    def to_input_spec(self):
        """The engine's DataInput for this datastore path (mount/download/direct)."""
        from acpt_estimator.v1.data._specs import reference_input

        return reference_input(self)

    def to_output_spec(self):
        """The engine's DataOutput in upload mode; None in any other mode (then it is an input)."""
        from acpt_estimator.v1.data._specs import reference_output

        return reference_output(self)

    @property
    def is_output(self) -> bool:
        return self.mode == "upload"

    def __str__(self) -> str:
        return f"$AZUREML_DATAREFERENCE_{self.data_reference_name}"
