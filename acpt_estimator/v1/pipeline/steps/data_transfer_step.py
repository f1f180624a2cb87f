"""v1 ``azureml.pipeline.steps.data_transfer_step``: copy data between storage locations as a pipeline step.

v1 ran it on an Azure Data Factory compute; here it is a small copy job (locally, and as a v2 command node), so it
needs no Data Factory: the source is mounted, the destination written (a PipelineData, or a datastore path
uploaded at the end).
"""

from __future__ import annotations

import logging

from acpt_estimator.pipelines.data_transfer import CODE_DIR, SCRIPT
from acpt_estimator.v1.core.script_run_config import ScriptRunConfig
from acpt_estimator.v1.data.data_reference import DataReference
from acpt_estimator.v1.pipeline.core.builder import PipelineData

from ._script_step import ScriptStepBase

logger = logging.getLogger(__name__)
_TYPES = (None, "file", "directory")


class DataTransferStep(ScriptStepBase):
    """Copy ``source_data_reference`` to ``destination_data_reference``."""

    def __init__(self, name, source_data_reference=None, destination_data_reference=None, compute_target=None,
                 source_reference_type=None, destination_reference_type=None, allow_reuse=True):
        if source_data_reference is None or destination_data_reference is None:
            raise ValueError(f"DataTransferStep {name!r}: source_data_reference and destination_data_reference are "
                             "required.")
        for label, kind in (("source_reference_type", source_reference_type),
                            ("destination_reference_type", destination_reference_type)):
            if kind not in _TYPES:
                raise ValueError(f"DataTransferStep {name!r}: {label}={kind!r}; use 'file' or 'directory'.")
        if compute_target is not None:
            logger.warning("DataTransferStep %r: compute_target=%r (a Data Factory compute in v1) is not used; the "
                           "copy runs as a small job on the pipeline's compute.", name, getattr(
                               compute_target, "name", compute_target))
        destination = destination_data_reference
        if isinstance(destination, DataReference):
            destination = destination.as_upload(overwrite=True)  # written here, uploaded to the path at the end
        elif not isinstance(destination, PipelineData):
            raise ValueError(f"DataTransferStep {name!r}: destination_data_reference must be a DataReference or a "
                             f"PipelineData, not {type(destination).__name__}.")
        self._destination = destination
        outputs = [destination] if isinstance(destination, PipelineData) else []
        inputs = [source_data_reference]
        super().__init__(name, inputs, outputs, ["--source", source_data_reference, "--destination", destination],
                         None, allow_reuse)

    def _base_job(self, context):
        import attrs

        from acpt_estimator.spec import ComputeSpec

        job = ScriptRunConfig(CODE_DIR, script=SCRIPT).to_job_spec()
        return attrs.evolve(job, compute=ComputeSpec(target=context.default_compute))  # the pipeline's compute

    def get_output(self):
        """The destination as data a later step can take as input."""
        if isinstance(self._destination, PipelineData):
            return self._destination
        return self._destination.as_mount()
