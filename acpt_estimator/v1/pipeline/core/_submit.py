"""Submitting a PipelineSpec: parameter values checked and turned neutral, then the backend the steps select."""

from __future__ import annotations

from acpt_estimator.arguments import ArgumentBuilder
from acpt_estimator.exceptions import UserErrorException


def parameter_values(spec, pipeline_parameters) -> dict:
    """{name: value} for a run: defaults, replaced by ``pipeline_parameters``; DataPath values become inputs."""
    from acpt_estimator.v1.data.datapath import DataPath

    given = dict(pipeline_parameters or {})
    known = {p.name: p for p in spec.parameters}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise UserErrorException(f"pipeline_parameters {unknown} are not parameters of this pipeline; it has "
                                 f"{sorted(known) or 'none'} (PipelineParameter(name=..., default_value=...) used in "
                                 "a step's arguments).")
    values = spec.parameter_values()
    for name, value in given.items():
        param = known[name]
        if param.kind == "datapath":
            if not isinstance(value, DataPath):
                raise UserErrorException(f"pipeline_parameters[{name!r}]={value!r}: this parameter is a DataPath; "
                                         "pass DataPath(datastore, 'path').")
            builder = ArgumentBuilder()
            token = builder.add_data(value.create_data_reference(param.default.reference_name))
            value = builder.inputs[token.name]
        elif not isinstance(value, (str, int, float, bool)):
            raise UserErrorException(f"pipeline_parameters[{name!r}]={value!r}: pass a str, int, float or bool.")
        values[name] = value
    return values


def submit_pipeline_spec(spec, experiment, pipeline_parameters, regenerate_outputs, workspace):
    """Start the pipeline on the backend its steps' compute targets select; returns the backend's handle."""
    from acpt_estimator.pipelines.dispatch import submit_spec

    return submit_spec(spec, experiment, parameter_values(spec, pipeline_parameters), regenerate_outputs)
