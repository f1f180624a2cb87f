"""v1 ``azureml.pipeline.core.graph``: parameters, port bindings and PipelineDataset; v1's graph internals refuse.

v1 compiled steps into a graph of modules, ports and edges held by its pipeline service. Here steps become a v2
pipeline job (or a local DAG) directly, so the graph classes import and refuse, naming what replaces them.
"""

from __future__ import annotations

from acpt_estimator.v1._refusal import refused_class
from acpt_estimator.v1.core.dataset import Dataset
from acpt_estimator.v1.data.abstract_dataset import AbstractDataset
from acpt_estimator.v1.data.data_reference import DataReference
from acpt_estimator.v1.data.datapath import DataPath, DataPathComputeBinding
from acpt_estimator.v1.data.dataset_consumption_config import DatasetConsumptionConfig
from acpt_estimator.v1.data.file_dataset import FileDataset
from acpt_estimator.v1.data.sql_data_reference import SqlDataReference
from acpt_estimator.v1.data.stored_procedure_parameter import StoredProcedureParameter, StoredProcedureParameterType
from acpt_estimator.v1.data.tabular_dataset import TabularDataset

from .pipeline_output_dataset import PipelineOutputAbstractDataset

_GRAPH_WHY = ("v1's pipeline graph (modules, ports, edges) lived on the v1 pipeline service; acpt-estimator builds a "
              "v2 pipeline job from the steps.")
_GRAPH_V2 = ("Pipeline(workspace, steps=[...]) (a v2 pipeline job; its .graph shows steps and edges), or "
             "azure.ai.ml.dsl.pipeline")


def _graph_class(name: str, replacement: str = _GRAPH_V2):
    return refused_class(name, _GRAPH_WHY, replacement, module=__name__)


Graph = _graph_class("Graph")
Node = _graph_class("Node")
ModuleNode = _graph_class("ModuleNode")
DataSourceNode = _graph_class("DataSourceNode")
Module = _graph_class("Module", "an azure.ai.ml command component (load_component / ml_client.components)")
ModuleDef = _graph_class("ModuleDef", "an azure.ai.ml command component (load_component / ml_client.components)")
InputPort = _graph_class("InputPort")
OutputPort = _graph_class("OutputPort")
InputPortDef = _graph_class("InputPortDef", "azure.ai.ml.Input on a component")
OutputPortDef = _graph_class("OutputPortDef", "azure.ai.ml.Output on a component")
Edge = _graph_class("Edge")
Param = _graph_class("Param", "azure.ai.ml.Input(type='string'|'integer'|...) on a component")
ParamDef = _graph_class("ParamDef", "azure.ai.ml.Input(type='string'|'integer'|...) on a component")
DataSource = _graph_class("DataSource", "azure.ai.ml.Input(path='azureml://datastores/<ds>/paths/<p>')")
DataSourceDef = _graph_class("DataSourceDef", "azure.ai.ml.Input(path='azureml://datastores/<ds>/paths/<p>')")
DataType = _graph_class("DataType", "v2 input/output types (uri_folder, uri_file, mltable)")
_PARAMETER_TYPES = (bool, int, float, str, DataPath, FileDataset, TabularDataset)


class PipelineParameter:
    """A value given at submit (``pipeline_parameters={name: value}``), with a default."""

    def __init__(self, name, default_value):
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"PipelineParameter name={name!r}: use letters, digits and underscores, not starting "
                             "with a digit (it becomes a v2 pipeline input name).")
        if not isinstance(default_value, _PARAMETER_TYPES) and not isinstance(default_value, PipelineDataset):
            raise ValueError(f"Default value is of unsupported type: {type(default_value).__name__}. Use int, str, "
                             "bool, float, DataPath, PipelineDataset, FileDataset or TabularDataset.")
        if isinstance(default_value, str) and "\n" in default_value:
            raise ValueError(f"PipelineParameter {name!r}: multi-line parameters can't be used as "
                             "PipelineParameters.")
        self.name, self.default_value = name, default_value

    def __str__(self):
        return f"PipelineParameter_Name:{self.name}_Default:{self.default_value}"

    def _serialize_to_dict(self):
        if isinstance(self.default_value, DataPath):
            return {"type": "datapath", "default": {"datastore": self.default_value.datastore_name,
                                                    "path_on_datastore": self.default_value.path_on_datastore}}
        kind = {bool: "bool", int: "int", float: "float"}.get(type(self.default_value), "string")
        return {"type": kind, "default": self.default_value}


class _DataPathParameter:
    """v1's ``(PipelineParameter(name, DataPath(...)), DataPathComputeBinding(mode))`` in arguments and inputs."""

    def __init__(self, parameter, binding=None):
        if not isinstance(parameter, PipelineParameter) or not isinstance(parameter.default_value, DataPath):
            raise ValueError(f"({parameter!r}, {binding!r}): a data path parameter is (PipelineParameter(name, "
                             "default_value=DataPath(datastore, 'path')), DataPathComputeBinding(mode='mount')).")
        self.parameter, self.binding = parameter, binding or DataPathComputeBinding()

    @property
    def name(self):
        return self.parameter.name

    def __str__(self):
        return f"$AZUREML_DATAREFERENCE_{self.name}"


class TrainingOutput:
    """What a training step (HyperDriveStep) outputs: ``'Metrics'`` or ``'Model'`` (with model_file)."""

    def __init__(self, type, iteration=None, metric=None, model_file=None):
        if type not in ("Metrics", "Model"):
            raise ValueError(f"TrainingOutput type={type!r}: use 'Metrics' or 'Model'.")
        self._type, self._iteration, self._metric, self._model_file = type, iteration, metric, model_file

    type = property(lambda self: self._type)
    iteration = property(lambda self: self._iteration)
    metric = property(lambda self: self._metric)
    model_file = property(lambda self: self._model_file)


class InputPortBinding:
    """A step input bound to data: ``PipelineData.as_mount()``, ``.as_download()``, ``.as_input(name)``."""

    def __init__(self, name, bind_object=None, bind_mode="mount", path_on_compute=None, overwrite=None,
                 is_resource=False, additional_transformations=None, **kwargs):
        if bind_object is None:
            raise ValueError("bind_object is required")
        if bind_mode not in {"mount", "download", "direct", "hdfs"}:
            raise ValueError(f"invalid bind_mode {bind_mode}; use 'mount' or 'download'.")
        if bind_mode == "hdfs":
            from acpt_estimator.v1._refusal import refuse

            refuse("InputPortBinding(bind_mode='hdfs')", "HDFS inputs exist only on v1 Synapse Spark pools.",
                   "a v2 Spark job (azure.ai.ml.spark)")
        if additional_transformations is not None:
            from acpt_estimator.v1._refusal import refuse

            refuse("InputPortBinding(additional_transformations=...)", "transformations were dataprep Dataflows.",
                   "transform the data in the consuming step's script")
        self._name, self._bind_object, self._bind_mode = name, bind_object, bind_mode
        self._path_on_compute, self._overwrite, self._is_resource = path_on_compute, overwrite, is_resource
        self._additional_transformations = additional_transformations

    name = property(lambda self: self._name)
    bind_object = property(lambda self: self._bind_object)
    bind_mode = property(lambda self: self._bind_mode)
    path_on_compute = property(lambda self: self._path_on_compute)
    overwrite = property(lambda self: self._overwrite)
    is_resource = property(lambda self: self._is_resource)
    additional_transformations = property(lambda self: self._additional_transformations)

    @name.setter
    def name(self, value):
        self._name = value

    @property
    def data_type(self):
        return self.get_bind_object_data_type()

    @property
    def data_reference_name(self):
        return self.get_bind_object_name()

    def get_bind_object_name(self):
        bound = self._bind_object
        return getattr(bound, "data_reference_name", None) or getattr(bound, "name", None) or self._name

    def get_bind_object_data_type(self):
        return getattr(self._bind_object, "data_type", None) or "AnyDirectory"

    def as_resource(self):
        self._is_resource = True
        return self

    def __str__(self):
        return f"$AZUREML_DATAREFERENCE_{self._name}"


class OutputPortBinding:
    """A step output written to a datastore (v1's lower-level form of PipelineData)."""

    def __init__(self, name, datastore=None, output_name=None, bind_mode="mount", path_on_compute=None,
                 is_directory=None, overwrite=None, data_type=None, pipeline_output_name=None, training_output=None,
                 dataset_registration=None, dataset_output=None):
        if bind_mode not in ("mount", "upload"):
            raise ValueError(f"Invalid output mode [{bind_mode}]; use 'mount' or 'upload'.")
        self._name, self._datastore, self._output_name = name, datastore, output_name or name
        self._bind_mode, self._path_on_compute, self._is_directory = bind_mode, path_on_compute, is_directory
        self._overwrite, self._data_type = overwrite, data_type
        self._pipeline_output_name, self._training_output = pipeline_output_name, training_output
        self._dataset_registration, self._dataset_output = dataset_registration, dataset_output
        self._producer = None

    def _set_producer(self, step):
        self._producer = step

    name = property(lambda self: self._name)
    output_name = property(lambda self: self._output_name)
    datastore = property(lambda self: self._datastore)
    bind_mode = property(lambda self: self._bind_mode)
    path_on_compute = property(lambda self: self._path_on_compute)
    is_directory = property(lambda self: self._is_directory)
    overwrite = property(lambda self: self._overwrite)
    data_type = property(lambda self: self._data_type)
    pipeline_output_name = property(lambda self: self._pipeline_output_name)
    training_output = property(lambda self: self._training_output)
    dataset_registration = property(lambda self: self._dataset_registration)

    def __str__(self):
        return f"$AZUREML_DATAREFERENCE_{self._name}"


class PipelineDataset:
    """A dataset (or a DataPath-valued parameter) as a step input, with its name and mode."""

    def __init__(self, dataset=None, name=None, bind_mode="mount", path_on_compute=None, overwrite=False,
                 parameter_name=None):
        PipelineDataset.validate_dataset(dataset)
        self._dataset, self._name = dataset, name or PipelineDataset.default_name(dataset)
        self._bind_mode, self._path_on_compute, self._overwrite = bind_mode, path_on_compute, overwrite
        self._parameter_name = parameter_name

    @staticmethod
    def create(dataset, name=None, parameter_name=None):
        if isinstance(dataset, PipelineDataset):
            return dataset
        return PipelineDataset(dataset=dataset, name=name, parameter_name=parameter_name)

    @staticmethod
    def default_name(dataset):
        if isinstance(dataset, DatasetConsumptionConfig):
            return dataset.name
        if isinstance(dataset, PipelineDataset):
            return dataset.name
        name = getattr(dataset, "name", None)
        return name if name and name.isidentifier() else "dataset"

    @staticmethod
    def is_dataset(dset):
        return isinstance(dset, (AbstractDataset, DatasetConsumptionConfig, Dataset))

    @staticmethod
    def validate_dataset(dset):
        if isinstance(dset, PipelineDataset):
            return
        if not PipelineDataset.is_dataset(dset):
            raise ValueError(f"Invalid type for dataset: {type(dset).__name__}. Pass a FileDataset, TabularDataset "
                             "or dataset.as_named_input(name).")

    def _consumption(self):
        """The dataset as single jobs consume it (a DatasetConsumptionConfig)."""
        if isinstance(self._dataset, DatasetConsumptionConfig):
            return self._dataset
        consumed = self._dataset.as_named_input(self._name)
        if self._bind_mode in ("mount", "download") and getattr(self._dataset, "_kind", "file") == "file":
            consumed = consumed.as_mount() if self._bind_mode == "mount" else consumed.as_download()
        return consumed

    dataset = property(lambda self: self._dataset)
    name = property(lambda self: self._name)
    bind_mode = property(lambda self: self._bind_mode)
    path_on_compute = property(lambda self: self._path_on_compute)
    overwrite = property(lambda self: self._overwrite)
    parameter_name = property(lambda self: self._parameter_name)
    dataset_id = property(lambda self: getattr(self._dataset, "id", None))
    saved_dataset_id = property(lambda self: getattr(self._dataset, "id", None))
    dataset_version = property(lambda self: getattr(self._dataset, "version", None))
    workspace = property(lambda self: getattr(self._dataset, "workspace", None))


def __getattr__(name):  # v1's graph module also exported these; resolved late (they import this module)
    if name == "PipelineRun":
        from .run import PipelineRun

        return PipelineRun
    if name == "PortDataReference":
        from .port_data_reference import PortDataReference

        return PortDataReference
    if name == "PublishedPipeline":
        from .published_pipeline import PublishedPipeline

        return PublishedPipeline
    raise AttributeError(name)


__all__ = ["AbstractDataset", "DataPath", "DataPathComputeBinding", "DataReference", "DataSource", "DataSourceDef",
           "DataSourceNode", "DataType", "Dataset", "DatasetConsumptionConfig", "Edge", "FileDataset", "Graph",
           "InputPort", "InputPortBinding", "InputPortDef", "Module", "ModuleDef", "ModuleNode", "Node", "OutputPort",
           "OutputPortBinding", "OutputPortDef", "Param", "ParamDef", "PipelineDataset",
           "PipelineOutputAbstractDataset", "PipelineParameter", "PipelineRun", "PortDataReference",
           "PublishedPipeline", "SqlDataReference", "StoredProcedureParameter", "StoredProcedureParameterType",
           "TabularDataset", "TrainingOutput"]
