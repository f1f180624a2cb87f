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
        if runconfig_pipeline_params:
            refuse(f"{type(self).__name__}(runconfig_pipeline_params=...)",
                   "run configuration fields set per submit were a v1 pipeline-service feature.",
                   "set the value on the runconfig, or pass it as a PipelineParameter in arguments")
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
                refuse(f"{type(self).__name__}(params={{{key!r}: PipelineParameter(...)}})",
                       "environment variables taken from pipeline parameters are not wired through yet.",
                       "pass the PipelineParameter in arguments=[...] and read it with argparse")
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
        variables = dict(job.environment_variables)
        variables.update({f"AML_PARAMETER_{k}": str(v) for k, v in self._params.items()})
        target = target_name(self._compute_target) or job.compute.target or context.default_compute
        job = attrs.evolve(job, arguments=io.tokens, inputs=tuple(io.inputs) + _extra(job.inputs, io.inputs),
                           outputs=tuple(io.outputs) + _extra(job.outputs, io.outputs),
                           environment_variables=variables, display_name=self.name,
                           compute=ComputeSpec(target=target, vm_size=job.compute.vm_size,
                                               vm_priority=job.compute.vm_priority))
        return StepSpec(name=context.node_name, kind="command", job=job, display_name=self.name, links=io.links,
                        produces=io.produces, allow_reuse=self._allow_reuse, hash_paths=tuple(self._hash_paths),
                        parameters=io.parameters)


def _extra(existing, wired):
    names = {item.name for item in wired}
    return tuple(item for item in existing if item.name not in names)
