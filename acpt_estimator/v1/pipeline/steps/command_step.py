"""v1 ``azureml.pipeline.steps.command_step``: a step that runs a command line (or a ScriptRunConfig)."""

from __future__ import annotations

import copy
import os

from acpt_estimator.v1.core.runconfig import RunConfiguration
from acpt_estimator.v1.core.script_run_config import ScriptRunConfig
from acpt_estimator.v1.pipeline.core._step_io import argument_strings

from ._script_step import ScriptStepBase, target_name


class CommandStep(ScriptStepBase):
    """Run ``command`` (a string, a list, or a ScriptRunConfig) in ``source_directory``.

    Data objects inside a command list become ``$AZUREML_DATAREFERENCE_<name>``, which the job sets to the path.
    """

    def __init__(self, command=None, name=None, compute_target=None, runconfig=None, runconfig_pipeline_params=None,
                 inputs=None, outputs=None, params=None, source_directory=None, allow_reuse=True, version=None):
        if command is None:
            raise ValueError("CommandStep needs command= (a command line, a list, or a ScriptRunConfig).")
        self._config = command if isinstance(command, ScriptRunConfig) else None
        if self._config is not None:
            source_directory = source_directory or self._config.source_directory
            runconfig = runconfig or self._config.run_config
            parts = self._config.command or ([ "python", self._config.script] + list(self._config.arguments or []))
        else:
            parts = list(command) if isinstance(command, (list, tuple)) else [command]
        if runconfig is not None and not isinstance(runconfig, RunConfiguration):
            raise ValueError(f"runconfig={type(runconfig).__name__} is not a RunConfiguration.")
        if source_directory is not None and not os.path.isdir(source_directory):
            raise ValueError(f"source_directory={source_directory!r} is not a folder.")
        self._parts, self._source_directory, self._runconfig = parts, source_directory, runconfig
        data = [p for p in parts if not isinstance(p, (str, int, float, bool))]
        inputs, outputs = list(inputs or []), list(outputs or [])
        super().__init__(name or "command_step", inputs, outputs, data, compute_target, allow_reuse, version,
                         None, params, runconfig_pipeline_params)

    def _script_arguments(self):
        return [], None  # the data in the command reach the job as inputs/outputs (environment variables)

    def _base_job(self, context):
        folder = self._source_directory or context.default_source_directory or "."
        rc = copy.deepcopy(self._runconfig) if self._runconfig is not None else RunConfiguration()
        rc_target = None if self._runconfig is None or rc.target == "local" else target_name(rc.target)
        rc.target = target_name(self._compute_target) or rc_target or context.default_compute
        command = " ".join(argument_strings(self._parts)) if isinstance(self._parts, list) else str(self._parts)
        return ScriptRunConfig(folder, command=command, run_config=rc).to_job_spec()
