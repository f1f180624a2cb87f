"""v1 ``azureml.pipeline.core.module_step_base``: a step running a v1 module (v2: a component node); refuses at
submit."""

from acpt_estimator.v1.data.data_reference import DataReference
from acpt_estimator.v1.pipeline.core.builder import PipelineData, PipelineStep
from acpt_estimator.v1.pipeline.core.graph import InputPortBinding, Module as GraphModule, PipelineDataset
from acpt_estimator.v1.pipeline.core.port_data_reference import PortDataReference
from acpt_estimator.v1.pipeline.core._refused_steps import no_equivalent

_PARAMS = ("module", "version", "module_version", "inputs_map", "outputs_map", "compute_target", "runconfig",
           "runconfig_pipeline_params", "arguments", "params", "name")
ModuleStepBase = no_equivalent(
    "ModuleStepBase", "v1 modules were stored by v1's pipeline service.",
    "a v2 component node: ml_client.components.get(name, version) called inside an azure.ai.ml.dsl.pipeline",
    __name__, _PARAMS)

__all__ = ["DataReference", "GraphModule", "InputPortBinding", "ModuleStepBase", "PipelineData", "PipelineDataset",
           "PipelineStep", "PortDataReference"]
