"""v1 ``Run`` inside an Azure ML v2 job that has no azureml-core: every call goes to the job's MLflow run.

Self-contained (jobs have no acpt_estimator installed): standard library plus mlflow, imported on first use.
Azure ML v2 sets MLFLOW_TRACKING_URI and MLFLOW_RUN_ID in the job, so metrics land in the job's own run.
"""

from __future__ import annotations

import numbers
import os
import sys
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


class MlflowRun:
    """What v1 training scripts call on ``Run.get_context()``, mapped as the v1->MLflow migration guide says."""

    def __init__(self, mlflow):
        self._mlflow = mlflow
        self._client = mlflow.MlflowClient()
        self._run_id = os.environ["MLFLOW_RUN_ID"]
        self.id = os.environ.get("AZUREML_RUN_ID") or self._run_id
        self._steps = {}
        workspace = _Named(os.environ.get("AZUREML_ARM_WORKSPACE_NAME"),
                           subscription_id=os.environ.get("AZUREML_ARM_SUBSCRIPTION"),
                           resource_group=os.environ.get("AZUREML_ARM_RESOURCEGROUP"))
        self.experiment = _Named(os.environ.get("AZUREML_ARM_PROJECT_NAME") or os.environ.get("MLFLOW_EXPERIMENT_NAME"),
                                 workspace=workspace)

    # ---- metrics ------------------------------------------------------------------------------------
    def _metric(self, name, value):
        step = self._steps.get(name, 0)
        self._steps[name] = step + 1  # v1 keeps every value: each call is the next step of the series
        self._client.log_metric(self._run_id, name, float(value), step=step)

    def log(self, name, value, description="", step=None):
        if isinstance(value, (list, tuple, range)):
            raise TypeError("run.log does not support list type. Use run.log_list instead.")
        if isinstance(value, bool) or isinstance(value, numbers.Number) or hasattr(value, "item"):
            value = value.item() if hasattr(value, "item") else value
            if step is not None:
                self._client.log_metric(self._run_id, name, float(value), step=int(step))
            else:
                self._metric(name, value)
        else:
            # MLflow metrics are numeric; v1 scripts also log strings: keep the latest as a tag.
            self._client.set_tag(self._run_id, name, str(value))

    def log_list(self, name, value, description=""):
        for item in value:
            self._metric(name, item)

    def log_row(self, name, description=None, **kwargs):
        for column, value in kwargs.items():
            self._metric(f"{name}.{column}", value)

    def log_table(self, name, value, description=""):
        self._client.log_dict(self._run_id, dict(value), f"tables/{name}.json")

    def log_image(self, name, path=None, plot=None, description=""):
        if (path is None) == (plot is None):
            raise ValueError("log_image needs exactly one of path and plot.")
        if path is not None:
            self._client.log_artifact(self._run_id, path, "images")
        else:
            self._client.log_figure(self._run_id, plot, f"images/{name}.png")

    # ---- tags, files, status ------------------------------------------------------------------------
    def tag(self, key, value=None):
        self._client.set_tag(self._run_id, key, "" if value is None else str(value))

    def set_tags(self, tags):
        for key, value in (tags.items() if isinstance(tags, dict) else ((t, "") for t in tags)):
            self.tag(key, value)

    def add_properties(self, properties):
        self.set_tags(properties)

    def upload_file(self, name, path_or_stream, datastore_name=None):
        folder = os.path.dirname(name)
        self._client.log_artifact(self._run_id, path_or_stream, folder or None)

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
        return found

    def get_metrics(self, name=None, recursive=False, run_type=None, populate=False):
        run = self._client.get_run(self._run_id)
        result = {}
        for key in run.data.metrics:
            if name is None or key == name:
                values = [m.value for m in self._client.get_metric_history(self._run_id, key)]
                result[key] = values[0] if len(values) == 1 else values
        return result


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
