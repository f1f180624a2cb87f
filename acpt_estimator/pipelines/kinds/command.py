"""Step kind "command": the step's JobSpec runs as one job (locally through the local backend, in v2 as a command
node)."""

from __future__ import annotations

import attrs

from ...spec import InputRef, SearchRef
from ..spec import ParamRef


def to_local_job(step, context):
    """The step's JobSpec, parameters and linked inputs resolved; ``context`` is the LocalPipelineRun."""
    from ..local import resolve_job

    return resolve_job(step, context.values, context.inputs_for(step))


def v2_job_spec(step):
    """The step's JobSpec as a v2 node sees it: parameters as literal inputs (``'${{inputs.<name>}}'``). Returns
    (job, literal input defaults); the pipeline translation has already bound linked inputs."""
    job = step.job
    literals = {}
    tokens = []
    for token in job.arguments:
        if isinstance(token, ParamRef):
            param = next(p for p in step.parameters if p.name == token.name)
            if param.kind == "datapath":
                tokens.append(InputRef(param.default.name))
            else:
                literals[token.name] = param.default
                tokens.append(SearchRef(token.name))  # rendered as a quoted literal input, like a sweep value
        else:
            tokens.append(token)
    return attrs.evolve(job, arguments=tuple(tokens)), literals


def to_v2_node(step, context):
    """A v2 command node for the step; ``context`` is a ``V2StepContext`` (the pipeline job being built)."""
    from ...backends.azureml.translate import to_command

    job, literals = v2_job_spec(step)
    # v1 allow_reuse -> v2 is_deterministic: the service reuses an unchanged node's earlier result.
    node = to_command(job, context_root=context.context_root, validate=False, literal_inputs=literals,
                      is_deterministic=step.allow_reuse)
    node.name = step.name
    node.display_name = step.display_name
    return node
