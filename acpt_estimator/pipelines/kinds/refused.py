"""Step kind "refused": a v1 step with no v2 equivalent; it constructs, and submitting the pipeline refuses."""

from __future__ import annotations

from ...exceptions import V1NotSupportedException


def to_local_job(step, context):
    raise V1NotSupportedException(step.refusal)


def to_v2_node(step, context):
    raise V1NotSupportedException(step.refusal)
