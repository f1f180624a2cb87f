"""v1 ``Experiment``: a named group of runs; ``submit`` sends a job to the backend its target selects."""

from __future__ import annotations

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.names import is_valid, suggest
from acpt_estimator.target import backend_for


class Experiment:
    """``Experiment(workspace, name)``; the name rule is v1's."""

    def __init__(self, workspace, name, _skip_name_validation=False, _id=None, _archived_time=None,
                 _create_in_cloud=True, _experiment_dto=None, **kwargs):
        if not _skip_name_validation and not is_valid("experiment", name):
            raise UserErrorException(
                "Experiment name must be between 1 and 255 characters long. Its first character has to be "
                "alphanumeric, and the rest may contain hyphens and underscores. No whitespace is allowed. "
                f"Got name={name!r}; e.g. {suggest('experiment', name)!r}.")
        self.workspace = workspace
        self.name = name
        self.id = _id

    def submit(self, config, tags=None, **kwargs):
        """Submit an estimator, ScriptRunConfig or HyperDriveConfig; returns a Run at once."""
        if not hasattr(config, "to_job_spec"):
            raise UserErrorException(
                f"Experiment.submit(config={type(config).__name__}) is not supported; pass a PyTorch/Estimator "
                "estimator, a ScriptRunConfig or a HyperDriveConfig.")
        if hasattr(config, "_submit"):  # HyperDriveConfig and others that own their submission
            return config._submit(self, tags=tags, **kwargs)
        spec = config.to_job_spec(experiment_name=self.name, tags=tags, **kwargs)
        return submit_spec(spec, self)

    def get_runs(self, type=None, tags=None, properties=None, include_children=False):
        """The experiment's runs, newest first (local store, then cloud)."""
        from acpt_estimator.backends import list_runs

        return list_runs(self)

    def __repr__(self) -> str:
        return f"Experiment(Name: {self.name},\nWorkspace: {getattr(self.workspace, 'name', None)})"


def submit_spec(spec, experiment):
    """Route one JobSpec to the capture, local or cloud backend."""
    from acpt_estimator import backends

    return backends.get(backend_for(spec.compute.target)).submit(spec, experiment)
