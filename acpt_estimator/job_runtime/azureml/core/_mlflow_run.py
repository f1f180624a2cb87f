"""v1 ``Run`` inside an Azure ML v2 job that has no azureml-core: every call goes to the job's MLflow run.

Self-contained (jobs have no acpt_estimator installed): standard library plus mlflow, imported on first use.
Azure ML v2 sets MLFLOW_TRACKING_URI and MLFLOW_RUN_ID in the job, so metrics land in the job's own run.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import tempfile
import time
import uuid

_context = None


def _mlflow():
    try:
        import mlflow
    except ImportError:
        return None
    return mlflow


class _Named:
    def __init__(self, name, **fields):
        self.name = name
        self.__dict__.update(fields)


def _records_module():
    """The one v1 record/shape module, loaded by path: it sits at the top of the job runtime folder."""
    name = "acpt_job_runtime_v1_records"
    if name not in sys.modules:
        path = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                            "_v1_records.py")
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


class MlflowRun(_records_module().V1Logging):
    """What v1 training scripts call on ``Run.get_context()``: v1 records written in their MLflow form (numbers as
    metrics, the rest as record tags; see ``_v1_records.py``), read back with v1's shapes."""

    def __init__(self, mlflow):
        self._mlflow = mlflow
        self._client = mlflow.MlflowClient()
        self._run_id = os.environ["MLFLOW_RUN_ID"]
        self.id = os.environ.get("AZUREML_RUN_ID") or self._run_id
        self._records = _records_module()
        self._user_error = TypeError  # what the v1 in-job run raised for a list passed to run.log
        rank = os.environ.get("RANK") or os.environ.get("OMPI_COMM_WORLD_RANK") or os.environ.get("PMI_RANK") or "0"
        self._writer = f"rank_{rank}-{os.getpid()}"  # the pid keeps two processes of one rank apart
        self._seq = 0
        self._last = 0
        self._steps = {}
        self._markers = set()
        workspace = _Named(os.environ.get("AZUREML_ARM_WORKSPACE_NAME"),
                           subscription_id=os.environ.get("AZUREML_ARM_SUBSCRIPTION"),
                           resource_group=os.environ.get("AZUREML_ARM_RESOURCEGROUP"))
        self.experiment = _Named(os.environ.get("AZUREML_ARM_PROJECT_NAME") or os.environ.get("MLFLOW_EXPERIMENT_NAME"),
                                 workspace=workspace)

    # ---- records: V1Logging turns the log_* calls into records --------------------------------------
    def _write_record(self, kind, name, value, step=None, **_):
        now = max(time.time_ns() // 1000, self._last + 1000)  # MLflow keeps milliseconds: keep points apart
        self._last = now
        self._seq += 1
        if step is None and kind == self._records.SCALAR:
            step = self._steps.get(name, 0)  # v1 keeps every value: each call is the next step of the series
            self._steps[name] = step + 1
        metric, tags = self._records.to_mlflow(self._records.record(kind, name, value, now, self._writer,
                                                                    self._seq, step=step))
        if metric is not None:
            key, number, step, ms = metric
            self._client.log_metric(self._run_id, key, number, timestamp=ms, step=step)
        for key, text in tags.items():
            if key in self._markers:
                continue
            self._client.set_tag(self._run_id, key, text)
            if key.startswith(self._records.INT_TAG):
                self._markers.add(key)  # a marker is set once per process

    def _store_image(self, artifact, path=None, plot=None):
        with tempfile.TemporaryDirectory() as folder:
            local = os.path.join(folder, artifact)
            if path is not None:
                shutil.copyfile(path, local)
            else:
                plot.savefig(local)
            self._client.log_artifact(self._run_id, local)

    # ---- tags, files, status ------------------------------------------------------------------------
    def tag(self, key, value=None):
        self._client.set_tag(self._run_id, key, "" if value is None else str(value))

    def set_tags(self, tags):
        for key, value in (tags.items() if isinstance(tags, dict) else ((t, "") for t in tags)):
            self.tag(key, value)

    def remove_tags(self, tags):
        for key in [tags] if isinstance(tags, str) else list(tags):
            self._client.delete_tag(self._run_id, key)

    def get_tags(self):
        return self._records.user_tags(self._client.get_run(self._run_id).data.tags)

    @property
    def tags(self):
        return self.get_tags()

    def add_properties(self, properties):
        self.set_tags(properties)

    def get_status(self):
        return "Running"  # the job's own run, seen from inside the job

    def upload_file(self, name, path_or_stream, datastore_name=None):
        """The file lands at ``name`` among the run's files (MLflow names an artifact after its local file)."""
        folder, leaf = os.path.split(name)
        with tempfile.TemporaryDirectory() as scratch:
            local = os.path.join(scratch, leaf)
            if isinstance(path_or_stream, (str, os.PathLike)):
                shutil.copyfile(path_or_stream, local)
            else:
                with open(local, "wb") as handle:
                    shutil.copyfileobj(path_or_stream, handle)
            self._client.log_artifact(self._run_id, local, folder or None)

    def upload_files(self, names, paths, return_artifacts=False, timeout_seconds=None, datastore_name=None):
        for name, path in zip(names, paths):
            self.upload_file(name, path)

    def upload_folder(self, name, path, datastore_name=None):
        self._client.log_artifacts(self._run_id, path, name)

    def complete(self, _set_status=True):
        """v1's submitted run does not end the job's run either; the service does when the job ends."""

    def fail(self, error_details=None, error_code=None, _set_status=True):
        self.tag("failure", f"{error_code}: {error_details}")

    def flush(self, timeout_seconds=300):
        """MlflowClient calls are synchronous: nothing is buffered."""

    @property
    def input_datasets(self) -> dict:
        """{input name: path in the job}: v2 exports AZURE_ML_INPUT_<name>; our command exports the v1 names."""
        found = {k[len("AZURE_ML_INPUT_"):]: v for k, v in os.environ.items() if k.startswith("AZURE_ML_INPUT_")}
        found.update({k[len("AZUREML_DATAREFERENCE_"):]: v for k, v in os.environ.items()
                      if k.startswith("AZUREML_DATAREFERENCE_")})
        try:
            import acpt_datasets  # the job runtime's dataset reader, beside this package on PYTHONPATH
        except ImportError:
            return found
        for name, definition in acpt_datasets.job_definitions().items():
            if name in found:  # v1: tabular and direct inputs are the dataset, the others their path
                found[name] = acpt_datasets.job_dataset(name, found[name], definition)
        return found

    def get_metrics(self, name=None, recursive=False, run_type=None, populate=False):
        run = self._client.get_run(self._run_id)
        histories = {}
        for key in run.data.metrics:
            if name is None or key == name:
                # MlflowClient follows the service's pages (max_results/next_page_token) itself.
                histories[key] = [(m.value, m.step, m.timestamp) for m in self._client.get_metric_history(
                    self._run_id, key)]
        records = self._records.from_mlflow(histories, run.data.tags)
        return self._records.metrics(records, name, run_id=self.id)


class OfflineRun:
    """v1's offline run: prints what it would have recorded and never fails."""

    def __init__(self):
        self.id = f"OfflineRun_{uuid.uuid4()}"

    def __getattr__(self, name):
        if name.startswith(("log", "tag", "set_tags", "add_properties", "upload")):
            return lambda *args, **kwargs: print(f"Attempted to {name} {args} {kwargs}")
        if name in ("complete", "cancel", "flush", "fail"):
            return lambda *args, **kwargs: None
        raise AttributeError(name)


class Run:
    """``from azureml.core.run import Run``: ``Run.get_context()`` is the job's MLflow run, cached per process."""

    @staticmethod
    def get_context(allow_offline=True, used_for_context_manager=False, **kwargs):
        global _context
        if _context is not None:
            return _context
        mlflow = _mlflow() if os.environ.get("MLFLOW_RUN_ID") else None
        if mlflow is not None:
            _context = MlflowRun(mlflow)
            return _context
        if os.environ.get("MLFLOW_RUN_ID"):
            print("acpt-estimator: mlflow is not installed in this job's environment, so run.log(...) only prints. "
                  "Add mlflow-skinny and azureml-mlflow to the environment to keep the metrics.", file=sys.stderr)
        if not allow_offline:
            raise RuntimeError("Could not load a submitted run, if outside of an execution context, use "
                               "experiment.start_logging to initialize an azureml.core.Run.")
        return OfflineRun()
