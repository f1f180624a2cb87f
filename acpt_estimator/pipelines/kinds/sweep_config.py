"""A sweep step's SweepSettings read the way the HyperDrive engine reads a HyperDriveConfig (both backends)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import attrs

from ...spec import Literal, SearchRef

_POLICY_FIELDS = ("evaluation_interval", "delay_evaluation", "slack_factor", "slack_amount", "truncation_percentage")


def policy_properties(policy) -> dict:
    """The fields of a v1 termination policy the engine reads (those it has)."""
    return {name: getattr(policy, name) for name in _POLICY_FIELDS if hasattr(policy, name)}


class StepSweepConfig:
    """A sweep step's SweepSettings read as the engine reads a HyperDriveConfig (``hyperdrive/local.py`` and
    ``hyperdrive/sweep.py``): sampling, policy, limits, primary metric and ``trial_spec(values)`` over ``job``."""

    def __init__(self, settings, job):
        self._settings, self._job = settings, job
        space = json.loads(json.dumps(dict(settings.parameter_space)))  # tuples from a stored spec -> v1's lists
        props = dict(settings.sampling_properties)
        self._sampling = SimpleNamespace(SAMPLING_NAME=settings.sampling, parameter_space=space, properties=props,
                                         to_json=lambda: {"name": settings.sampling, "parameter_space": space,
                                                          **({"properties": props} if props else {})})
        policy = dict(settings.policy_properties)
        self._policy = SimpleNamespace(POLICY_NAME=settings.policy, **policy,
                                       to_json=lambda: {"name": settings.policy, "properties": policy})
        self._primary_metric_name = settings.primary_metric_name
        self._max_total_runs, self._max_concurrent_runs = settings.max_total_runs, settings.max_concurrent_runs
        self._max_duration_minutes = settings.max_duration_minutes

    @property
    def primary_metric_config(self) -> dict:
        return {"name": self._settings.primary_metric_name, "goal": self._settings.primary_metric_goal}

    def trial_spec(self, experiment_name=None, tags=None, values: dict | None = None):
        """The trial job; with ``values`` (v1 parameter name -> sampled value) each SearchRef becomes its value."""
        from ...hyperdrive.sweep import input_name_for

        job = attrs.evolve(self._job, experiment_name=experiment_name or self._job.experiment_name,
                           tags={**dict(self._job.tags), **dict(tags or {})})
        if values is None:
            return job
        by_input = {input_name_for(name): value for name, value in values.items()}
        tokens = tuple(Literal(str(by_input[t.name]), expand=False) if isinstance(t, SearchRef) else t
                       for t in job.arguments)
        return attrs.evolve(job, arguments=tokens)
