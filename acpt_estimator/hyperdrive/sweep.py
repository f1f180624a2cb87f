"""HyperDriveConfig -> ``azure.ai.ml`` SweepJob (pure; imports azure-ai-ml lazily)."""

from __future__ import annotations

import re

from ..exceptions import HyperDriveConfigException
from .early_termination import policy_name
from .samplers import sampling_name


def input_name_for(name: str) -> str:
    """v2 search-space names are identifiers: '--numbers-in-sequence' -> 'numbers_in_sequence'."""
    ident = re.sub(r"\W", "_", name.lstrip("-"))
    return ident if ident and not ident[0].isdigit() else f"p_{ident}"


def search_space(parameter_space: dict) -> dict:
    """v1 expressions -> v2 ``azure.ai.ml.sweep`` distributions (log-space bounds keep their meaning)."""
    from azure.ai.ml import sweep as s

    makers = {
        "choice": lambda a: s.Choice(values=list(a[0])),
        "randint": lambda a: s.Randint(upper=a[0]),
        "uniform": lambda a: s.Uniform(min_value=a[0], max_value=a[1]),
        "quniform": lambda a: s.QUniform(min_value=a[0], max_value=a[1], q=a[2]),
        "loguniform": lambda a: s.LogUniform(min_value=a[0], max_value=a[1]),
        "qloguniform": lambda a: s.QLogUniform(min_value=a[0], max_value=a[1], q=a[2]),
        "normal": lambda a: s.Normal(mu=a[0], sigma=a[1]),
        "qnormal": lambda a: s.QNormal(mu=a[0], sigma=a[1], q=a[2]),
        "lognormal": lambda a: s.LogNormal(mu=a[0], sigma=a[1]),
        "qlognormal": lambda a: s.QLogNormal(mu=a[0], sigma=a[1], q=a[2]),
    }
    return {input_name_for(name): makers[expr[0]](expr[1]) for name, expr in parameter_space.items()}


def check_search_values(parameter_space: dict) -> None:
    """Refuse choice values that cannot reach a trial's argv intact on both backends.

    The v2 service pastes a sampled value into the trial command as text, inside the single quotes our
    command gives it: a quote would end them, and a NUL cannot be in an argument anywhere.
    """
    for name, (kind, args) in parameter_space.items():
        if kind != "choice":
            continue
        for value in args[0]:
            text = str(value)
            bad = "a quote" if "'" in text else "a NUL byte" if "\0" in text else None
            if bad:
                raise HyperDriveConfigException(
                    f"choice value {value!r} of parameter {name!r} contains {bad}, which the Azure ML service "
                    "would paste into the trial's shell command where it breaks the quoting. Use a value without "
                    "it (e.g. an index or a name your script maps to the value).")


def default_value(expression):
    """A placeholder value of the right type for the trial's literal input (replaced by the sampled one)."""
    kind, args = expression
    if kind == "choice":
        return args[0][0]
    if kind == "randint":
        return 0
    return args[0]


def sampling_algorithm(sampling):
    from azure.ai.ml.sweep import RandomSamplingAlgorithm

    if sampling_name(sampling) == "GRID":
        return "grid"
    if sampling_name(sampling) == "BayesianOptimization":
        return "bayesian"
    props = sampling.properties
    if props:
        return RandomSamplingAlgorithm(seed=props.get("seed"), rule=props.get("rule"))
    return "random"


def early_termination(policy):
    from azure.ai.ml import sweep as s

    common = {"evaluation_interval": policy.evaluation_interval, "delay_evaluation": policy.delay_evaluation}
    name = policy_name(policy)
    if name == "Bandit":
        return s.BanditPolicy(slack_factor=policy.slack_factor, slack_amount=policy.slack_amount, **common)
    if name == "MedianStopping":
        return s.MedianStoppingPolicy(**common)
    if name == "TruncationSelection":
        return s.TruncationSelectionPolicy(truncation_percentage=policy.truncation_percentage, **common)
    return None


def trial_defaults(config) -> dict:
    """The trial command's literal input per swept parameter (v2 name -> a placeholder the sweep replaces)."""
    return {input_name_for(name): default_value(expr) for name, expr in config._sampling.parameter_space.items()}


def sweep_of(node, config):
    """The v2 Sweep over the trial command ``node`` (its swept inputs from ``trial_defaults``): search space,
    sampling, objective, policy and limits of ``config`` (a HyperDriveConfig, or anything read like one)."""
    trial = node(**search_space(config._sampling.parameter_space))
    sweep = trial.sweep(sampling_algorithm=sampling_algorithm(config._sampling),
                        primary_metric=config._primary_metric_name, goal=config.primary_metric_config["goal"],
                        early_termination_policy=early_termination(config._policy))
    sweep.set_limits(max_total_trials=config._max_total_runs, max_concurrent_trials=config._max_concurrent_runs,
                     timeout=config._max_duration_minutes * 60 if config._max_duration_minutes else None)
    return sweep


def to_sweep(config, *, experiment_name=None, tags=None, context_root=None):
    """The Sweep node (validated); ``.sweep()`` rewrites ${{inputs.x}} to ${{search_space.x}} in the trial."""
    from ..backends.azureml import sdk
    from ..backends.azureml.translate import to_command

    spec = config.trial_spec(experiment_name, tags)
    node = to_command(spec, context_root=context_root, literal_inputs=trial_defaults(config))
    sweep = sweep_of(node, config)
    sweep.experiment_name = experiment_name  # calling the node dropped it
    sweep.display_name = spec.display_name
    errors = sdk.node_errors(sweep)
    if errors:
        raise HyperDriveConfigException(f"The translated v2 sweep job is invalid: {errors[0]}")
    return sweep


def to_sweep_job(config, **kwargs):
    """The standalone ``SweepJob`` (its YAML round-trips through load_job; a Sweep node's does not)."""
    from ..backends.azureml import sdk

    return sdk.to_job(to_sweep(config, **kwargs))
