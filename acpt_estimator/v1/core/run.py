"""v1 ``Run``: one protocol for local and cloud runs, plus ``Run.get_context()`` inside a job."""

from __future__ import annotations

import abc
import uuid

from acpt_estimator.exceptions import RunEnvironmentException, UserErrorException
from acpt_estimator.tracking import V1Logging

TERMINAL_STATUSES = ("Completed", "Failed", "Canceled")


class Run(V1Logging, abc.ABC):
    """What ``exp.submit`` returns; the v1 methods drivers call. LocalRun and CloudRun implement it."""

    _user_error = UserErrorException

    @classmethod
    def get_context(cls, allow_offline=True, used_for_context_manager=False, **kwargs):
        """Inside a job launched by acpt-estimator: that job's run. Elsewhere: v1's offline run (prints)."""
        from acpt_estimator.tracking import run_from_job_environment

        run = run_from_job_environment()
        if run is not None:
            return run
        if not allow_offline:
            raise RunEnvironmentException(
                "Could not load a submitted run, if outside of an execution context, use experiment.start_logging "
                "to initialize an azureml.core.Run. (allow_offline=False was passed outside a job.)")
        return _OfflineRun()

    # ---- the protocol -------------------------------------------------------------------------------
    @property
    @abc.abstractmethod
    def id(self) -> str: ...

    @abc.abstractmethod
    def get_status(self) -> str: ...

    @abc.abstractmethod
    def wait_for_completion(self, show_output=False, wait_post_processing=False, raise_on_error=True) -> dict: ...

    @abc.abstractmethod
    def get_details(self) -> dict: ...

    @abc.abstractmethod
    def get_metrics(self, name=None, recursive=False, run_type=None, populate=False) -> dict: ...

    @abc.abstractmethod
    def get_file_names(self) -> list: ...

    @abc.abstractmethod
    def download_file(self, name, output_file_path=None, _validate_checksum=False) -> None: ...

    @abc.abstractmethod
    def download_files(self, prefix=None, output_directory=None, output_paths=None, batch_size=100,
                       append_prefix=True, timeout_seconds=None) -> None: ...

    @abc.abstractmethod
    def register_model(self, model_name, model_path=None, tags=None, properties=None, model_framework=None,
                       model_framework_version=None, description=None, datasets=None, sample_input_dataset=None,
                       sample_output_dataset=None, resource_configuration=None, **kwargs): ...

    @abc.abstractmethod
    def cancel(self) -> None: ...

    @abc.abstractmethod
    def get_portal_url(self) -> str: ...

    # ---- shared behaviour ---------------------------------------------------------------------------
    @property
    def experiment(self):
        return getattr(self, "_experiment", None)

    @property
    def type(self) -> str:
        return "azureml.scriptrun"

    def __str__(self) -> str:
        name = getattr(self.experiment, "name", None)
        return f"Run(Experiment: {name},\nId: {self.id},\nType: {self.type},\nStatus: {self.get_status()})"

    __repr__ = __str__


class _OfflineRun:
    """v1's offline run: every call prints what it would have recorded and never fails."""

    def __init__(self):
        self.id = f"OfflineRun_{uuid.uuid4()}"
        self.name = self.id

    def log(self, name, value, description=""):
        print(f"Attempted to log scalar metric {name}:\n{value}")

    def log_list(self, name, value, description=""):
        print(f"Attempted to log list metric {name}:\n{value}")

    def log_row(self, name, description=None, **kwargs):
        print(f"Attempted to log row metric {name}:\n{kwargs}")

    def log_table(self, name, value, description=""):
        print(f"Attempted to log table metric {name}:\n{value}")

    def log_image(self, name, path=None, plot=None, description=""):
        if (path is None) == (plot is None):
            raise UserErrorException("log_image needs exactly one of path and plot.")
        print(f"Attempted to log image metric {name}:\n{path if path is not None else plot}")

    def log_confusion_matrix(self, name, value, description=""):
        print(f"Attempted to log confusion_matrix metric {name}:\n{value}")

    def tag(self, key, value=None):
        print(f"Attempted to add tag {key} with value {value}")

    def set_tags(self, tags):
        print(f"Attempted to set tags {tags}")

    def add_properties(self, properties):
        print(f"Attempted to add properties {properties}")

    def upload_file(self, name, path_or_stream, datastore_name=None):
        print(f"Attempted to track file {name} at {path_or_stream}")

    def upload_folder(self, name, path, datastore_name=None):
        print(f"Attempted to track folder {name} at {path}")

    def fail(self, error_details=None, error_code=None, _set_status=True):
        print(f"Run failed with error code {error_code}:\n{error_details}")

    def complete(self, _set_status=True):
        return None

    def cancel(self):
        return None

    def flush(self, timeout_seconds=300):
        return None

    def get_status(self):
        return "Running"

    def child_run(self, name=None, run_id=None, outputs=None):
        child = _OfflineRun()
        child.id = run_id or f"{self.id}.{name}"
        return child

    def __enter__(self):
        print(f"[START] Run {self.id} context")
        return self

    def __exit__(self, *exc):
        print(f"[STOP] Run {self.id} context")
        return False
