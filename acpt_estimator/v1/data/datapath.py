"""v1 ``azureml.data.datapath``: a datastore path without a mode."""

from __future__ import annotations

import attrs

from acpt_estimator.v1.core.datastore import Datastore
from acpt_estimator.v1.data.data_reference import DataReference


@attrs.define(eq=False)
class DataPath:
    """v1 ``azureml.data.datapath.DataPath``: a datastore path without a mode (mounted when consumed)."""

    datastore: Datastore | None = None
    path_on_datastore: str | None = None
    name: str | None = None

    def create_data_reference(self, data_reference_name=None, datapath_compute_binding=None) -> DataReference:
        mode = getattr(datapath_compute_binding, "mode", None) or "mount"
        return DataReference(self.datastore, data_reference_name or self.name, self.path_on_datastore, mode)
