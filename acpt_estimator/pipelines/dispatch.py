"""Starting a PipelineSpec with checked parameter values on the backend its steps' compute targets select."""

from __future__ import annotations

from ..target import backend_for


def pipeline_backend(spec) -> str:
    targets = [s.job.compute.target for s in spec.steps if s.job is not None]
    cloud = [t for t in targets if t != "local"]
    return backend_for(cloud[0] if cloud else "local")


def submit_spec(spec, experiment, values: dict, regenerate_outputs: bool):
    """Start ``spec`` with parameter ``values`` in ``experiment``; returns the backend's handle."""
    backend = pipeline_backend(spec)
    if backend == "local":
        from .local import submit

        return submit(spec, experiment, values, regenerate_outputs)
    if backend == "capture":
        from ..backends.capture import submit_pipeline as capture

        return capture(spec, experiment, values, regenerate_outputs)
    from ..backends.azureml.pipeline import submit_pipeline

    return submit_pipeline(spec, experiment, values, regenerate_outputs)
