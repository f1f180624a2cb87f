"""v1 ``HyperDriveRun`` result methods (over any sweep handle), and what every sweep handle shares."""

from __future__ import annotations

from ..exceptions import UserErrorException
from ..tracking import hyperparameters_json


def primary_of(config) -> tuple[str, bool]:
    """(primary metric name, maximize?) of a HyperDriveConfig."""
    if config is None:
        raise UserErrorException("This HyperDrive run was not submitted in this session, so its primary metric "
                                 "is unknown; use get_children() and get_metrics().")
    cfg = config.primary_metric_config
    return cfg["name"], cfg["goal"] == "maximize"


class SweepHandle:
    """What a backend's sweep handle shares: v1 wraps it in a HyperDriveRun; ``_config`` is the HyperDriveConfig
    it was submitted with (None when reopened by id)."""

    run_kind = "hyperdrive"
    type = "hyperdrive"
    _v1_name = "HyperDriveRun"
    _config = None

    def _primary(self) -> tuple[str, bool]:
        return primary_of(self._config)

    def _hyperparameters_of(self, child):
        return None


class HyperDriveResults:
    """Needs ``get_children()``, ``_config`` (the HyperDriveConfig) and ``_hyperparameters_of(child)``."""

    _config = None

    @property
    def type(self) -> str:
        return "hyperdrive"

    def _primary(self) -> tuple[str, bool]:
        return primary_of(self._config)

    def _hyperparameters_of(self, child):
        return None

    def get_metrics(self, name=None, recursive=False, run_type=None, populate=False) -> dict:
        """v1: ``{trial id: {metric: value or list}}``."""
        return {child.id: child.get_metrics(name) for child in self.get_children()}

    def _hyperparameters_json(self, child):
        params = self._hyperparameters_of(child)
        return None if params is None else hyperparameters_json(params)

    def get_hyperparameters(self) -> dict:
        """``{trial id: '{"parameter": sampled value}'}``: v1 gives each trial's values as a JSON string."""
        return {child.id: self._hyperparameters_json(child) for child in self.get_children()}

    def _scored_children(self, include_failed=True, include_canceled=True):
        """(child, best primary value over all its logged values, status); v1 compares max or min per trial."""
        name, maximize = self._primary()
        pick = max if maximize else min
        scored = []
        for child in self.get_children():
            status = child.get_status()
            if (status == "Failed" and not include_failed) or (status == "Canceled" and not include_canceled):
                continue
            value = child.get_metrics(name).get(name)
            values = [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, (int, float))]
            scored.append((child, pick(values) if values else None, status))
        return scored, maximize

    def get_best_run_by_primary_metric(self, include_failed=True, include_canceled=True,
                                       include_resume_from_runs=True):
        """The trial whose best logged primary-metric value is best; None when no trial logged it."""
        # No sweep here has trials resumed from earlier sweeps (HyperDriveConfig(resume_from=...) is refused), so
        # both values pick among the same trials.
        del include_resume_from_runs
        scored, maximize = self._scored_children(include_failed, include_canceled)
        scored = [s for s in scored if s[1] is not None]
        if not scored:
            return None
        return (max if maximize else min)(scored, key=lambda s: s[1])[0]

    def get_children_sorted_by_primary_metric(self, top=0, reverse=False, discard_no_metric=False) -> list:
        scored, maximize = self._scored_children()
        with_metric = sorted((s for s in scored if s[1] is not None), key=lambda s: s[1], reverse=maximize != reverse)
        rows = with_metric + ([] if discard_no_metric else [s for s in scored if s[1] is None])
        rows = rows[:top] if top else rows
        return [{"run_id": child.id, "hyperparameters": self._hyperparameters_json(child), "best_primary_metric": value,
                 "status": status} for child, value, status in rows]


def best_completed_trial(sweep):
    """The completed trial of a sweep handle whose primary metric is best (v1's rule), or None: the trial whose
    outputs a sweep passes on (a v2 sweep node's outputs are its best trial's)."""

    class Results(HyperDriveResults):
        get_children, _primary = sweep.get_children, sweep._primary

    return Results().get_best_run_by_primary_metric(include_failed=False, include_canceled=False)
