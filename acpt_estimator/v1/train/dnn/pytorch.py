"""v1 ``azureml.train.dnn.PyTorch``: the estimator for PyTorch scripts on ACPT environments."""

from __future__ import annotations

import logging

from acpt_estimator.environments import usable_versions
from acpt_estimator.exceptions import TrainingException
from acpt_estimator.v1.train.estimator.estimator import _EstimatorBase

logger = logging.getLogger(__name__)


class PyTorch(_EstimatorBase):
    """v1 ``azureml.train.dnn.PyTorch``, running on ACPT (Azure Container for PyTorch) environments."""

    FRAMEWORK_NAME = "PyTorch"
    DEFAULT_VERSION = None  # the newest ACPT environment; v1's '1.4' is mapped forward with a warning
    _SUPPORTED_BACKENDS = ["mpi", "gloo", "nccl"]
    _installs_torch = True

    def __init__(self, source_directory, *, compute_target=None, vm_size=None, vm_priority=None, entry_script=None,
                 script_params=None, node_count=1, process_count_per_node=1, distributed_backend=None,
                 distributed_training=None, use_gpu=False, use_docker=True, custom_docker_base_image=None,
                 custom_docker_image=None, image_registry_details=None, user_managed=False, conda_packages=None,
                 pip_packages=None, conda_dependencies_file_path=None, pip_requirements_file_path=None,
                 conda_dependencies_file=None, pip_requirements_file=None, environment_variables=None,
                 environment_definition=None, inputs=None, source_directory_data_store=None, shm_size=None,
                 resume_from=None, max_run_duration_seconds=None, framework_version=None,
                 _enable_optimized_mode=False, _disable_validation=True, _show_lint_warnings=False,
                 _show_package_warnings=False):
        params = dict(locals())
        for name in ("self", "source_directory", "__class__", "framework_version", "_enable_optimized_mode",
                     "_disable_validation", "_show_lint_warnings", "_show_package_warnings"):
            params.pop(name, None)
        if _enable_optimized_mode:
            raise TrainingException(
                "Optimized mode is not supported: _enable_optimized_mode=True relied on v1 prebuilt images. "
                "Drop the argument; ACPT images are already optimised.")
        logger.info("'PyTorch' estimator is deprecated in azureml v1; acpt-estimator runs it on ACPT environments.")
        self._init(source_directory, params, framework_version)

    @staticmethod
    def get_supported_versions() -> list:
        return usable_versions()

    def _framework_environment_variables(self) -> dict:
        variables = {"NCCL_TREE_THRESHOLD": "0"}
        variables.update(super()._framework_environment_variables())
        return variables
