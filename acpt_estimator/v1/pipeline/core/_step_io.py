"""A step's arguments, inputs and outputs -> argv tokens, JobSpec inputs/outputs, links to producers, parameters."""

from __future__ import annotations

import attrs

from acpt_estimator.arguments import ArgumentBuilder, flatten_script_params, is_data, v2_input_name
from acpt_estimator.datastore_paths import datastore_uri
from acpt_estimator.pipelines.spec import ParamRef, PipelineParameterSpec, StepLink
from acpt_estimator.spec import DataInput, DataOutput, InputRef, Literal, OutputRef
from acpt_estimator.v1.data.dataset_consumption_config import DatasetConsumptionConfig
from acpt_estimator.v1.data.output_dataset_config import OutputDatasetConfig

# v1 wrote a PipelineData output under azureml/<step run id>/<output name> on its datastore.
PIPELINE_DATA_PATH = "azureml/{run-id}/{output-name}"


@attrs.frozen
class StepIO:
    """What ``step_io`` returns: everything a step's JobSpec and StepSpec need about data and parameters."""

    tokens: tuple  # argv tokens (Literal, InputRef, OutputRef, ParamRef)
    inputs: tuple  # DataInput; linked ones have a placeholder uri the backend replaces
    outputs: tuple  # DataOutput
    links: tuple  # StepLink
    produces: tuple  # output names other steps may consume
    parameters: tuple  # PipelineParameterSpec used by the step


def _types():
    from .builder import PipelineData
    from .graph import InputPortBinding, OutputPortBinding, PipelineDataset, PipelineParameter
    from .pipeline_output_dataset import PipelineOutputAbstractDataset

    return PipelineData, InputPortBinding, OutputPortBinding, PipelineDataset, PipelineParameter, \
        PipelineOutputAbstractDataset


def input_port_name(item) -> str:
    PipelineData, InputPortBinding, _, PipelineDataset, _, PipelineOutputAbstractDataset = _types()
    if isinstance(item, PipelineOutputAbstractDataset):
        return item.input_name
    if isinstance(item, PipelineDataset):
        return item.name
    return getattr(item, "data_reference_name", None) or item.name


def output_port_name(item) -> str:
    if isinstance(item, OutputDatasetConfig):
        return item.name
    return getattr(item, "_output_name", None) or item.name


def prepare_io(arguments: list, inputs: list, outputs: list, resource_inputs: list) -> None:
    """v1's ``_process_arguments_and_io`` (in place): data objects in arguments join inputs/outputs; an
    OutputFileDatasetConfig in ``inputs`` is read through ``as_input()``."""
    from acpt_estimator.v1.data.abstract_dataset import AbstractDataset

    PipelineData, InputPortBinding, OutputPortBinding, PipelineDataset, PipelineParameter, PipelineOutputDataset = \
        _types()
    from .graph import _DataPathParameter

    bound: dict = {}
    for items in (arguments, inputs):  # v1's (PipelineParameter, DataPathComputeBinding) pairs: one object per name
        for i, item in enumerate(items):
            if isinstance(item, tuple):
                param = bound.setdefault(item[0].name if item else None, _DataPathParameter(*item))
                items[i] = param
    for param in bound.values():
        if param not in inputs:
            inputs.append(param)
    for i, argument in enumerate(arguments):
        if isinstance(argument, AbstractDataset):
            raise ValueError("Datasets cannot be used directly as arguments. Please make sure you've called the "
                             "as_named_input method on the dataset object.")
        if isinstance(argument, OutputDatasetConfig):
            if argument in inputs:
                consumed = argument.as_input()
                arguments[i] = inputs[inputs.index(argument)] = consumed
            elif argument not in outputs:
                outputs.append(argument)
        elif isinstance(argument, PipelineOutputDataset) and argument not in outputs and argument not in inputs:
            inputs.append(argument)
        elif isinstance(argument, (DatasetConsumptionConfig, PipelineDataset)) and argument not in inputs:
            inputs.append(argument)
        elif isinstance(argument, PipelineParameter) and _is_data_default(argument.default_value):
            inputs.append(argument)
    for i, item in enumerate(inputs):
        if isinstance(item, OutputDatasetConfig):
            inputs[i] = item.as_input()
    valid_in = (PipelineData, InputPortBinding, PipelineDataset, PipelineOutputDataset, PipelineParameter,
                _DataPathParameter)
    for item in inputs + resource_inputs:
        if not (isinstance(item, valid_in) or is_data(item)) or isinstance(item, OutputDatasetConfig):
            from acpt_estimator.v1.data.abstract_dataset import AbstractDataset as _Dataset

            if isinstance(item, _Dataset):
                raise ValueError(f"{type(item)} cannot be directly used as a step's input. Please call the "
                                 f"as_named_input method on {type(item)} and pass the returned "
                                 "DatasetConsumptionConfig instance into the step.")
            raise ValueError(f"Unexpected input type: {type(item)}")
    for item in outputs:
        if not isinstance(item, (PipelineData, OutputPortBinding, PipelineOutputDataset, OutputDatasetConfig)):
            raise ValueError(f"Unexpected output type: {type(item)}")


def _is_data_default(value) -> bool:
    from acpt_estimator.v1.data.abstract_dataset import AbstractDataset
    from acpt_estimator.v1.data.datapath import DataPath

    return isinstance(value, (DataPath, AbstractDataset)) or type(value).__name__ == "PipelineDataset"


def rename_colliding_inputs(inputs: list, arguments: list, output_names: set):
    """v1's fix_port_name_collisions: an input named like an output is bound under ``INPUT_<name>``."""
    PipelineData, InputPortBinding = _types()[:2]
    renamed = {}
    new_inputs = []
    for item in inputs:
        name = input_port_name(item)
        if name in output_names and isinstance(item, (PipelineData, InputPortBinding)):
            source = item.bind_object if isinstance(item, InputPortBinding) else item
            mode = item.bind_mode if isinstance(item, InputPortBinding) else "mount"
            binding = InputPortBinding(f"INPUT_{name}", bind_object=source, bind_mode=mode)
            renamed[id(item)] = binding
            new_inputs.append(binding)
        else:
            new_inputs.append(item)
    return new_inputs, [renamed.get(id(a), a) for a in arguments]


def check_arguments_listed(arguments, inputs, outputs) -> None:
    """Data objects in ``arguments`` must be in ``inputs``/``outputs`` (v1's validate_arguments messages)."""
    from acpt_estimator.v1.data.data_reference import DataReference

    PipelineData, InputPortBinding, OutputPortBinding = _types()[:3]
    bound = [getattr(i, "bind_object", None) for i in inputs]
    for argument in arguments or ():
        if isinstance(argument, InputPortBinding):
            if argument not in inputs and argument.bind_object not in inputs and argument.bind_object not in bound:
                raise ValueError(f"Input {argument.name} appears in arguments list but is not in the input list")
        elif isinstance(argument, PipelineData):
            if argument not in outputs and argument not in inputs and argument not in bound:
                raise ValueError(f"Input/Output {argument.name} appears in arguments list but is not in the "
                                 "input/output lists")
        elif isinstance(argument, DataReference) and argument.mode != "upload":  # an upload is an output
            if argument not in inputs and argument not in bound:
                raise ValueError(f"Input {argument.data_reference_name} appears in arguments list but is not in the "
                                 "input list")
        elif isinstance(argument, OutputPortBinding) and argument not in outputs:
            raise ValueError(f"Output {argument.name} appears in arguments list but is not in the output list")


def argument_strings(arguments) -> list:
    """Arguments as v1 showed them: data objects as ``$AZUREML_DATAREFERENCE_<name>``, parameters by value."""
    PipelineParameter = _types()[4]
    out = []
    for argument in arguments or ():
        if isinstance(argument, PipelineParameter):
            out.append(str(argument.default_value))
        elif isinstance(argument, (str, int, float, bool)):
            out.append(str(argument))
        else:
            out.append(f"$AZUREML_DATAREFERENCE_{input_port_name(argument)}")
    return out


class _StepIOBuilder(ArgumentBuilder):
    """ArgumentBuilder plus what only pipelines have: data other steps write, and pipeline parameters."""

    def __init__(self, context, outputs):
        super().__init__()
        self.context = context
        self.declared_outputs = list(outputs)
        self.links: dict[str, StepLink] = {}
        self.produces: list[str] = []
        self.parameters: dict[str, PipelineParameterSpec] = {}

    def token(self, item):
        PipelineData, InputPortBinding, OutputPortBinding, PipelineDataset, PipelineParameter, OutputDataset = \
            _types()
        from .graph import _DataPathParameter

        if isinstance(item, _DataPathParameter):
            return self._data_parameter(item.parameter, item.binding)
        if isinstance(item, PipelineParameter):
            if _is_data_default(item.default_value):
                return self._data_parameter(item)
            self._parameter(item.name, item.default_value)
            return ParamRef(item.name)
        if isinstance(item, OutputDataset):
            item = item._pipeline_data if self._is_output(item) else item.as_input_binding()
        if isinstance(item, OutputPortBinding):
            return self._pipeline_output(item.name, item.output_name, item.datastore, item.bind_mode,
                                         item.overwrite)
        if isinstance(item, PipelineData):
            if self._is_output(item):
                return self._pipeline_output(item.name, item._output_name, item.datastore, item._output_mode,
                                             item._output_overwrite)
            item = item.create_input_binding()
        if isinstance(item, InputPortBinding):
            return self._linked(item)
        if isinstance(item, PipelineDataset):
            return self.add_data(item._consumption())
        if isinstance(item, OutputDatasetConfig):
            self.produces.append(item.name)
            return self.add_data(item)
        if isinstance(item, DatasetConsumptionConfig) and item.source_output is not None:
            return self._linked_output_dataset(item)
        if is_data(item):  # a data object: it gives its own input/output spec
            return self.add_data(item)
        if isinstance(item, (str, int, float, bool)):
            return Literal(str(item))
        raise ValueError(f"{type(item).__name__} is not a valid type for argument: {item!r}. Pass str, int, float, "
                         "bool, PipelineParameter, PipelineData or a data reference.")

    def _is_output(self, item) -> bool:
        return any(item is o or getattr(o, "_pipeline_data", None) is item or
                   getattr(item, "_pipeline_data", None) is o for o in self.declared_outputs)

    def _parameter(self, name, default, kind="literal"):
        old = self.parameters.get(name)
        if old is not None and old.default != default:
            raise ValueError(f"Pipeline parameters with same name {name} but different values {old.default!r}, "
                             f"{default!r} used; give them distinct names or the same default.")
        self.parameters[name] = PipelineParameterSpec(name, default, kind)

    def _data_parameter(self, param, binding=None):
        """A DataPath/dataset-valued parameter: an input whose data the submit may replace."""
        from acpt_estimator.v1.data.datapath import DataPath

        default = param.default_value
        data = default.create_data_reference(param.name, binding) if isinstance(default, DataPath) else \
            getattr(default, "_consumption", lambda: default.as_named_input(param.name))()
        token = self.add_data(data)
        self._parameter(param.name, self.inputs[token.name], kind="datapath")
        return token

    def _pipeline_output(self, name, output_name, datastore, mode, overwrite):
        store = getattr(datastore, "name", None) or self.context.default_datastore or "workspaceblobstore"
        self.outputs.setdefault(output_name, DataOutput(
            name=output_name, reference_name=name, uri=datastore_uri(store, PIPELINE_DATA_PATH), datastore=store,
            path_on_datastore=PIPELINE_DATA_PATH, mode=mode or "mount", overwrite=bool(overwrite)))
        if output_name not in self.produces:
            self.produces.append(output_name)
        return OutputRef(output_name)

    def _link(self, input_name, output_name, reference_name, mode, uri_type="uri_folder"):
        producer = self.context.producer_of(output_name)
        if producer is None:
            raise ValueError(f'The intermediate data "{output_name}" does not have any producer step. Add it to the '
                             "outputs of the step that writes it, and that step to the Pipeline.")
        name = v2_input_name(input_name)
        self._merge_input(DataInput(name=name, reference_name=reference_name, kind="step_output", mode=mode,
                                    uri_type=uri_type, uri=f"step://{producer}/{output_name}"))
        self.links.setdefault(name, StepLink(name, producer, output_name))
        return InputRef(name)

    def _linked(self, binding):
        source = binding.bind_object
        output_name = output_port_name(source)
        return self._link(binding.name, output_name, binding.name, binding.bind_mode)

    def _linked_output_dataset(self, cfg):
        return self._link(cfg.name, cfg.source_output.name, cfg.name, cfg.mode)


def step_io(context, arguments=(), inputs=(), outputs=(), script_params=None) -> StepIO:
    """Tokens, inputs, outputs, links and parameters of one step (v1's argument and input/output rules).

    ``arguments`` are kept as given (v1 PythonScriptStep); ``script_params`` (an estimator's dict) is flattened
    first, as single jobs do. Inputs/outputs not in the arguments still reach the job (as environment variables).
    """
    builder = _StepIOBuilder(context, outputs)
    items = list(arguments or ()) + flatten_script_params(script_params)
    tokens = [builder.token(item) for item in items]
    for item in list(inputs or ()) + list(outputs or ()):
        builder.token(item)
    return StepIO(tuple(tokens), tuple(builder.inputs.values()), tuple(builder.outputs.values()),
                  tuple(builder.links.values()), tuple(builder.produces), tuple(builder.parameters.values()))
