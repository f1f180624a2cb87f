"""v1 ``Experiment``: a named group of runs; ``submit`` sends a job to the backend its target selects."""

from __future__ import annotations

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.names import is_valid, suggest
from acpt_estimator.target import backend_for
from acpt_estimator.v1._refusal import refuse, refused
from acpt_estimator._lazy import lazy_names

_NO_ARCHIVE = ("azure-ai-ml has no experiment archive/delete operation.",
               "the Azure ML studio's Experiments page (Archive / Delete), or mlflow.delete_experiment(id) with "
               "azureml-mlflow installed")
_CLOUD_TAGS = ("experiment tags live in the workspace's MLflow tracking, which acpt-estimator does not write.",
               "mlflow.set_experiment_tag(key, value) / mlflow.delete_experiment_tag(key) with azureml-mlflow")


class ViewType:
    """Which experiments ``Experiment.list`` returns (v1's values)."""

    ACTIVE_ONLY = "ActiveOnly"
    ARCHIVED_ONLY = "ArchivedOnly"
    ALL = "All"


class Experiment:
    """``Experiment(workspace, name)``; the name rule is v1's."""

    DELIM = "/"
    EXPERIMENT_ID_PATH = "experimentids"
    EXPERIMENT_NAME_PATH = "experiments"
    TID_FMT = "&tid={}"
    WORKSPACE_FMT = "?wsid=/subscriptions/{}/resourcegroups/{}/workspaces/{}"

    def __init__(self, workspace, name, _skip_name_validation=False, _id=None, _archived_time=None,
                 _create_in_cloud=True, _experiment_dto=None, **kwargs):
        if not _skip_name_validation and not is_valid("experiment", name):
            raise UserErrorException(
                "Experiment name must be between 1 and 255 characters long. Its first character has to be "
                "alphanumeric, and the rest may contain hyphens and underscores. No whitespace is allowed. "
                f"Got name={name!r}; e.g. {suggest('experiment', name)!r}.")
        if workspace is None or isinstance(workspace, (str, bytes, int, float, dict, list)):
            raise UserErrorException(
                f"Experiment(workspace={workspace!r}, name={name!r}): workspace must be a Workspace, e.g. "
                f"Experiment(Workspace.from_config(), {name!r}).")
        self.workspace = workspace
        self.name = name
        self.id = _id
        self._archived_time = _archived_time

    def submit(self, config, tags=None, **kwargs):
        """Submit an estimator, ScriptRunConfig, HyperDriveConfig or Pipeline; returns a Run at once."""
        if not hasattr(config, "to_job_spec") and not hasattr(config, "_submit"):
            raise UserErrorException(
                f"Experiment.submit(config={type(config).__name__}) is not supported; pass a PyTorch/Estimator "
                "estimator, a ScriptRunConfig, a HyperDriveConfig or a Pipeline.")
        if hasattr(config, "_submit"):  # HyperDriveConfig and others that own their submission
            return config._submit(self, tags=tags, **kwargs)
        spec = config.to_job_spec(experiment_name=self.name, tags=tags, **kwargs)
        return submit_spec(spec, self)

    def get_runs(self, type=None, tags=None, properties=None, include_children=False):
        """The experiment's runs, newest first (local store, then cloud), filtered as v1 did."""
        from acpt_estimator.backends import list_runs
        from acpt_estimator.v1.core._run_handle import wrap

        return (wrap(handle, self) for handle in list_runs(self, type=type, tags=tags, properties=properties,
                                                           include_children=include_children))

    def start_logging(self, *args, outputs=None, snapshot_directory=None, display_name=None, **kwargs):
        """An interactive run: log to it from this process, then ``complete()`` (or use it in ``with``)."""
        from acpt_estimator.services import services_for
        from acpt_estimator.v1.core._run_handle import wrap

        return wrap(services_for(self.workspace).experiments.start_logging(self, display_name=display_name), self)

    @staticmethod
    def list(workspace, experiment_name=None, view_type=ViewType.ACTIVE_ONLY, tags=None):
        """The workspace's experiments (every experiment with a run; none is ever archived here)."""
        from acpt_estimator.backends import experiment_names

        if view_type == ViewType.ARCHIVED_ONLY:
            return []
        names = [n for n in experiment_names(workspace) if experiment_name in (None, n)]
        found = [Experiment(workspace, n, _skip_name_validation=True) for n in names]
        from acpt_estimator.tracking import tags_match

        # tags: v1's experiment tag filter (in a cloud workspace, reading experiment tags refuses, naming MLflow)
        return [e for e in found if tags_match(e.tags, tags)] if tags else found

    @property
    def archived_time(self):
        return self._archived_time

    @property
    def workspace_object(self):
        return self.workspace

    @property
    def identity(self) -> str:
        return f"Experiment#{self.name}"

    @classmethod
    def get_docs_url(cls) -> str:
        return "https://learn.microsoft.com/python/api/azureml-core/azureml.core.experiment.experiment"

    def get_portal_url(self) -> str:
        from acpt_estimator.services import services_for

        return services_for(self.workspace).experiments.portal_url(self)

    @property
    def portal_url(self) -> str:
        return self.get_portal_url()

    def refresh(self) -> None:
        """Nothing is cached here: every read goes to the store or the service."""

    @property
    def tags(self) -> dict:
        return dict(self._tag_store().read())

    def tag(self, key, value=None) -> None:
        self.set_tags({key: "" if value is None else value})

    def set_tags(self, tags) -> None:
        self._tag_store().update({str(k): str(v) for k, v in dict(tags).items()})

    def remove_tags(self, tags) -> None:
        self._tag_store().remove([tags] if isinstance(tags, str) else list(tags))

    def _tag_store(self):
        from acpt_estimator.services import services_for

        store = services_for(self.workspace).experiments.tags(self.name)
        if store is None:
            refuse("Experiment.tags (in an Azure ML workspace)", *_CLOUD_TAGS)
        return store

    archive = refused("Experiment.archive", *_NO_ARCHIVE)
    reactivate = refused("Experiment.reactivate", *_NO_ARCHIVE)
    delete = refused("Experiment.delete", *_NO_ARCHIVE)
    from_directory = refused("Experiment.from_directory", "v2 has no project folders (.azureml/project.json).",
                             "Experiment(Workspace.from_config(path), name)")

    def __repr__(self) -> str:
        return f"Experiment(Name: {self.name},\nWorkspace: {getattr(self.workspace, 'name', None)})"


def submit_spec(spec, experiment):
    """Route one JobSpec to the capture, local or cloud backend."""
    from acpt_estimator import backends
    from acpt_estimator.v1.core._run_handle import wrap

    return wrap(backends.get(backend_for(spec.compute.target)).submit(spec, experiment), experiment)


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    "UserErrorException": "acpt_estimator.exceptions",
    "ComputeInstance": "acpt_estimator.v1.core.compute.computeinstance",
    "DEFAULT_GPU_IMAGE": "acpt_estimator.v1.core.environment",
})
