"""v1 ``azureml.data.output_dataset_config``: a folder a job writes, landing on a datastore (and registered)."""

from __future__ import annotations

import uuid

import attrs

from acpt_estimator.datastore_paths import check_input_name
from acpt_estimator.names import check
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.v1._refusal import refuse, refused
from acpt_estimator._lazy import lazy_names

__all__ = ["HDFSOutputDatasetConfig", "LinkFileOutputDatasetConfig", "LinkTabularOutputDatasetConfig", "MountOptions",
           "OutputDatasetConfig", "OutputFileDatasetConfig", "OutputTabularDatasetConfig", "RegistrationConfiguration",
           "TransformationMixin", "UploadOptions"]

DEFAULT_DESTINATION = "dataset/{run-id}/{output-name}"  # v1's default path on workspaceblobstore


class UploadOptions:
    """v1: how an output is uploaded after the job (``as_upload``)."""

    def __init__(self, overwrite=False, source_globs=None):
        if source_globs is not None:
            refuse("OutputFileDatasetConfig.as_upload(source_globs=...)", "v2 uploads the whole output folder.",
                   "write only the wanted files into the output folder")
        self.overwrite, self.source_globs = bool(overwrite), None


class MountOptions:
    """v1: how an output is mounted read-write while the job runs (``as_mount``)."""

    def __init__(self, mount_options=None, disable_metadata_cache=False):
        self.mount_options, self.disable_metadata_cache = mount_options, disable_metadata_cache


class RegistrationConfiguration:
    """v1: register the output as a dataset named ``name`` when the job completes."""

    def __init__(self, name, description=None, tags=None, dataset_registration=None):
        if not isinstance(name, str) or not name:
            raise UserErrorException(f"register_on_complete(name={name!r}): pass the dataset name to register.")
        self.name, self.description, self.tags = name, description, dict(tags or {})


class OutputDatasetConfig:
    """v1's base of output datasets: a name the job's argument stands for, and an optional registration."""

    def __init__(self, name=None):
        self._name = check_input_name(name) if name is not None else f"output_{uuid.uuid4().hex[:8]}"
        self._registration = None

    @property
    def name(self) -> str:
        return self._name

    def register_on_complete(self, name, description=None, tags=None):
        """Register the written folder as dataset ``name`` (a new version per run) once the job completes."""
        check("dataset", name, parameter="name")  # refused now, not after the job
        self._registration = RegistrationConfiguration(name, description, tags)
        return self

    def to_output_spec(self):
        """The engine's DataOutput: where the job writes, and the registration to make after it."""
        from acpt_estimator.v1.data._specs import dataset_output

        return dataset_output(self)

    def __str__(self) -> str:
        return f"DatasetOutputConfig:{self.name}"


class TransformationMixin:
    """v1: read the written files as a tabular dataset when it is registered."""

    def read_delimited_files(self, include_path=False, separator=",", header=True, partition_format=None,
                             path_glob=None, set_column_types=None):
        from acpt_estimator.v1.data.dataset_factory import TabularDatasetFactory

        return self._tabular(TabularDatasetFactory.from_delimited_files, path_glob, include_path=include_path,
                             separator=separator, header=header, partition_format=partition_format,
                             set_column_types=set_column_types)

    def read_parquet_files(self, include_path=False, partition_format=None, path_glob=None, set_column_types=None):
        from acpt_estimator.v1.data.dataset_factory import TabularDatasetFactory

        return self._tabular(TabularDatasetFactory.from_parquet_files, path_glob, include_path=include_path,
                             partition_format=partition_format, set_column_types=set_column_types)

    def _tabular(self, factory, path_glob, **options):
        datastore, path = self.destination
        dataset = factory((datastore, path.rstrip("/") + "/" + (path_glob or "**")), validate=False, **options)
        return OutputTabularDatasetConfig(self, dataset.transformations, path_glob or "**")


class OutputFileDatasetConfig(OutputDatasetConfig, TransformationMixin):
    """v1: ``OutputFileDatasetConfig(destination=(ds, 'path/{run-id}'))``, passed in arguments/script_params."""

    def __init__(self, name=None, destination=None, source=None, partition_format=None):
        super().__init__(name)
        if source is not None:
            refuse("OutputFileDatasetConfig(source=...)", "v2 chooses where the job writes an output and passes "
                   "that path in the argument.", "write to the path the script receives as its argument")
        if partition_format is not None:
            refuse("OutputFileDatasetConfig(partition_format=...)", "partitioned outputs were a dataprep feature.",
                   "write the partition folders yourself under the output path")
        self.destination = _destination(destination)
        self.mode, self.options = "mount", MountOptions()

    def as_upload(self, overwrite=False, source_globs=None):
        """Written to a local folder, uploaded to the destination after the job."""
        self.mode, self.options = "upload", UploadOptions(overwrite, source_globs)
        return self

    def as_mount(self, disable_metadata_cache=False):
        """Written straight to the destination while the job runs (v1's default)."""
        self.mode, self.options = "mount", MountOptions(disable_metadata_cache=disable_metadata_cache)
        return self

    def as_input(self, name=None):
        """The written files as a later job's input (the destination must not depend on the run id)."""
        from acpt_estimator.v1.data.file_dataset import FileDataset

        datastore, path = self.destination
        consumed = FileDataset(paths=((datastore, path.replace("{output-name}", self.name).rstrip("/") + "/"),)) \
            .as_named_input(name or self.name).as_mount()
        # In a pipeline the step that writes this output is found through source_output; a single job given it
        # is refused when its destination depends on the writer's run id (arguments.py).
        return attrs.evolve(consumed, source_output=self)


class OutputTabularDatasetConfig(OutputDatasetConfig):
    """v1: an output registered as a tabular dataset (``output.read_delimited_files().register_on_complete(...)``)."""

    def __init__(self, output: OutputFileDatasetConfig, transformations=(), path_glob="**"):
        self._output, self.transformations, self.path_glob = output, tuple(transformations), path_glob
        self._registration = None

    @property
    def name(self) -> str:
        return self._output.name

    def __getattr__(self, item):  # destination, mode, options: the underlying file output's
        if item.startswith("_"):
            raise AttributeError(item)
        return getattr(self._output, item)


def _destination(destination):
    from acpt_estimator.v1.core.datastore import Datastore

    if destination is None:
        return None, DEFAULT_DESTINATION
    if (isinstance(destination, tuple) and len(destination) == 2 and isinstance(destination[0], Datastore)
            and isinstance(destination[1], str)):
        return destination[0], destination[1].lstrip("/")
    raise UserErrorException(
        f"OutputFileDatasetConfig(destination={destination!r}): pass (datastore, 'path') such as "
        "(ws.get_default_datastore(), 'outputs/{run-id}'), or leave it out for dataset/{run-id}/{output-name}.")


class HDFSOutputDatasetConfig(OutputDatasetConfig):
    __init__ = refused("HDFSOutputDatasetConfig", "HDFS outputs exist only on v1 Synapse Spark pools.",
                       "a v2 Spark job output (azure.ai.ml.spark)")


class LinkFileOutputDatasetConfig(OutputDatasetConfig):
    __init__ = refused("LinkFileOutputDatasetConfig", "linked outputs (Synapse/Spark) are not supported.",
                       "OutputFileDatasetConfig(destination=(ds, 'path')) / a v2 uri_folder output")


class LinkTabularOutputDatasetConfig(OutputDatasetConfig):
    __init__ = refused("LinkTabularOutputDatasetConfig", "linked outputs (Synapse/Spark) are not supported.",
                       "OutputFileDatasetConfig(...).read_delimited_files() / a v2 mltable output")


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["DIRECT_MODE", "HDFS_MODE", "LINK_MODE", "MOUNT_MODE", "UPLOAD_MODE"],
        "acpt_estimator.v1.data.constants"),
    "AbstractDataset": "acpt_estimator.v1.data.abstract_dataset",
    "PromoteHeadersBehavior": "acpt_estimator.v1.data.dataset_type_definitions",
})
