"""v1 ``azureml.pipeline.steps.r_script_step``: R scripts (no v2 equivalent; refuses at submit)."""

from acpt_estimator.v1.core.environment import DEFAULT_CPU_IMAGE
from acpt_estimator.v1.pipeline.core._refused_steps import no_equivalent

RScriptStep = no_equivalent(
    "RScriptStep", "v1 built R images for it; v2 has no R step.",
    "a v2 command step with an R environment (an image with R) running Rscript",
    __name__, ("script_name", "name", "arguments", "compute_target", "runconfig", "runconfig_pipeline_params", "inputs", "outputs", "params", "source_directory", "use_gpu", "custom_docker_image", "cran_packages", "github_packages", "custom_url_packages", "allow_reuse", "version"))



# v1's default images for R steps (values kept; the steps refuse at submit).
R_DEFAULT_IMAGE_FOR_GPU = "mcr.microsoft.com/azureml/openmpi4.1.0-cuda11.1-cudnn8-ubuntu20.04"
R_DEFAULT_IMAGE_FOR_CPU = "mcr.microsoft.com/azureml/openmpi4.1.0-ubuntu20.04"

__all__ = ["DEFAULT_CPU_IMAGE", "RScriptStep", "R_DEFAULT_IMAGE_FOR_CPU", "R_DEFAULT_IMAGE_FOR_GPU"]
