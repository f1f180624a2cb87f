"""v1 ``azureml.pipeline.steps.parallel_run_step``: ParallelRunStep, a pipeline step of kind "parallel"."""

from __future__ import annotations

import argparse
import json
import logging
import os

from acpt_estimator.v1._refusal import refuse, refused
from acpt_estimator.v1.pipeline.core.builder import PipelineStep

logger = logging.getLogger(__name__)

# v1's reserved driver arguments: a step argument of these names would clash with the runtime's own
RESERVED_ARGUMENTS = ("mini_batch_size", "error_threshold", "allowed_failed_count", "allowed_failed_percent", "output",
                      "output_action", "logging_level", "process_count_per_node", "run_invocation_timeout",
                      "run_max_try", "append_row_file_name", "partition_keys")
# ParallelRunConfig fields a PipelineParameter may set (v1's list), as ParallelSettings/driver option names
PARAMETER_FIELDS = ("mini_batch_size", "node_count", "process_count_per_node", "logging_level",
                    "run_invocation_timeout", "run_max_try", "partition_keys")
_NO_GRAPH = ("v1 built a module graph on its pipeline service; acpt-estimator builds a v2 parallel node from the step.",
             "Pipeline(workspace, steps=[parallel_run_step]) and pipeline.validate()")


def input_type(item) -> str:
    """'file' or 'tabular' for a ParallelRunStep input (v1's INPUT_TYPE_DICT); ValueError naming the types."""
    from acpt_estimator.v1.data.dataset_consumption_config import DatasetConsumptionConfig
    from acpt_estimator.v1.data.output_dataset_config import (LinkFileOutputDatasetConfig,
                                                              LinkTabularOutputDatasetConfig, OutputFileDatasetConfig,
                                                              OutputTabularDatasetConfig)
    from acpt_estimator.v1.pipeline.core.pipeline_output_dataset import (PipelineOutputFileDataset,
                                                                         PipelineOutputTabularDataset)

    if isinstance(item, DatasetConsumptionConfig):
        if item.source_output is not None:
            return "tabular" if isinstance(item.source_output, OutputTabularDatasetConfig) else "file"
        return getattr(item.dataset, "_kind", "file")
    if isinstance(item, (PipelineOutputTabularDataset, OutputTabularDatasetConfig, LinkTabularOutputDatasetConfig)):
        return "tabular"
    if isinstance(item, (PipelineOutputFileDataset, OutputFileDatasetConfig, LinkFileOutputDatasetConfig)):
        return "file"
    raise ValueError(f"Step input must be of any type: (DatasetConsumptionConfig, PipelineOutputFileDataset, "
                     f"PipelineOutputTabularDataset, OutputFileDatasetConfig, OutputTabularDatasetConfig), found "
                     f"{type(item).__name__}. Pass dataset.as_named_input('name') for a registered or new dataset.")


class ParallelRunStep(PipelineStep):
    """Runs ``parallel_run_config.entry_script``'s init()/run() over mini-batches of ``inputs`` in
    node_count x process_count_per_node worker processes; append_row collects the results in ``output``."""

    def __init__(self, name, parallel_run_config, inputs, output=None, side_inputs=None, arguments=None,
                 allow_reuse=True):
        from .parallel_run_config import ParallelRunConfig

        if not isinstance(parallel_run_config, ParallelRunConfig):
            raise ValueError("Param parallel_run_config must be a azureml.pipeline.steps.ParallelRunConfig; got "
                             f"{type(parallel_run_config).__name__}.")
        if not isinstance(allow_reuse, bool):
            raise ValueError(f"allow_reuse={allow_reuse!r}: pass True (v1's default) or False.")
        self._parallel_run_config, self._allow_reuse = parallel_run_config, allow_reuse
        arguments = list(arguments or [])
        self._check_arguments(arguments)
        if not isinstance(inputs, list) or not inputs:
            raise ValueError("The parameter 'inputs' must be a list and have at least one element, e.g. "
                             "inputs=[dataset.as_named_input('batch_data')].")
        inputs = [item.as_input() if hasattr(item, "as_input") and type(item).__name__.startswith("Output")
                  else item for item in inputs]  # v1: an OutputFileDatasetConfig is read through as_input()
        kinds = {input_type(item) for item in inputs}
        if len(kinds) != 1:
            raise ValueError("All inputs of step must be same type: all file datasets or all tabular datasets.")
        self._input_kind = kinds.pop()
        if parallel_run_config.output_action.lower() != "summary_only" and output is None:
            raise ValueError("Please specify output parameter: output_action='append_row' writes "
                             f"{parallel_run_config.append_row_file_name or 'parallel_run_step.txt'} there, e.g. "
                             "output=PipelineData('inferences', datastore=ws.get_default_datastore()).")
        self._check_source()
        self._primary, self._side_inputs, self._output = inputs, list(side_inputs or []), output
        self._user_arguments = arguments
        outputs = [output] if output is not None else []
        super().__init__(name, inputs + self._side_inputs, outputs, arguments)

    @staticmethod
    def _check_arguments(arguments):
        if not arguments:
            return
        first = arguments[0]
        if not isinstance(first, str) or not first.startswith("-"):
            raise ValueError(f"Found invalid argument '{first}'. As your arguments will be merged with reserved "
                             "argument, you can only use keyword argument (e.g. ['--model_name', 'iris']).")
        for item in arguments:
            if isinstance(item, str) and item.startswith("--") and item[2:].split("=")[0] in RESERVED_ARGUMENTS:
                raise ValueError(f"'{item[2:].split('=')[0]}' is a reserved argument in ParallelRunStep, please use "
                                 "another argument name instead.")
        parser = argparse.ArgumentParser(add_help=False)
        parser.add_argument("--rank_mini_batch_count", type=int, default=0)
        if parser.parse_known_args([str(a) for a in arguments if isinstance(a, (str, int, float))])[0] \
                .rank_mini_batch_count > 0:
            refuse("ParallelRunStep(arguments=['--rank_mini_batch_count', ...])",
                   "rank mini-batches (runs without input data) were a v1 runtime feature.",
                   "a PythonScriptStep/CommandStep on node_count x process_count_per_node processes")

    def _check_source(self):
        config = self._parallel_run_config
        folder = config.source_directory
        if folder:
            if not os.path.exists(folder):
                raise ValueError(f"The value '{folder}' specified in source_directory doesn't exist.")
            if not os.path.isdir(folder):
                raise ValueError(f"The value '{folder}' specified in source_directory is not a directory.")
            path = os.path.join(folder, config.entry_script)
            if not os.path.exists(path):
                raise ValueError(f"The value '{config.entry_script}' specified in entry_script doesn't exist in "
                                 f"source_directory {folder!r}.")
            if not os.path.isfile(path):
                raise ValueError(f"The value '{config.entry_script}' specified in entry_script is not a file.")

    # ---- the pipeline contract -----------------------------------------------------------------------------
    def _to_step_spec(self, context):
        from acpt_estimator.pipelines.spec import ParallelSettings, PipelineParameterSpec, StepSpec
        from acpt_estimator.spec import ComputeSpec, Distribution, InputRef, JobSpec, OutputRef
        from acpt_estimator.v1.pipeline.core._step_io import step_io

        config = self._parallel_run_config
        outputs = [self._output] if self._output is not None else []
        io = step_io(context, self._primary + self._user_arguments, self._side_inputs, outputs)
        primary = io.tokens[:len(self._primary)]
        if not all(isinstance(t, InputRef) for t in primary):
            raise ValueError(f"ParallelRunStep {self.name!r}: every input must be data to split; got {primary}.")
        output_name = None
        if outputs:
            token = step_io(context, outputs, (), outputs).tokens[0]
            output_name = token.name if isinstance(token, OutputRef) else None
        values, parameters, options = {}, list(io.parameters), {}
        for field in PARAMETER_FIELDS:
            value = getattr(config, field)
            if type(value).__name__ == "PipelineParameter":
                options[f"parameter:{field}"] = value.name
                parameters.append(PipelineParameterSpec(value.name, value.default_value))
                value = context.parameters.get(value.name, value.default_value)
            values[field] = value
        keys = values["partition_keys"]
        keys = json.loads(keys) if isinstance(keys, str) else keys
        for item, token in zip(self._primary, primary):
            definition = _linked_definition(item)
            if definition:  # a step output read as a table: the driver needs its reader
                options[f"definition:{token.name}"] = definition
        source = config.source_directory or context.default_source_directory or "."
        settings = ParallelSettings(
            mini_batch_size=None if values["mini_batch_size"] is None else str(values["mini_batch_size"]),
            error_threshold=config.error_threshold, allowed_failed_count=config.allowed_failed_count,
            allowed_failed_percent=config.allowed_failed_percent, output_action=config.output_action.lower(),
            append_row_file_name=config.append_row_file_name or "parallel_run_step.txt",
            run_invocation_timeout=int(values["run_invocation_timeout"]), run_max_try=int(values["run_max_try"]),
            logging_level=str(values["logging_level"]).upper(), partition_keys=tuple(keys or ()),
            input_names=tuple(t.name for t in primary),
            side_input_names=tuple(i.name for i in io.inputs if i.name not in {t.name for t in primary}),
            output_name=output_name, options={**options, "input_kind": self._input_kind,
                                              **({"description": config.description} if config.description else {})})
        job = JobSpec(
            source_directory=source, entry_script=config.entry_script,
            arguments=tuple(io.tokens[len(self._primary):]), inputs=io.inputs, outputs=io.outputs,
            environment_variables=config.environment_variables,
            distribution=Distribution(kind="none", node_count=int(values["node_count"]),
                                      process_count_per_node=int(values["process_count_per_node"] or 1),
                                      spelling="ParallelRunConfig(node_count, process_count_per_node)"),
            environment=config.environment._to_spec(source),
            compute=ComputeSpec(target=_target_name(config.compute_target) or context.default_compute),
            display_name=self.name)
        unique = {p.name: p for p in parameters}
        return StepSpec(name=context.node_name, kind="parallel", job=job, display_name=self.name, links=io.links,
                        produces=io.produces, allow_reuse=self._allow_reuse, parallel=settings,
                        parameters=tuple(unique.values()))

    create_node = refused("ParallelRunStep.create_node", *_NO_GRAPH)
    create_module_def = refused("ParallelRunStep.create_module_def", *_NO_GRAPH)


def _target_name(compute_target):
    if compute_target is None or isinstance(compute_target, str):
        return compute_target
    return getattr(compute_target, "name", None) or str(compute_target)


def _linked_definition(item) -> str:
    """The tabular definition of an output read as a table by this step (its reader and steps), else ''."""
    source = getattr(item, "source_output", None) or item
    transformations = getattr(source, "transformations", None)
    if not transformations:
        return ""
    return json.dumps({"type": "tabular", "paths": [getattr(source, "path_glob", "**")],
                       "transformations": list(transformations)}, sort_keys=True)


__all__ = ["ParallelRunStep"]
