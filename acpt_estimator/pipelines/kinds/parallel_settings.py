"""A parallel step's ParallelSettings as the driver's option values (shared by the local and the v2 form)."""

from __future__ import annotations


def settings_values(step, values: dict | None = None) -> dict:
    """The step's ParallelSettings as driver option values, pipeline parameters (``values``) applied."""
    settings, job = step.parallel, step.job
    values = {**{p.name: p.default for p in step.parameters}, **dict(values or {})}
    found = {"mini_batch_size": settings.mini_batch_size, "partition_keys": list(settings.partition_keys),
             "node_count": job.distribution.node_count,
             "process_count_per_node": job.distribution.process_count_per_node,
             "run_invocation_timeout": settings.run_invocation_timeout, "run_max_try": settings.run_max_try,
             "logging_level": settings.logging_level}
    for key, name in settings.options.items():
        if key.startswith("parameter:") and name in values:
            found[key.split(":", 1)[1]] = values[name]
    if isinstance(found["partition_keys"], str):  # a PipelineParameter holds the keys as a JSON list
        import json

        found["partition_keys"] = json.loads(found["partition_keys"])
    return found
