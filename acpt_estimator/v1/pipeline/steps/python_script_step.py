"""v1 ``azureml.pipeline.steps.python_script_step``: a step that runs one Python script."""

from __future__ import annotations

import copy
import os

from acpt_estimator.v1.core.runconfig import RunConfiguration
from acpt_estimator.v1.core.script_run_config import ScriptRunConfig

from ._script_step import ScriptStepBase, target_name


class PythonScriptStep(ScriptStepBase):
    """Run ``script_name`` from ``source_directory`` with ``arguments``, in ``runconfig``'s environment."""

    def __init__(self, script_name, name=None, arguments=None, compute_target=None, runconfig=None,
                 runconfig_pipeline_params=None, inputs=None, outputs=None, params=None, source_directory=None,
                 allow_reuse=True, version=None, hash_paths=None):
        if not script_name or not isinstance(script_name, str):
            raise ValueError(f"script_name={script_name!r}: pass the script to run, relative to source_directory.")
        if runconfig is not None and not isinstance(runconfig, RunConfiguration):
            raise ValueError(f"runconfig={type(runconfig).__name__} is not a RunConfiguration; build one with "
                             "azureml.core.runconfig.RunConfiguration().")
        if source_directory is not None and not os.path.isdir(source_directory):
            raise ValueError(f"source_directory={source_directory!r} is not a folder; pass the folder holding "
                             f"{script_name}.")
        self._script_name, self._source_directory, self._runconfig = script_name, source_directory, runconfig
        super().__init__(name or script_name, inputs, outputs, arguments, compute_target, allow_reuse, version,
                         hash_paths, params, runconfig_pipeline_params)

    def _base_job(self, context):
        folder = self.get_source_directory(context, self._source_directory, self._script_name)
        rc = copy.deepcopy(self._runconfig) if self._runconfig is not None else RunConfiguration()
        # v1 ran a step on compute_target, else on its runconfig's target; a fresh RunConfiguration says 'local',
        # which in a cloud pipeline means the pipeline's default compute (None: v2 serverless).
        rc_target = None if self._runconfig is None or rc.target == "local" else target_name(rc.target)
        rc.target = target_name(self._compute_target) or rc_target or context.default_compute
        return ScriptRunConfig(folder, script=self._script_name, run_config=rc).to_job_spec()
