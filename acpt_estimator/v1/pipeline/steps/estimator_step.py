"""v1 ``azureml.pipeline.steps.estimator_step``: a step that runs an Estimator (PyTorch, Estimator)."""

from __future__ import annotations

import logging

from acpt_estimator.v1.train.estimator.estimator import _EstimatorBase

from .python_script_step import PythonScriptStep

logger = logging.getLogger(__name__)


def check_estimator(estimator, arguments, step: str = "EstimatorStep"):
    """v1's EstimatorStep rules: arguments go to the step, data to the step's inputs, not to the estimator."""
    if not isinstance(estimator, _EstimatorBase):
        raise ValueError(f"{step}: estimator={type(estimator).__name__} is not an Estimator; pass an "
                         "azureml.train.estimator.Estimator or azureml.train.dnn.PyTorch.")
    params = estimator._params
    if params.get("script_params"):
        raise ValueError("script_params in Estimator should not be provided to EstimatorStep. Please use "
                         "estimator_entry_script_arguments instead.")
    if arguments is None:
        raise ValueError("estimator_entry_script_arguments is a required parameter. If the Estimator's entry script "
                         "does not accept commandline arguments, set the parameter value to empty list")
    if params.get("inputs"):
        raise ValueError("Unable to create EstimatorStep as inputs are specified in the Estimator. Please specify "
                         "inputs in the EstimatorStep instead.")


class EstimatorStep(PythonScriptStep):
    """DEPRECATED in v1 (use CommandStep): run an estimator's job as a pipeline step."""

    def __init__(self, name=None, estimator=None, estimator_entry_script_arguments=None,
                 runconfig_pipeline_params=None, inputs=None, outputs=None, compute_target=None, allow_reuse=True,
                 version=None):
        logger.warning("'EstimatorStep' is deprecated. Please use 'CommandStep' from "
                       "'azureml.pipeline.steps.CommandStep' instead.")
        if estimator is None:
            raise ValueError("Estimator, compute_target parameters are required")
        check_estimator(estimator, estimator_entry_script_arguments)
        self._estimator = estimator
        super().__init__(estimator._params["entry_script"], name=name,
                         arguments=list(estimator_entry_script_arguments), compute_target=compute_target,
                         runconfig_pipeline_params=runconfig_pipeline_params, inputs=inputs, outputs=outputs,
                         source_directory=estimator.source_directory, allow_reuse=allow_reuse, version=version)

    def _base_job(self, context):
        from ._script_step import target_name

        job = self._estimator.to_job_spec()
        if self._compute_target is None:
            return job
        import attrs

        return attrs.evolve(job, compute=attrs.evolve(job.compute, target=target_name(self._compute_target)))
