"""v1's ``_OfflineRun``: what ``Run.get_context()`` returns outside a job; it prints and never fails."""

from __future__ import annotations

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.v1._refusal import refused

_NO_WORKSPACE = ("an offline run (Run.get_context() outside a job) belongs to no workspace, so there is no Key Vault "
                 "to read.", "Workspace.from_config().get_default_keyvault().get_secret(name)")


class _OfflineRun:
    """v1's offline run: every call prints what it would have recorded and never fails."""

    def __init__(self):
        import uuid  # imported where used: every rank imports this module, only runs outside a job make one

        self.id = f"OfflineRun_{uuid.uuid4()}"
        self.name = self.id

    # A secret has no offline stand-in: returning anything would hand the script a wrong value.
    get_secret = refused("Run.get_secret", *_NO_WORKSPACE)
    get_secrets = refused("Run.get_secrets", *_NO_WORKSPACE)

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
        from acpt_estimator.v1 import _params

        _params.check("Run.child_run", outputs=outputs)
        child = _OfflineRun()
        child.id = run_id or f"{self.id}.{name}"
        return child

    def __enter__(self):
        print(f"[START] Run {self.id} context")
        return self

    def __exit__(self, *exc):
        print(f"[STOP] Run {self.id} context")
        return False
