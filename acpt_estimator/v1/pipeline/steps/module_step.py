"""v1 ``azureml.pipeline.steps.module_step``: a step running a v1 module (v2: a component node); refuses at
submit."""

from acpt_estimator.v1.pipeline.core.module_step_base import _PARAMS, ModuleStepBase
from acpt_estimator.v1.pipeline.core._refused_steps import no_equivalent

ModuleStep = no_equivalent("ModuleStep", ModuleStepBase._why, ModuleStepBase._replacement, __name__, _PARAMS)

__all__ = ["ModuleStep", "ModuleStepBase"]
