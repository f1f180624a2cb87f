"""v1 ``azureml.pipeline.core.pipeline_output_dataset``: PipelineData promoted to a dataset (``as_dataset()``)."""

from __future__ import annotations

from acpt_estimator.v1._refusal import refused
from acpt_estimator.v1.core.datastore import Datastore
from acpt_estimator.v1.data.constants import LINK_MODE, UPLOAD_MODE
from acpt_estimator.v1.data.dataset_type_definitions import PromoteHeadersBehavior
from acpt_estimator.v1.data.output_dataset_config import (HDFSOutputDatasetConfig, LinkFileOutputDatasetConfig,
                                                          LinkTabularOutputDatasetConfig, OutputFileDatasetConfig,
                                                          OutputTabularDatasetConfig)

_TRANSFORM = ("tabular transformations of intermediate data were dataprep Dataflows evaluated by v1's service.",
              "pass the folder (as_mount/as_download) and read it with pandas in the consuming step, or write an "
              "OutputFileDatasetConfig(...).read_delimited_files() output")


class DatasetRegistration:
    """Register an output dataset under ``name`` when the step completes."""

    def __init__(self, name, create_new_version):
        self._name, self._create_new_version = name, create_new_version

    name = property(lambda self: self._name)
    create_new_version = property(lambda self: self._create_new_version)


class PipelineOutputAbstractDataset:
    """Intermediate data (a PipelineData) that later steps consume as a dataset."""

    def __init__(self, pipeline_data):
        self._pipeline_data = pipeline_data
        self._input_name = pipeline_data.name
        self._registration = None
        self._mode, self._path_on_compute = "mount", None

    def register(self, name, create_new_version=True):
        self._registration = DatasetRegistration(name, create_new_version)
        return self

    def as_named_input(self, name):
        clone = self._clone()
        clone._input_name = name
        return clone

    @property
    def name(self):
        return self._pipeline_data.name

    @property
    def input_name(self):
        return self._input_name

    def create_input_binding(self):
        return self.as_input_binding()

    def as_input_binding(self):
        from .graph import InputPortBinding

        mode = "mount" if self._mode == "direct" else self._mode
        return InputPortBinding(self._input_name, bind_object=self._pipeline_data, bind_mode=mode,
                                path_on_compute=self._path_on_compute)

    def _set_producer(self, producer):
        self._pipeline_data._set_producer(producer)

    @property
    def _output_name(self):
        return self._pipeline_data._output_name

    @property
    def _producer(self):
        return self._pipeline_data._producer

    def _clone(self):
        clone = type(self).__new__(type(self))
        clone.__dict__.update(self.__dict__)
        return clone


class PipelineOutputFileDataset(PipelineOutputAbstractDataset):
    """``PipelineData(...).as_dataset()``: a folder of files."""

    def as_download(self, path_on_compute=None):
        return self._with_mode("download", path_on_compute)

    def as_mount(self, path_on_compute=None):
        return self._with_mode("mount", path_on_compute)

    def as_direct(self):
        return self._with_mode("direct", None)

    def _with_mode(self, mode, path_on_compute):
        clone = self._clone()
        clone._mode, clone._path_on_compute = mode, path_on_compute
        return clone

    parse_delimited_files = refused("PipelineOutputFileDataset.parse_delimited_files", *_TRANSFORM)
    parse_parquet_files = refused("PipelineOutputFileDataset.parse_parquet_files", *_TRANSFORM)


class PipelineOutputTabularDataset(PipelineOutputAbstractDataset):
    """v1: intermediate data parsed as a table (made by ``parse_delimited_files``, which is refused)."""

    def __init__(self, pipeline_output_dataset, additional_transformations):
        super().__init__(pipeline_output_dataset._pipeline_data)
        self._transformations = additional_transformations

    keep_columns = refused("PipelineOutputTabularDataset.keep_columns", *_TRANSFORM)
    drop_columns = refused("PipelineOutputTabularDataset.drop_columns", *_TRANSFORM)
    random_split = refused("PipelineOutputTabularDataset.random_split", *_TRANSFORM)


__all__ = ["DatasetRegistration", "Datastore", "HDFSOutputDatasetConfig", "LINK_MODE", "LinkFileOutputDatasetConfig",
           "LinkTabularOutputDatasetConfig", "OutputFileDatasetConfig", "OutputTabularDatasetConfig",
           "PipelineOutputAbstractDataset", "PipelineOutputFileDataset", "PipelineOutputTabularDataset",
           "PromoteHeadersBehavior", "UPLOAD_MODE"]
