"""v1 ``azureml.pipeline.steps.mpi_step``: a step that runs a script on node_count x process_count_per_node ranks."""

from __future__ import annotations

import logging

from acpt_estimator.v1.core.compute import AmlCompute  # noqa: F401  (v1's module exported them)
from acpt_estimator.v1.core.compute import KubernetesCompute  # noqa: F401
from acpt_estimator.v1.pipeline.core.builder import PipelineStep  # noqa: F401
from acpt_estimator.v1.pipeline.core.graph import PipelineParameter
from acpt_estimator.v1.train.estimator.estimator import Estimator

from .python_script_step import PythonScriptStep

logger = logging.getLogger(__name__)
_ENVIRONMENT_KEYS = ("use_gpu", "use_docker", "custom_docker_image", "image_registry_details", "user_managed",
                     "conda_packages", "pip_packages", "pip_requirements_file_path", "environment_definition")


class MpiStep(PythonScriptStep):
    """DEPRECATED in v1 (use CommandStep): an MPI job as a step; the estimator parameters choose its environment."""

    def __init__(self, name=None, source_directory=None, script_name=None, arguments=None, compute_target=None,
                 node_count=None, process_count_per_node=None, inputs=None, outputs=None, allow_reuse=True,
                 version=None, hash_paths=None, **kwargs):
        logger.warning("'MpiStep' is deprecated. Please use 'CommandStep' from 'azureml.pipeline.steps.CommandStep' "
                       "instead.")
        if None in (name, source_directory, script_name, arguments, compute_target, node_count,
                    process_count_per_node):
            raise ValueError("One of the requirement parameters (name, source_directory, script_name, arguments, "
                             "compute_target, node_count, process_count_per_node) is not set")
        unknown = sorted(set(kwargs) - set(_ENVIRONMENT_KEYS) - {"environment_variables"})
        if unknown:
            raise ValueError(f"MpiStep got unexpected parameters {unknown}; it takes the estimator parameters "
                             f"{sorted(_ENVIRONMENT_KEYS + ('environment_variables',))}.")
        counts = {}  # v1 turned PipelineParameter counts into runconfig_pipeline_params
        for key, label, value in (("NodeCount", "node_count", node_count),
                                  ("MpiProcessCountPerNode", "process_count_per_node", process_count_per_node)):
            if isinstance(value, PipelineParameter):
                default = value.default_value
                if isinstance(default, bool) or not isinstance(default, int) or default < 1:
                    raise ValueError(f"MpiStep {name!r}: {label}=PipelineParameter({value.name!r}) has default "
                                     f"{default!r}; give it a positive int default.")
                counts[key] = value
        node_count = getattr(node_count, "default_value", node_count)
        process_count_per_node = getattr(process_count_per_node, "default_value", process_count_per_node)
        env = {k: kwargs[k] for k in _ENVIRONMENT_KEYS if k in kwargs}
        if "pip_requirements_file_path" in env:
            env["pip_requirements_file"] = env.pop("pip_requirements_file_path")
        self._estimator = Estimator(source_directory, compute_target=compute_target, entry_script=script_name,
                                    node_count=node_count, distributed_backend="mpi",
                                    process_count_per_node=process_count_per_node, **env)
        super().__init__(script_name, name=name, arguments=arguments, compute_target=compute_target, inputs=inputs,
                         outputs=outputs, params=kwargs.get("environment_variables"), runconfig_pipeline_params=counts,
                         source_directory=source_directory, allow_reuse=allow_reuse, version=version,
                         hash_paths=hash_paths)

    def _base_job(self, context):
        return self._estimator.to_job_spec()
