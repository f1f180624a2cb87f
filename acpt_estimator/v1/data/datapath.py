"""v1 ``azureml.data.datapath``: a datastore path without a mode, and the mode it is bound with."""

from __future__ import annotations

import attrs

from acpt_estimator.v1.core.datastore import Datastore
from acpt_estimator.datastore_paths import datastore_path_parts
from acpt_estimator.v1.data.data_reference import DataReference
from acpt_estimator._lazy import lazy_names


def _inside(path) -> None:
    if path is not None:
        datastore_path_parts(path, fix="Pass a path inside the datastore, e.g. 'mnist'.")


@attrs.define(eq=False)
class DataPath:
    """v1 ``azureml.data.datapath.DataPath``: a datastore path without a mode (mounted when consumed)."""

    datastore: Datastore | None = None
    path_on_datastore: str | None = attrs.field(default=None, validator=lambda _, __, value: _inside(value))
    name: str | None = None

    @property
    def datastore_name(self) -> str | None:
        return getattr(self.datastore, "name", None)

    def create_data_reference(self, data_reference_name=None, datapath_compute_binding=None) -> DataReference:
        binding = datapath_compute_binding or DataPathComputeBinding()
        return DataReference(self.datastore, data_reference_name or self.name, self.path_on_datastore, binding.mode,
                             binding.path_on_compute, binding.overwrite)

    def to_input_spec(self):
        """The engine's DataInput: the path mounted under a new reference name."""
        return self.create_data_reference().to_input_spec()

    @staticmethod
    def create_from_data_reference(data_reference) -> "DataPath":
        return DataPath(data_reference.datastore, data_reference.path_on_datastore,
                        data_reference.data_reference_name)


@attrs.define(eq=False)
class DataPathComputeBinding:
    """v1: how a DataPath is seen by the job (mount, download or upload, and where)."""

    mode: str = "mount"
    path_on_compute: str | None = None
    overwrite: bool = False

    def create_data_reference(self, data_reference_name=None, datapath=None) -> DataReference:
        if datapath is None:
            from acpt_estimator.exceptions import UserErrorException

            raise UserErrorException("DataPathComputeBinding.create_data_reference needs datapath=DataPath(ds, 'p').")
        return datapath.create_data_reference(data_reference_name, self)

    @staticmethod
    def create_from_data_reference(data_reference) -> "DataPathComputeBinding":
        return DataPathComputeBinding(data_reference.mode, data_reference.path_on_compute, data_reference.overwrite)


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    "DataReference": "acpt_estimator.v1.data.data_reference",
})
