"""v1 ``azureml.pipeline.core.module``: reusable modules of v1's pipeline service (v2: components); refused."""

from acpt_estimator.v1._refusal import refused_class
from acpt_estimator.v1.core.compute import AdlaCompute, BatchCompute
from acpt_estimator.v1.pipeline.core.builder import PipelineStep
from acpt_estimator.v1.pipeline.core.graph import InputPortDef, ModuleDef, OutputPortDef, ParamDef, PipelineParameter

_WHY = "v1 modules were versioned step definitions stored by v1's pipeline service."
_V2 = ("a v2 component: azure.ai.ml.load_component('component.yml') and ml_client.components.create_or_update "
       "(versions, labels and archive work there)")

Module = refused_class("Module", _WHY, _V2, module=__name__)
ModuleVersion = refused_class("ModuleVersion", _WHY, _V2, module=__name__)
ModuleVersionDescriptor = refused_class("ModuleVersionDescriptor", _WHY, _V2, module=__name__)

__all__ = ["AdlaCompute", "BatchCompute", "InputPortDef", "Module", "ModuleDef", "ModuleVersion",
           "ModuleVersionDescriptor", "OutputPortDef", "ParamDef", "PipelineParameter", "PipelineStep"]
