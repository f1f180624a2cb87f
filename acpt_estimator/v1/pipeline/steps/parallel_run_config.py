"""v1 ``azureml.pipeline.steps.parallel_run_config``: ParallelRunConfig, with v1's validation rules."""

from __future__ import annotations

import json
import logging
import os
import re

logger = logging.getLogger(__name__)

_FILE_NAME = re.compile(r'[~"#%&*:<>?\/\\{|}]+')  # v1's refusal for append_row_file_name
_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _is_parameter(value) -> bool:
    from acpt_estimator.v1.pipeline.core.graph import PipelineParameter

    return isinstance(value, PipelineParameter)


def _default(value):
    return value.default_value if _is_parameter(value) else value


def _check_count(param: str, value, minimum: int, allow_parameter: bool = True):
    if allow_parameter and _is_parameter(value):
        value = value.default_value
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"Parameter {param} must be an integer greater than {minimum - 1}; got {value!r}. "
                         f"Pass e.g. {param}={max(minimum, 1)}" + (" or a PipelineParameter." if allow_parameter
                                                                    else "."))


class ParallelRunConfig:
    """How a ParallelRunStep splits its input and runs ``entry_script``'s init()/run() (v1's parameters)."""

    def __init__(self, environment, entry_script, error_threshold, output_action, compute_target, node_count,
                 process_count_per_node=None, mini_batch_size=None, source_directory=None, description=None,
                 logging_level="INFO", run_invocation_timeout=60, run_max_try=3, append_row_file_name=None,
                 allowed_failed_count=None, allowed_failed_percent=None, partition_keys=None,
                 environment_variables=None):
        from acpt_estimator.job_runtime.acpt_parallel.sizes import parse_mini_batch_size
        from acpt_estimator.v1.core.environment import Environment

        self.mini_batch_size = mini_batch_size
        self.error_threshold = error_threshold
        self.allowed_failed_count = allowed_failed_count
        self.allowed_failed_percent = allowed_failed_percent
        self.output_action = output_action
        self.logging_level = "INFO" if logging_level is None else logging_level
        self.compute_target = compute_target
        self.node_count = node_count
        self.process_count_per_node = process_count_per_node
        self.entry_script = entry_script.strip() if isinstance(entry_script, str) else entry_script
        self.source_directory = source_directory.strip() if isinstance(source_directory, str) else source_directory
        self.description = description
        self.environment = environment
        self.run_invocation_timeout = 60 if run_invocation_timeout is None else run_invocation_timeout
        self.run_max_try = 3 if run_max_try is None else run_max_try
        self.append_row_file_name = append_row_file_name
        self.partition_keys = partition_keys
        self._environment_variables = dict(environment_variables or {})

        if environment is None:
            raise ValueError("Parameter environment is required. It should be instance of azureml.core.Environment, "
                             "e.g. Environment.from_conda_specification('batch', 'env.yml').")
        if not isinstance(environment, Environment):
            raise ValueError(f"Parameter environment must be an instance of azureml.core.Environment. The actual "
                             f"value is {environment!r}.")
        if not isinstance(self.entry_script, str) or not self.entry_script:
            raise ValueError(f"Parameter entry_script={entry_script!r}: pass the script's path relative to "
                             "source_directory, e.g. entry_script='score.py'.")
        if not isinstance(output_action, str) or output_action.lower() not in ("summary_only", "append_row"):
            raise ValueError(f"Parameter output_action must be summary_only or append_row; got {output_action!r}.")
        if isinstance(error_threshold, bool) or not isinstance(error_threshold, int) or error_threshold < -1:
            raise ValueError(f"error_threshold '{error_threshold}' is not an int value greater than or equal to -1 "
                             "(-1 ignores every failure).")
        if allowed_failed_count is not None and (isinstance(allowed_failed_count, bool) or not isinstance(
                allowed_failed_count, int) or allowed_failed_count < -1):
            raise ValueError(f"allowed_failed_count '{allowed_failed_count}' is not an int value greater than or "
                             "equal to -1 (-1 ignores every failed mini-batch).")
        if allowed_failed_percent is not None:
            if isinstance(allowed_failed_percent, bool) or not isinstance(allowed_failed_percent, (int, float)):
                raise ValueError(f"allowed_failed_percent '{allowed_failed_percent}' is not an int or float.")
            if not 0 <= allowed_failed_percent <= 100:
                raise ValueError(f"allowed_failed_percent '{allowed_failed_percent}' is not between 0 and 100.")
        if mini_batch_size is not None and partition_keys is not None:
            raise ValueError("Parameters mini_batch_size and partition_keys are mutually exclusive, because they "
                             "specify different ways to partition the input datasets into mini-batches. Pass one.")
        if mini_batch_size is not None and not _is_parameter(mini_batch_size):
            if isinstance(mini_batch_size, bool) or not isinstance(mini_batch_size, (int, str)):
                raise ValueError(f"Parameter mini_batch_size must be of type int or str; got {mini_batch_size!r}.")
            self.mini_batch_size = parse_mini_batch_size(mini_batch_size)  # v1 kept the number of files/bytes
        self._check_partition_keys()
        if process_count_per_node is not None:
            _check_count("process_count_per_node", process_count_per_node, 1)
        _check_count("node_count", node_count, 1)
        self._check_node_count()
        _check_count("run_invocation_timeout", self.run_invocation_timeout, 1)
        _check_count("run_max_try", self.run_max_try, 1)
        level = _default(self.logging_level)
        if not isinstance(level, str) or level.upper() not in _LEVELS:
            raise ValueError(f"Parameter logging_level={level!r}: use one of {list(_LEVELS)} (a logging level name).")
        if self.output_action.lower() == "append_row" and append_row_file_name is not None:
            if not isinstance(append_row_file_name, str) or not append_row_file_name.strip(". ") or \
                    _FILE_NAME.search(append_row_file_name):
                raise ValueError(f"Parameter append_row_file_name must be a valid UNIX file name; got "
                                 f"{append_row_file_name!r}. Pass e.g. 'predictions.txt'.")
        elif append_row_file_name is not None:
            logger.warning("ParallelRunConfig: append_row_file_name=%r is ignored with output_action=%r (as in v1): "
                           "summary_only writes no file.", append_row_file_name, output_action)
        for key, value in self._environment_variables.items():
            if not isinstance(key, str) or not isinstance(value, str):
                raise ValueError(f"environment_variables[{key!r}]={value!r}: names and values must be str.")

    def _check_partition_keys(self):
        keys = self.partition_keys
        if keys is None:
            return
        if _is_parameter(keys):
            try:
                keys = json.loads(keys.default_value)
            except (TypeError, ValueError):
                raise ValueError("default_value of PipelineParameter partition_keys must be json dump result of a "
                                 "list of str, try json.loads the value to validate.") from None
            if not isinstance(keys, list):
                raise ValueError("default_value of PipelineParameter partition_keys must be json dump result of a "
                                 "list of str.")
        elif not isinstance(keys, list):
            raise ValueError(f"Parameter partition_keys must be of type list; got {keys!r}, e.g. ['Store', 'Brand'].")
        for key in keys:
            if not isinstance(key, str):
                raise ValueError(f"Element {key!r} in partition_keys is not a str.")

    def _check_node_count(self):
        settings = getattr(self.compute_target, "scale_settings", None)
        maximum = getattr(settings, "maximum_node_count", None)
        if isinstance(maximum, int) and not _is_parameter(self.node_count) and not 0 < self.node_count <= maximum:
            raise ValueError(f"node_count '{self.node_count}' is not between 1 and max_nodes {maximum} of compute "
                             f"target {getattr(self.compute_target, 'name', self.compute_target)!r}.")

    @property
    def environment_variables(self) -> dict:
        return self._environment_variables

    @environment_variables.setter
    def environment_variables(self, value):
        self._environment_variables = dict(value or {})

    # ---- YAML (v1's parallel_run_config section) -----------------------------------------------------------
    def save_to_yaml(self, path):
        """Write the configuration as v1's ``parallel_run_config:`` YAML; the environment goes to a folder beside
        it (``environment_dir_path``, which v1's load_yaml also read)."""
        import yaml

        env_dir = os.path.splitext(os.path.abspath(path))[0] + "_environment"
        self.environment.save_to_directory(env_dir, overwrite=True)
        keys = self.partition_keys
        config = {
            "mini_batch_size": _default(self.mini_batch_size),
            "partition_keys": json.loads(keys.default_value) if _is_parameter(keys) else keys,
            "error_threshold": self.error_threshold, "allowed_failed_count": self.allowed_failed_count,
            "allowed_failed_percent": self.allowed_failed_percent, "output_action": self.output_action,
            "logging_level": _default(self.logging_level),
            "compute_target_name": self.compute_target if isinstance(self.compute_target, str) or
            self.compute_target is None else self.compute_target.name,
            "node_count": _default(self.node_count), "process_count_per_node": _default(self.process_count_per_node),
            "entry_script": self.entry_script, "source_directory": self.source_directory,
            "description": self.description, "run_invocation_timeout": _default(self.run_invocation_timeout),
            "run_max_try": _default(self.run_max_try), "append_row_file_name": self.append_row_file_name,
            "environment_dir_path": env_dir, "environment_variables": self.environment_variables,
        }
        with open(path, "w", encoding="utf-8") as handle:
            yaml.safe_dump({"parallel_run_config": config}, handle, sort_keys=False)

    @staticmethod
    def load_yaml(workspace, path):
        """Read a configuration written by ``save_to_yaml`` (or v1's with ``environment_dir_path`` /
        ``environment_name``)."""
        import yaml

        from acpt_estimator.v1.core.environment import Environment

        with open(path, encoding="utf-8") as handle:
            config = (yaml.safe_load(handle) or {}).get("parallel_run_config")
        if not isinstance(config, dict):
            raise ValueError(f"{path} has no parallel_run_config section; write it with ParallelRunConfig.save_to_yaml.")
        if config.get("environment_dir_path"):
            environment = Environment.load_from_directory(config["environment_dir_path"])
        elif config.get("environment_name"):
            environment = Environment.get(workspace, name=config["environment_name"])
        else:
            raise ValueError(f"{path}: an environment must be provided (environment_dir_path or environment_name); "
                             "an inline serialized environment is v1's own format, not read here.")
        size = config.get("mini_batch_size")
        return ParallelRunConfig(
            environment=environment, entry_script=config.get("entry_script"),
            error_threshold=config.get("error_threshold"), output_action=config.get("output_action"),
            compute_target=config.get("compute_target_name"), node_count=config.get("node_count"),
            process_count_per_node=config.get("process_count_per_node"),
            mini_batch_size=None if size is None else str(size), source_directory=config.get("source_directory"),
            description=config.get("description"), logging_level=config.get("logging_level"),
            run_invocation_timeout=config.get("run_invocation_timeout"), run_max_try=config.get("run_max_try"),
            append_row_file_name=config.get("append_row_file_name"),
            allowed_failed_count=config.get("allowed_failed_count"),
            allowed_failed_percent=config.get("allowed_failed_percent"), partition_keys=config.get("partition_keys"),
            environment_variables=config.get("environment_variables"))


__all__ = ["ParallelRunConfig"]
