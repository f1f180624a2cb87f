"""v1 ``HyperDriveConfig``: a trial job (estimator or ScriptRunConfig) plus sampling, goal, limits and policy."""

from __future__ import annotations

import logging
import re
import warnings

import attrs

from acpt_estimator.exceptions import HyperDriveConfigException
from acpt_estimator.hyperdrive.sweep import input_name_for  # noqa: F401 - v1 users import it from here
from acpt_estimator.spec import Literal, SearchRef
from acpt_estimator.v1.train.hyperdrive.policy import EarlyTerminationPolicy, NoTerminationPolicy, PrimaryMetricGoal
from acpt_estimator.v1.train.hyperdrive.sampling import BayesianParameterSampling, HyperParameterSampling
from acpt_estimator._lazy import lazy_names

logger = logging.getLogger(__name__)
# v1's module constants (values kept): limits and recommendations of HyperDrive runs.
TERMINAL_STATES = ["Canceled", "Completed", "Failed"]
HYPERDRIVE_URL_SUFFIX = "/hyperdrive/v1.0"
MAX_DURATION_MINUTES = 10080  # v1 canceled a HyperDrive run after this long (the default max_duration_minutes)
RECOMMENDED_MIN_RUNS_PER_PARAMETER_BAYESIAN = RECOMMENDED_MAX_CONCURRENT_RUNS_BAYESIAN = 20
MAX_PARENT_RUNS, RESUME_FROM_TOTAL_RUNS = 5, 1000
scrubbed_data = "[Scrubbed]"  # v1's placeholder for values kept out of logs


class _GoalError(HyperDriveConfigException, AttributeError):
    """v1 failed with AttributeError on a str goal; keep that class for old except clauses, with a real message."""


def flag_for(name: str) -> str:
    """v1's service passes '--<name>' for plain keys and the key itself when it already starts with a dash."""
    return name if name.startswith("-") else f"--{name}"


class HyperDriveConfig:
    """Exactly one of ``estimator`` or ``run_config`` (a ScriptRunConfig); pipelines are not supported."""

    def __init__(self, hyperparameter_sampling, primary_metric_name, primary_metric_goal, max_total_runs,
                 max_concurrent_runs=None, max_duration_minutes=10080, policy=None, estimator=None, run_config=None,
                 resume_from=None, resume_child_runs=None, pipeline=None, debug_flag=None, custom_run_id=None):
        from acpt_estimator.v1 import _params

        _params.check("HyperDriveConfig", resume_from=resume_from, resume_child_runs=resume_child_runs,
                      custom_run_id=custom_run_id, debug_flag=debug_flag)
        given = [n for n, v in (("estimator", estimator), ("run_config", run_config), ("pipeline", pipeline))
                 if v is not None]
        if not given:
            raise HyperDriveConfigException("HyperDriveConfig expects at least one of estimator, run_config, pipeline "
                                            "to be set. Pass estimator=PyTorch(...) or run_config=ScriptRunConfig(...).")
        if len(given) > 1:
            raise HyperDriveConfigException(f"HyperDriveConfig expects only one of estimator, run_config, pipeline to "
                                            f"be set. Got {given}; keep one.")
        if pipeline is not None:
            raise HyperDriveConfigException("HyperDriveConfig(pipeline=...) is not supported by acpt-estimator; "
                                            "tune a PyTorch estimator or a ScriptRunConfig instead.")
        if not isinstance(hyperparameter_sampling, HyperParameterSampling):
            raise HyperDriveConfigException(
                "HyperDriveConfig expects hyperparameter_sampling to be RandomParameterSampling, GridParameterSampling "
                f"or BayesianParameterSampling. Got {type(hyperparameter_sampling).__name__}.")
        if not isinstance(primary_metric_goal, PrimaryMetricGoal):
            raise _GoalError(f"HyperDriveConfig expects primary_metric_goal to be PrimaryMetricGoal.MAXIMIZE or "
                             f"PrimaryMetricGoal.MINIMIZE. Got {primary_metric_goal!r}.")
        if not isinstance(primary_metric_name, str) or not primary_metric_name:
            raise HyperDriveConfigException(f"HyperDriveConfig expects primary_metric_name to be a metric name your "
                                            f"script logs. Got {primary_metric_name!r}.")
        for name, value in (("max_total_runs", max_total_runs), ("max_concurrent_runs", max_concurrent_runs),
                            ("max_duration_minutes", max_duration_minutes)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise HyperDriveConfigException(f"HyperDriveConfig expects {name} to be a positive integer. "
                                                f"Got {name}={value!r}.")
        policy = NoTerminationPolicy() if policy is None else policy
        if not isinstance(policy, EarlyTerminationPolicy):
            raise HyperDriveConfigException(f"HyperDriveConfig expects policy to be BanditPolicy, MedianStoppingPolicy, "
                                            f"TruncationSelectionPolicy or NoTerminationPolicy. Got {policy!r}.")
        if isinstance(hyperparameter_sampling, BayesianParameterSampling) and not isinstance(policy, NoTerminationPolicy):
            raise HyperDriveConfigException("BayesianParameterSampling expects no early termination policy. "
                                            f"Got policy={type(policy).__name__}; drop it or use random sampling.")
        from acpt_estimator.hyperdrive.sweep import check_search_values

        check_search_values(hyperparameter_sampling.parameter_space)
        self._sampling = hyperparameter_sampling
        self._primary_metric_name = primary_metric_name
        self._primary_metric_goal = primary_metric_goal
        self._max_total_runs = max_total_runs
        self._max_concurrent_runs = max_concurrent_runs or max_total_runs
        self._max_duration_minutes = max_duration_minutes
        self._policy = policy
        self._trial = estimator if estimator is not None else run_config
        self._run_config = run_config

    # ---- accessors used by both backends ------------------------------------------------------------
    @property
    def estimator(self):
        """The trial job (v1: the estimator; a ScriptRunConfig here too, which both backends run alike)."""
        return self._trial

    @property
    def run_config(self):
        """The ScriptRunConfig given as ``run_config=`` (None for an estimator)."""
        return self._run_config

    @property
    def pipeline(self):
        """Always None: pipelines are refused at construction."""
        return None

    @property
    def source_directory(self):
        return getattr(self._trial, "source_directory", None)

    @property
    def primary_metric_config(self) -> dict:
        return {"name": self._primary_metric_name, "goal": self._primary_metric_goal.name.lower()}

    def trial_spec(self, experiment_name=None, tags=None, values: dict | None = None):
        """The trial job: fixed params minus swept ones, then ``--<name> <value|SearchRef>`` per parameter."""
        space = self._sampling.parameter_space
        swept = {name.lstrip("-") for name in space}
        overrides = {}
        fixed = getattr(self._trial, "_params", {}).get("script_params")
        if isinstance(fixed, dict):
            kept = {k: v for k, v in fixed.items() if str(k).lstrip("-") not in swept}
            dropped = sorted(set(fixed) - set(kept))
            if dropped:
                logger.warning("script_params %s are overridden by the HyperDrive parameter space.", dropped)
            overrides["script_params"] = kept
        spec = self._trial.to_job_spec(experiment_name=experiment_name, tags=tags, **overrides)
        tokens = list(_without_swept_flags(spec.arguments, swept))
        for name in space:
            value = SearchRef(input_name_for(name)) if values is None else Literal(str(values[name]), expand=False)
            tokens += [Literal(flag_for(name)), value]
        return attrs.evolve(spec, arguments=tuple(tokens))

    def to_job_spec(self, experiment_name=None, tags=None, **kwargs):
        return self.trial_spec(experiment_name, tags)

    def _to_v2_job(self, experiment_name=None, tags=None, context_root=None):
        from acpt_estimator.hyperdrive.sweep import to_sweep_job

        return to_sweep_job(self, experiment_name=experiment_name, tags=tags, context_root=context_root)

    def _submit(self, experiment, tags=None, **kwargs):
        from acpt_estimator.target import backend_for
        from acpt_estimator.hyperdrive.submit import submit_hyperdrive

        from acpt_estimator.v1.core._run_handle import wrap

        spec = self.trial_spec(experiment.name, tags)
        return wrap(submit_hyperdrive(self, experiment, backend_for(spec.compute.target), tags=tags), experiment)


class HyperDriveRunConfig(HyperDriveConfig):
    """DEPRECATED in v1: use ``HyperDriveConfig`` (same parameters)."""

    def __init__(self, hyperparameter_sampling, primary_metric_name, primary_metric_goal, max_total_runs,
                 max_concurrent_runs=None, max_duration_minutes=10080, policy=None, estimator=None, run_config=None,
                 resume_from=None, resume_child_runs=None, pipeline=None, debug_flag=None, custom_run_id=None):
        warnings.warn("HyperDriveRunConfig is deprecated. Please use HyperDriveConfig instead.", DeprecationWarning,
                      stacklevel=2)
        super().__init__(hyperparameter_sampling, primary_metric_name, primary_metric_goal, max_total_runs,
                         max_concurrent_runs, max_duration_minutes, policy, estimator, run_config, resume_from,
                         resume_child_runs, pipeline, debug_flag, custom_run_id)


def _without_swept_flags(tokens, swept: set):
    """Drop '--name value' pairs of swept names left in ScriptRunConfig arguments (v1 estimators: done above)."""
    tokens = list(tokens)
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if isinstance(token, Literal) and token.value.startswith("-") and token.value.lstrip("-") in swept:
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            i += 2 if nxt is not None and not (isinstance(nxt, Literal) and nxt.value.startswith("--")) else 1
            continue
        yield token
        i += 1


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["InvalidConfigSetting", "InvalidType", "ResumeChildRunsContainsDuplicate",
        "ResumeChildRunsFromTooManyParentRuns", "ResumeChildRunsNotInTerminalState",
        "ResumeChildRunsWithoutParentRun", "WarmStartRunsDontMatch"],
        "acpt_estimator.v1.train.hyperdrive.error_definition"),
    **dict.fromkeys(["HyperDriveConfigException", "TrainingException"], "acpt_estimator.exceptions"),
    **dict.fromkeys(["ScriptRunConfig", "get_run_config_from_script_run"], "acpt_estimator.v1.core.script_run_config"),
    "Run": "acpt_estimator.v1.core.run",
    "NoTerminationPolicy": "acpt_estimator.v1.train.hyperdrive.policy",
    "BayesianParameterSampling": "acpt_estimator.v1.train.hyperdrive.sampling",
})
