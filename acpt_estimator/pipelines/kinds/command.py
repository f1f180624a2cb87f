"""Step kind "command": the step's JobSpec runs as one job (locally through the local backend, in v2 as a command
node)."""

from __future__ import annotations

import logging

import attrs

from ...spec import InputRef, SearchRef
from ..spec import ParamRef

logger = logging.getLogger(__name__)


def to_local_job(step, context):
    """The step's JobSpec, parameters and linked inputs resolved; ``context`` is the LocalPipelineRun."""
    from ..local import resolve_job

    return resolve_job(step, context.values, context.inputs_for(step))


def v2_job_spec(step, values=None):
    """The step's JobSpec as a v2 node sees it: parameters as literal inputs (``'${{inputs.<name>}}'``), in the
    arguments and in ``AML_PARAMETER_<name>`` variables (exported by the command); process counts taken from
    parameters fixed to ``values`` (v2 reads a node's layout when the job is created). Returns (job, literal input
    defaults); the pipeline translation has already bound linked inputs."""
    job = step.job
    literals = {}
    if step.distribution_parameters:
        from ..local import process_count

        given = {**{p.name: p.default for p in step.parameters}, **dict(values or {})}
        counts = {field: process_count(step, field, name, given[name])
                  for field, name in step.distribution_parameters.items()}
        logger.warning("Step %r: %s from pipeline parameters are written into the v2 node when the pipeline job is "
                       "created (v2 cannot set a node's process layout from a pipeline input); a later change of "
                       "the pipeline input does not change them.", step.display_name,
                       ", ".join(f"{f}={counts[f]} ({n!r})" for f, n in step.distribution_parameters.items()))
        job = attrs.evolve(job, distribution=attrs.evolve(job.distribution, **counts))
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
    job = attrs.evolve(job, arguments=tuple(tokens))
    if step.variable_parameters:
        from ...backends.azureml.command_line import render_argv

        defaults = {p.name: p.default for p in step.parameters}
        exports = [f"export {var}='${{{{inputs.{name}}}}}'" for var, name in step.variable_parameters.items()]
        literals.update({name: defaults[name] for name in step.variable_parameters.values()})
        job = attrs.evolve(job, command="\n".join(exports + [render_argv(job)]), environment_variables={
            k: v for k, v in job.environment_variables.items() if k not in step.variable_parameters})
    return job, literals


def to_v2_node(step, context):
    """A v2 command node for the step; ``context`` is a ``V2StepContext`` (the pipeline job being built)."""
    from ...backends.azureml.translate import to_command

    job, literals = v2_job_spec(step, context.values)
    # v1 allow_reuse -> v2 is_deterministic: the service reuses an unchanged node's earlier result.
    node = to_command(job, context_root=context.context_root, validate=False, literal_inputs=literals,
                      is_deterministic=step.allow_reuse)
    node.name = step.name
    node.display_name = step.display_name
    return node
