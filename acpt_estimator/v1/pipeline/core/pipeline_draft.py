"""v1 ``azureml.pipeline.core.pipeline_draft``: editable drafts in v1's designer service; refused."""

from acpt_estimator.v1._refusal import refused_class
from acpt_estimator.v1.pipeline.core.run import PipelineRun

PipelineDraft = refused_class(
    "PipelineDraft", "drafts were v1 designer objects stored by v1's pipeline service.",
    "keep the pipeline in code (or a v2 pipeline YAML: acpt-estimator convert writes one) and submit it; the v2 "
    "designer edits pipeline jobs in the studio", module=__name__)

__all__ = ["PipelineDraft", "PipelineRun"]
