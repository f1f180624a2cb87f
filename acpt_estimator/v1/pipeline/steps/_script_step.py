"""What PythonScriptStep, EstimatorStep, MpiStep and CommandStep share: a JobSpec with the step's data wired in."""

from __future__ import annotations

import logging

import attrs

from acpt_estimator.pipelines.spec import StepSpec
from acpt_estimator.spec import ComputeSpec
from acpt_estimator.v1._refusal import refuse
from acpt_estimator.v1.pipeline.core._step_io import step_io
from acpt_estimator.v1.pipeline.core.builder import PipelineStep

logger = logging.getLogger(__name__)


def target_name(compute_target):
    """A compute target (name or object) as the name a JobSpec carries."""
    if compute_target is None or isinstance(compute_target, str):
        return compute_target
    return getattr(compute_target, "name", None) or str(compute_target)


class ScriptStepBase(PipelineStep):
    """A step that runs one job. Subclasses implement ``_base_job(context)``: the JobSpec before data wiring."""

    def __init__(self, name, inputs, outputs, arguments, compute_target, allow_reuse, version=None, hash_paths=None,
                 params=None, runconfig_pipeline_params=None, resource_inputs=None):
        if not isinstance(allow_reuse, bool):
            raise ValueError(f"allow_reuse={allow_reuse!r}: pass True (reuse unchanged results, v1's default) or "
                             "False.")
        self._counts = _runconfig_counts(type(self).__name__, runconfig_pipeline_params, params)
        if hash_paths:
            logger.warning("%s %r: hash_paths is deprecated in v1 and not needed: reuse compares the whole snapshot "
                           "of the source directory (as v1 did since 1.x).", type(self).__name__, name)
        self._compute_target, self._allow_reuse, self._version = compute_target, allow_reuse, version
        self._hash_paths, self._params = list(hash_paths or []), dict(params or {})
        self._check_params()
        super().__init__(name, inputs, outputs, arguments, resource_inputs=resource_inputs)

    def _check_params(self):
        from acpt_estimator.v1.pipeline.core.graph import PipelineParameter

        for key, value in self._params.items():
            if isinstance(value, PipelineParameter):
                if not isinstance(value.default_value, (str, int, float, bool)):
                    raise ValueError(f"params[{key!r}]=PipelineParameter({value.name!r}) has default "
                                     f"{value.default_value!r}; an environment variable takes a str, int, float or "
                                     "bool parameter (pass data in inputs=[...]).")
                continue
            if not isinstance(value, (str, int, float, bool)):
                raise ValueError(f"params[{key!r}]={value!r}: use str, int, float or bool values.")

    def _base_job(self, context):
        raise NotImplementedError

    def _script_arguments(self):
        """(arguments, script_params) to wire: PythonScriptStep's arguments list by default."""
        return self._arguments, None

    def _to_step_spec(self, context) -> StepSpec:
        job = self._base_job(context)
        arguments, script_params = self._script_arguments()
        io = step_io(context, arguments, self._inputs, self._outputs, script_params=script_params)
        from acpt_estimator.v1.pipeline.core.graph import PipelineParameter

        variables = dict(job.environment_variables)
        parameters = {p.name: p for p in io.parameters}
        by_variable, by_count = {}, {}
        for key, value in self._params.items():  # v1 set AML_PARAMETER_<key> to the value (a parameter's at submit)
            if isinstance(value, PipelineParameter):
                by_variable[f"AML_PARAMETER_{key}"] = _parameter(parameters, value).name
                value = value.default_value
            variables[f"AML_PARAMETER_{key}"] = str(value)
        for field, param in self._counts.items():
            by_count[field] = _parameter(parameters, param).name
        target = target_name(self._compute_target) or job.compute.target or context.default_compute
        job = attrs.evolve(job, arguments=io.tokens, inputs=tuple(io.inputs) + _extra(job.inputs, io.inputs),
                           outputs=tuple(io.outputs) + _extra(job.outputs, io.outputs),
                           environment_variables=variables, display_name=self.name,
                           compute=ComputeSpec(target=target, vm_size=job.compute.vm_size,
                                               vm_priority=job.compute.vm_priority))
        return StepSpec(name=context.node_name, kind="command", job=job, display_name=self.name, links=io.links,
                        produces=io.produces, allow_reuse=self._allow_reuse, hash_paths=tuple(self._hash_paths),
                        parameters=tuple(parameters.values()), variable_parameters=by_variable,
                        distribution_parameters=by_count)


# v1's parameterizable runconfig properties (runconfig_pipeline_params keys) -> the Distribution field each sets
_COUNTS = {"NodeCount": "node_count", "MpiProcessCountPerNode": "process_count_per_node"}
_TENSORFLOW = ("TensorflowWorkerCount", "TensorflowParameterServerCount")


def _runconfig_counts(step_type: str, runconfig_pipeline_params, params) -> dict:
    """v1's checks of ``runconfig_pipeline_params``; {Distribution field: PipelineParameter}."""
    from acpt_estimator.v1.pipeline.core.graph import PipelineParameter

    if not runconfig_pipeline_params:
        return {}
    if not isinstance(runconfig_pipeline_params, dict):
        raise ValueError(f"runconfig_pipeline_params={runconfig_pipeline_params!r}: pass a dict of runconfig "
                         f"property name -> PipelineParameter, e.g. {{'NodeCount': PipelineParameter('nodes', 2)}}.")
    counts = {}
    for name, value in runconfig_pipeline_params.items():
        if name in (params or {}):
            raise ValueError(f"Duplicate parameter {name} in params and runconfig_pipeline_params parameters")
        if not isinstance(value, PipelineParameter):
            raise ValueError(f"Invalid type ({type(value).__name__}) for parameter {name}. Expected type is "
                             "PipelineParameter")
        if name in _TENSORFLOW:
            refuse(f"{step_type}(runconfig_pipeline_params={{{name!r}: ...}})", "TensorFlow parameter-server "
                   "jobs are not run by acpt-estimator.", "a PyTorch or MPI distribution with 'NodeCount' and "
                   "'MpiProcessCountPerNode'")
        if name not in _COUNTS:
            raise ValueError(f"Runconfig property name {name} is not valid; the parameterizable properties are "
                             f"{sorted(_COUNTS) + list(_TENSORFLOW)}.")
        counts[_COUNTS[name]] = value
    return counts


def _parameter(known: dict, param):
    """Add ``param`` (a literal PipelineParameter) to the step's parameters ``known``; v1's same-name rule."""
    from acpt_estimator.pipelines.spec import PipelineParameterSpec

    old = known.get(param.name)
    if old is not None and old.default != param.default_value:
        raise ValueError(f"Pipeline parameters with same name {param.name} but different values {old.default!r}, "
                         f"{param.default_value!r} used; give them distinct names or the same default.")
    known[param.name] = PipelineParameterSpec(param.name, param.default_value)
    return known[param.name]


def _extra(existing, wired):
    names = {item.name for item in wired}
    return tuple(item for item in existing if item.name not in names)
