"""v1 ``azureml.data.dataset_consumption_config``: how a job consumes a dataset."""

from __future__ import annotations

import attrs

from acpt_estimator.datastore_paths import check_input_name


@attrs.define(eq=False)
class DatasetConsumptionConfig:
    """v1: how a job consumes a dataset (``dataset.as_named_input('x').as_mount()``)."""

    name: str
    dataset: "FileDataset"
    mode: str = "direct"
    path_on_compute: str | None = None

    def __attrs_post_init__(self):
        check_input_name(self.name)

    def as_mount(self, path_on_compute=None) -> "DatasetConsumptionConfig":
        return attrs.evolve(self, mode="mount", path_on_compute=path_on_compute)

    def as_download(self, path_on_compute=None) -> "DatasetConsumptionConfig":
        return attrs.evolve(self, mode="download", path_on_compute=path_on_compute)

    def __str__(self) -> str:
        return f"DatasetConsumptionConfig:{self.name}"
