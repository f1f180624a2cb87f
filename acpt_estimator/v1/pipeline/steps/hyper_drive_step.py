"""v1 ``azureml.pipeline.steps.hyper_drive_step``: a HyperDrive sweep as a pipeline step.

Not wired into pipelines yet: the step builds (v1's checks) and the pipeline refuses at submit, naming the v2 sweep
node; a HyperDriveConfig submitted on its own (``exp.submit(hd_config)``) runs on both backends.
"""

from acpt_estimator.v1._refusal import refused_class
from acpt_estimator.v1.data.data_reference import DataReference
from acpt_estimator.v1.pipeline.core.builder import PipelineData, PipelineStep
from acpt_estimator.v1.pipeline.core.graph import OutputPortBinding, ParamDef, TrainingOutput
from acpt_estimator.v1.pipeline.core._refused_steps import NoEquivalentStep
from acpt_estimator.v1.train.hyperdrive.run import HyperDriveRun
from acpt_estimator.v1.train.hyperdrive.runconfig import HyperDriveConfig

_WHY = "sweeps inside pipelines are not wired through acpt-estimator yet."
_V2 = ("exp.submit(hyperdrive_config) before the pipeline, or a v2 sweep node: azure.ai.ml.command(...)"
       ".sweep(...) inside an azure.ai.ml.dsl.pipeline")


class HyperDriveStep(NoEquivalentStep):
    """v1: run ``hyperdrive_config``'s trials as one step; ``metrics_output`` receives the trials' metrics."""

    _why, _replacement = _WHY, _V2

    def __init__(self, name, hyperdrive_config, estimator_entry_script_arguments=None, inputs=None, outputs=None,
                 metrics_output=None, allow_reuse=True, version=None):
        if not isinstance(hyperdrive_config, HyperDriveConfig):
            raise ValueError(f"HyperDriveStep {name!r}: hyperdrive_config={type(hyperdrive_config).__name__} is "
                             "not a HyperDriveConfig.")
        if metrics_output is not None and not isinstance(metrics_output, (PipelineData, DataReference)):
            raise ValueError("metrics_output must be a PipelineData or a DataReference.")
        self.hyperdrive_config, self.metrics_output = hyperdrive_config, metrics_output
        produced = list(outputs or []) + ([metrics_output] if isinstance(metrics_output, PipelineData) else [])
        super().__init__(name, inputs, produced, estimator_entry_script_arguments=estimator_entry_script_arguments,
                         allow_reuse=allow_reuse, version=version)


HyperDriveStepRun = refused_class("HyperDriveStepRun", _WHY, _V2, module=__name__)

__all__ = ["DataReference", "HyperDriveRun", "HyperDriveStep", "HyperDriveStepRun", "OutputPortBinding", "ParamDef",
           "PipelineData", "PipelineStep", "TrainingOutput"]
