"""v1 ``azureml.core.run``: ``Run``, one protocol for local and cloud runs, ``Run.get_context()`` inside a job."""

from __future__ import annotations

import abc
import logging
import os

from acpt_estimator.exceptions import RunEnvironmentException, UserErrorException
from acpt_estimator.names import check
from acpt_estimator.run_handle import TERMINAL_STATUSES
from acpt_estimator.tracking import V1Logging, local_job_run
from acpt_estimator.v1._refusal import refuse, refused
from acpt_estimator.v1.core._offline_run import _OfflineRun  # noqa: F401 - v1 defines it in this module
from acpt_estimator._lazy import lazy_names
from acpt_estimator.v1.core._run_handle import OverHandle, wrap

# v1's module constants: the statuses of a run still going, and of one finishing.
RUNNING_STATES = ["NotStarted", "Queued", "Preparing", "Provisioning", "Starting", "Running", "Unapproved",
                  "NotResponding", "Pausing", "Paused"]
POST_PROCESSING_STATES = ["CancelRequested", "Finalizing"]
LOG_PREFIXES = ("azureml-logs/", "logs/", "user_logs/", "system_logs/")
_NO_SNAPSHOTS = ("v2 jobs keep their code as a code asset, not as run snapshots.",
                 "ml_client.jobs.download(run_id, all=True) (downloads the job's code and outputs)")
logger = logging.getLogger(__name__)
_job_run = None  # the run of the job this process belongs to (Run.get_context()), made once


class _Reopens(abc.ABCMeta):
    """``Run(experiment, run_id)`` (v1's way to reopen a run) returns the backend's run of that id."""

    def __call__(cls, *args, **kwargs):
        if cls.__dict__.get("_reopens_by_id"):
            return cls._reopen(*args, **kwargs)
        return super().__call__(*args, **kwargs)


class Run(OverHandle, V1Logging, metaclass=_Reopens):
    """What ``exp.submit`` returns; the v1 methods drivers call, over the backend's run handle (``_run_handle``)."""

    _reopens_by_id = True
    _user_error = UserErrorException
    DELIM = "/"
    EXPERIMENT_ID_PATH = "experimentids"
    EXPERIMENT_NAME_PATH = "experiments"
    RUN_PATH = "runs"
    TID_FMT = "&tid={}"
    WORKSPACE_FMT = "?wsid=/subscriptions/{}/resourcegroups/{}/workspaces/{}"

    @classmethod
    def _reopen(cls, experiment, run_id, outputs=None, **kwargs):
        return find_run(experiment.workspace, run_id, experiment)

    @staticmethod
    def get(workspace, run_id):
        """The run with this id, local store first, then the workspace."""
        return find_run(workspace, run_id)

    @staticmethod
    def list(experiment, type=None, tags=None, properties=None, status=None, include_children=False,
             _rehydrate_runs=True):
        runs = experiment.get_runs(type=type, tags=tags, properties=properties, include_children=include_children)
        return iter([r for r in runs if status is None or r.get_status() == status])

    @classmethod
    def get_submitted_run(cls, **kwargs):
        """Deprecated in v1 for ``get_context``; the same here."""
        return cls.get_context(**kwargs)

    @classmethod
    def get_docs_url(cls) -> str:
        return "https://learn.microsoft.com/python/api/azureml-core/azureml.core.run.run"

    @classmethod
    def get_context(cls, allow_offline=True, used_for_context_manager=False, **kwargs):
        """Inside a job launched by acpt-estimator: that job's run. Elsewhere: v1's offline run (prints)."""
        global _job_run
        from acpt_estimator.v1 import _params

        _params.check("Run.get_context", used_for_context_manager=used_for_context_manager)
        handle = None
        if local_job_run() is not None:  # else no local job: nothing of the backend is loaded
            from acpt_estimator.backends.local.run import run_from_job_environment

            handle = run_from_job_environment()
        if handle is not None:
            if _job_run is None or _job_run._handle is not handle:
                _job_run = wrap(handle)
            return _job_run
        if not allow_offline:
            raise RunEnvironmentException(
                "Could not load a submitted run, if outside of an execution context, use experiment.start_logging "
                "to initialize an azureml.core.Run. (allow_offline=False was passed outside a job.)")
        return _OfflineRun()

    def upload_files(self, names, paths, return_artifacts=False, timeout_seconds=None, datastore_name=None):
        from acpt_estimator.v1 import _params

        _params.check("Run.upload_files", return_artifacts=return_artifacts, timeout_seconds=timeout_seconds)
        if len(names) != len(paths):
            raise UserErrorException(f"upload_files got {len(names)} names for {len(paths)} paths; pass one name "
                                     "per path.")
        for name, path in zip(names, paths):
            self.upload_file(name, path, datastore_name=datastore_name)

    def flush(self, timeout_seconds=300) -> None:
        """Records are written when logged (nothing is buffered), so there is nothing left to send."""

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        """``with exp.start_logging() as run:`` ends an interactive run: Completed, or Failed with the exception."""
        if self._interactive and self.get_status() not in TERMINAL_STATUSES:
            self.fail(repr(exc)) if exc is not None else self.complete()
        return False

    # ---- shared behaviour ---------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.display_name

    @property
    def input_datasets(self) -> dict:
        """As v1's ``run.input_datasets`` inside a job: the local path of mounted/downloaded inputs, the dataset
        itself for direct ones (tabular datasets)."""
        from acpt_estimator.v1.data.job_inputs import input_datasets

        inputs, in_job = self._handle.job_inputs()
        return input_datasets(inputs, os.environ if in_job else {})

    @property
    def identity(self) -> str:
        return self.id

    @property
    def status(self) -> str:
        return self.get_status()

    @property
    def portal_url(self) -> str:
        return self.get_portal_url()

    @property
    def number(self):
        """v1's run number; its meaning may change (v1 said so too)."""
        logger.warning("Run Number's semantics may be modified in the future.")
        return self._number()

    @property
    def parent(self):
        parent_id = self._parent_id()
        return None if parent_id is None else find_run(self.experiment.workspace, parent_id, self.experiment)

    def _metrics_of_tree(self, name=None, run_type=None) -> dict:
        """v1's ``get_metrics(recursive=True)``: ``{run id: metrics}`` for this run and every descendant (of
        ``run_type`` when given)."""
        found, pending = {}, [self]
        while pending:
            run = pending.pop(0)
            if run_type is None or run.type == run_type:
                found[run.id] = run.get_metrics(name)
            pending.extend(run.get_children())
        return found

    def get_detailed_status(self) -> dict:
        return {"status": self.get_status(), "details": None}

    def _log_names(self) -> list:
        return [n for n in self.get_file_names() if n.startswith(LOG_PREFIXES)]

    def _details_with_logs(self) -> dict:
        """``get_details()`` with each log file's text in ``logFiles`` (for handles without their own)."""
        import tempfile

        details = self.get_details()
        logs = {}
        with tempfile.TemporaryDirectory() as folder:
            for index, name in enumerate(self._log_names()):
                target = os.path.join(folder, str(index))
                self.download_file(name, target)
                with open(target, encoding="utf-8", errors="replace") as handle:
                    logs[name] = handle.read()
        details["logFiles"] = logs
        return details

    def get_all_logs(self, destination=None) -> list:
        """Download every log file under ``destination`` (default: a folder named after the run); their paths."""
        root = destination or self.id
        paths = []
        for name in self._log_names():
            target = os.path.join(root, *name.split("/"))
            self.download_file(name, target)
            paths.append(target)
        return paths

    def child_run(self, name=None, run_id=None, outputs=None):
        """A new run whose parent is this one (an interactive run: log to it, then ``complete()``); ``name`` is its
        display name."""
        from acpt_estimator.v1 import _params

        _params.check("Run.child_run", outputs=outputs)
        if run_id is None:
            run_id = f"{self.id[:240]}_{os.urandom(4).hex()}"
        return self._new_child(check("run", run_id, parameter="run_id"), name)

    def create_children(self, count=None, tag_key=None, tag_values=None) -> list:
        """``count`` children, or one per value of ``tag_values`` (tagged ``tag_key``)."""
        if tag_values is not None:
            if tag_key is None or (count is not None and count != len(tag_values)):
                raise UserErrorException(
                    f"create_children(count={count!r}, tag_key={tag_key!r}, tag_values=...): tag_values needs "
                    "tag_key, and count (if given) must equal len(tag_values).")
            count = len(tag_values)
        if not isinstance(count, int) or count < 1:
            raise UserErrorException(f"create_children(count={count!r}): pass a positive count, or tag_key= with "
                                     "tag_values=[...] (one child per value).")
        children = []
        for index in range(count):
            child = self.child_run(name=str(index))
            if tag_values is not None:
                child.tag(tag_key, tag_values[index])
            children.append(child)
        return children

    add_type_provider = refused(
        "Run.add_type_provider", "runs are created by acpt-estimator's backends; there is no run-type registry.",
        "subclass nothing: Run.get(workspace, run_id) returns the right kind of run")
    clean = refused("Run.clean", "v2 keeps no per-target run folders to clean.",
                    "delete the local store folder ($ACPT_ESTIMATOR_HOME/runs/<id>) or archive the job in the studio")
    def get_secret(self, name):
        """v1: a secret of the workspace's Key Vault (the local store's secrets locally), as training scripts read it."""
        return self._keyvault("Run.get_secret").get_secret(name)

    def get_secrets(self, secrets):
        """v1: ``{name: value}`` for the given secret names of the workspace's Key Vault."""
        return self._keyvault("Run.get_secrets").get_secrets(secrets)

    def _keyvault(self, member):
        workspace = getattr(self.experiment, "workspace", None)
        if workspace is None:
            refuse(member, "this run belongs to no workspace whose Key Vault could be read.",
                   "Workspace.from_config().get_default_keyvault().get_secret(name)")
        return workspace.get_default_keyvault()

    get_snapshot_id = refused("Run.get_snapshot_id", *_NO_SNAPSHOTS)
    restore_snapshot = refused("Run.restore_snapshot", *_NO_SNAPSHOTS)
    take_snapshot = refused("Run.take_snapshot", *_NO_SNAPSHOTS)
    list_by_compute = refused("Run.list_by_compute", "azure-ai-ml lists jobs by experiment, not by compute.",
                              "[j for j in ml_client.jobs.list() if j.compute == compute_name]")
    submit_child = refused("Run.submit_child", "v2 has no child jobs submitted from a run.",
                           "a pipeline job (azure.ai.ml.dsl.pipeline) or a separate experiment.submit(...)")

    @property
    def type(self) -> str:
        return self._handle.type

    def __str__(self) -> str:
        name = getattr(self.experiment, "name", None)
        return f"Run(Experiment: {name},\nId: {self.id},\nType: {self.type},\nStatus: {self.get_status()})"

    __repr__ = __str__


def find_run(workspace, run_id, experiment=None):
    """The run ``run_id`` of a workspace: the local store's, else the cloud's (``Run.get``, ``get_run``)."""
    from acpt_estimator import backends

    return wrap(backends.find_run(workspace, run_id, experiment), experiment)


def get_run(experiment, run_id, rehydrate=True, clean_up=True):
    """v1 ``azureml.core.run.get_run``: reopen a run of an experiment."""
    from acpt_estimator.v1 import _params

    _params.check("get_run", rehydrate=rehydrate, clean_up=clean_up)
    return find_run(experiment.workspace, run_id, experiment)


class InputDatasets(dict):
    """v1 ``run.input_datasets``: ``{input name: dataset or path}``."""

    def __init__(self, workspace=None):
        super().__init__()
        self.workspace = workspace


class OutputDatasets(dict):
    """v1 ``run.output_datasets``: ``{output name: dataset or path}``."""

    def __init__(self, workspace=None):
        super().__init__()
        self.workspace = workspace


class LinkOutput:
    """v1's marker for a run output linked to a dataset; v2 job outputs name their data asset directly."""


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["ActivityFailedException", "ExperimentExecutionException", "RunEnvironmentException",
        "SnapshotException", "UserErrorException"], "acpt_estimator.exceptions"),
    "Datastore": "acpt_estimator.v1.core.datastore",
    "Environment": "acpt_estimator.v1.core.environment",
    "Keyvault": "acpt_estimator.v1.core.keyvault",
    "AbstractDataset": "acpt_estimator.v1.data.abstract_dataset",
    "DataPath": "acpt_estimator.v1.data.datapath",
})
