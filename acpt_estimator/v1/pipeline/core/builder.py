"""v1 ``azureml.pipeline.core.builder``: the PipelineStep base, PipelineData and StepSequence.

A step class plugs into pipelines by subclassing ``PipelineStep`` and implementing one method,
``_to_step_spec(context) -> acpt_estimator.pipelines.spec.StepSpec`` (pure: no I/O). ``context`` is a
``StepBuildContext`` (node name, pipeline defaults, parameters, which node produces each output name). Most steps
build their JobSpec's arguments, inputs and outputs with ``acpt_estimator.v1.pipeline.core._step_io.step_io``, which
turns PipelineData, PipelineParameter, OutputFileDatasetConfig and ordinary v1 data objects into tokens, links and
the names the step produces. ``Pipeline`` collects steps (and the producers of their inputs), names the nodes,
calls ``_to_step_spec`` and hands the resulting ``PipelineSpec`` to a backend.
"""

from __future__ import annotations

import re

from acpt_estimator.v1._refusal import refused

_WORD = re.compile(r"\W")
_NO_GRAPH = ("v1 built its own graph of modules on the pipeline service; acpt-estimator builds a v2 pipeline job "
             "from the steps directly.", "Pipeline(workspace, steps=[...]) and Pipeline.validate()")


def _check_port_names(names: list, kind: str, seen: set | None = None) -> None:
    seen = set() if seen is None else seen
    for name in names:
        if _WORD.search(name):
            raise ValueError(f"[{name}] is not a valid {kind} name as it may contain only letters, digits, and "
                             "underscores.")
    for name in names:
        if name in seen:
            raise ValueError(f"[{name}] is repeated. {kind.capitalize()} port names must be unique.")
        seen.add(name)


class PipelineStep:
    """v1's base of every step: a name, inputs, outputs, arguments and steps it must run after."""

    def __init__(self, name, inputs, outputs, arguments=None, fix_port_name_collisions=False, resource_inputs=None):
        from ._step_io import input_port_name, output_port_name, prepare_io

        self.name = name
        self.run_after_steps = []
        self.step_type = type(self).__name__.lstrip("_")
        if self.step_type.endswith("Base"):
            self.step_type = self.step_type[:-4]
        inputs, outputs = list(inputs or []), list(outputs or [])
        resource_inputs = list(resource_inputs or [])
        arguments = list(arguments or [])
        prepare_io(arguments, inputs, outputs, resource_inputs)
        in_names = [input_port_name(i) for i in inputs + resource_inputs]
        out_names = [output_port_name(o) for o in outputs]
        _check_port_names(in_names, "input")
        _check_port_names(out_names, "output")
        if not fix_port_name_collisions:
            _check_port_names(in_names, "Input and Output", set(out_names))
        elif set(in_names) & set(out_names):
            # v1 prefixed the colliding inputs with INPUT_; their names only matter inside the step.
            from ._step_io import rename_colliding_inputs

            inputs, arguments = rename_colliding_inputs(inputs, arguments, set(out_names))
        self._inputs, self._outputs = inputs, outputs
        self._resource_inputs, self._arguments = resource_inputs, arguments
        for output in outputs:
            if hasattr(output, "_set_producer"):
                output._set_producer(self)
        PipelineStep.validate_arguments(arguments, inputs, outputs)

    # ---- the one method a step kind implements -------------------------------------------------------
    def _to_step_spec(self, context):
        """This step as a neutral ``StepSpec`` for ``context`` (a ``StepBuildContext``); pure, no I/O."""
        raise NotImplementedError(f"{type(self).__name__} does not implement _to_step_spec(context)")

    # ---- v1 members ------------------------------------------------------------------------------------
    def run_after(self, step):
        """Run this step after ``step`` (no data needs to pass between them)."""
        if not isinstance(step, PipelineStep):
            raise ValueError(f"run_after(step={step!r}): pass a pipeline step (e.g. a PythonScriptStep).")
        self.run_after_steps.append(step)

    def get_source_directory(self, context, source_directory, script_name):
        """The folder the step's snapshot is taken from: its own, else the pipeline's default, else '.'."""
        import os

        folder = source_directory or getattr(context, "default_source_directory", None) or "."
        path = os.path.abspath(os.path.join(folder, script_name or ""))
        if script_name and not os.path.isfile(path):
            raise ValueError(f"Step [{self.name}]: script not found at: {path}. Pass source_directory= to the step "
                             "or default_source_directory= to the Pipeline.")
        return folder

    @staticmethod
    def validate_arguments(arguments, inputs, outputs):
        """v1's check: data objects in ``arguments`` must also be in ``inputs`` or ``outputs``."""
        from ._step_io import check_arguments_listed

        check_arguments_listed(arguments, inputs, outputs)

    @staticmethod
    def resolve_input_arguments(arguments, inputs, outputs, params):
        """The argument list as strings, data objects as the environment variables v1 set for them."""
        # Each data object in ``arguments`` names its own variable, so v1's lists of the step's ports add nothing.
        del inputs, outputs, params
        from ._step_io import argument_strings

        return argument_strings(arguments)

    create_node = refused("PipelineStep.create_node", *_NO_GRAPH)
    create_module_def = refused("PipelineStep.create_module_def", *_NO_GRAPH)
    create_input_output_bindings = refused("PipelineStep.create_input_output_bindings", *_NO_GRAPH)

    def __repr__(self) -> str:
        return f"{self.step_type}(name={self.name!r})"


class PipelineData:
    """Intermediate data: written by the step that lists it in ``outputs``, read by steps that take it as input."""

    def __init__(self, name, datastore=None, output_name=None, output_mode="mount", output_path_on_compute=None,
                 output_overwrite=None, data_type=None, is_directory=None, pipeline_output_name=None,
                 training_output=None):
        if not name:
            raise ValueError("PipelineData name cannot be empty")
        if _WORD.search(name):
            raise ValueError(f"PipelineData name: [{name}] is not a valid, as it may contain only letters, digits, "
                             "and underscores.")
        output_name = name if output_name is None else output_name
        if _WORD.search(output_name):
            raise ValueError(f"PipelineData output_name: [{output_name}] is not a valid, as it may contain only "
                             "letters, digits, and underscores.")
        if output_mode not in ("mount", "upload"):
            raise ValueError(f"Invalid output mode [{output_mode}]; use 'mount' or 'upload'.")
        self._name, self._output_name, self._datastore = name, output_name, datastore
        self._producer = None
        self._output_mode, self._output_path_on_compute = output_mode, output_path_on_compute
        self._output_overwrite, self._data_type, self._is_directory = output_overwrite, data_type, is_directory
        self._pipeline_output_name, self._training_output = pipeline_output_name, training_output

    def _set_producer(self, step):
        self._producer = step

    def as_download(self, input_name=None, path_on_compute=None, overwrite=None):
        return self.create_input_binding(input_name, "download", path_on_compute, overwrite)

    def as_mount(self, input_name=None):
        return self.create_input_binding(input_name, "mount")

    def as_input(self, input_name):
        return self.create_input_binding(input_name)

    def create_input_binding(self, input_name=None, mode=None, path_on_compute=None, overwrite=None):
        from .graph import InputPortBinding

        input_name = self._name if input_name is None else input_name
        mode = mode or "mount"
        if mode not in ("mount", "download"):
            raise ValueError(f"Input [{input_name}] has an invalid mode [{mode}]; use 'mount' or 'download'.")
        return InputPortBinding(name=input_name, bind_object=self, bind_mode=mode, path_on_compute=path_on_compute,
                                overwrite=overwrite)

    def get_env_variable_name(self):
        return str(self)

    def as_dataset(self):
        from .pipeline_output_dataset import PipelineOutputFileDataset

        return PipelineOutputFileDataset(self)

    @property
    def name(self):
        return self._name

    @property
    def datastore(self):
        return self._datastore

    @property
    def data_type(self):
        return self._data_type

    def __str__(self):
        return f"$AZUREML_DATAREFERENCE_{self._name}"

    __repr__ = __str__


class StepSequence:
    """Steps that run one after another, in list order (each may itself be a list run side by side)."""

    def __init__(self, steps=None):
        if steps is None or not isinstance(steps, (list, tuple)) or not steps:
            raise ValueError(f"StepSequence(steps={steps!r}): pass a non-empty list of steps (or lists of steps).")
        self._steps = list(steps)

    def _ordered(self):
        """(steps, run_after pairs) this sequence adds: each item waits for every step of the item before it."""
        flat, pairs, before = [], [], []
        for item in self._steps:
            group = list(item) if isinstance(item, (list, tuple)) else [item]
            for step in group:
                if not isinstance(step, PipelineStep):
                    raise ValueError(f"StepSequence item {step!r} is not a pipeline step.")
                flat.append(step)
                pairs.extend((step, earlier) for earlier in before)
            before = group
        return flat, pairs


def __getattr__(name):  # v1's builder module re-exported the data and graph names steps use
    from acpt_estimator.v1.data.abstract_dataset import AbstractDataset
    from acpt_estimator.v1.data.data_reference import DataReference
    from acpt_estimator.v1.data.dataset_consumption_config import DatasetConsumptionConfig
    from acpt_estimator.v1.data.output_dataset_config import OutputDatasetConfig

    from . import graph, pipeline_output_dataset, port_data_reference

    found = {"AbstractDataset": AbstractDataset, "DataReference": DataReference,
             "DatasetConsumptionConfig": DatasetConsumptionConfig, "OutputDatasetConfig": OutputDatasetConfig,
             "PortDataReference": port_data_reference.PortDataReference}
    for module in (graph, pipeline_output_dataset):
        if hasattr(module, name):
            found.setdefault(name, getattr(module, name))
    if name in found:
        return found[name]
    raise AttributeError(name)


__all__ = ["AbstractDataset", "DataReference", "DataSource", "DataSourceDef", "DatasetConsumptionConfig",
           "DatasetRegistration", "Edge", "Graph", "InputPortBinding", "Node", "OutputDatasetConfig",
           "OutputPortBinding", "ParamDef", "PipelineData", "PipelineDataset", "PipelineOutputAbstractDataset",
           "PipelineOutputFileDataset", "PipelineParameter", "PipelineStep", "PortDataReference", "StepSequence"]
