"""v1 runs over a backend handle (``acpt_estimator.run_handle``): wrapping, and the protocol passed through to it."""

from __future__ import annotations


def wrap(handle, experiment=None):
    """The v1 run for a backend handle: a ``HyperDriveRun`` for sweeps, a ``ScriptRun`` otherwise."""
    if handle is None or isinstance(handle, OverHandle):  # already a v1 run
        return handle
    if getattr(handle, "run_kind", "script") == "hyperdrive":
        from acpt_estimator.v1.train.hyperdrive.run import HyperDriveRun as kind
    else:
        from acpt_estimator.v1.core.script_run import ScriptRun as kind
    return kind._over_handle(handle, experiment)


def _experiment_of(handle):
    """The v1 Experiment of a handle: the one it was submitted with, else rebuilt from what the backend recorded."""
    from acpt_estimator.v1.core.experiment import Experiment

    known = getattr(handle, "experiment", None)
    if isinstance(known, Experiment):
        return known
    if known is not None:  # a neutral reference (workspace, name) made by the backend
        return Experiment(known.workspace, known.name, _skip_name_validation=True)
    record = handle.experiment_record() if hasattr(handle, "experiment_record") else None
    if record is None:
        return None
    from acpt_estimator.v1.core.workspace import Workspace

    ws = record.get("workspace") or {}
    workspace = Workspace._from_ref({"subscription_id": ws.get("subscription_id") or "local",
                                     "resource_group": ws.get("resource_group") or "local",
                                     "name": ws.get("name") or "local", "is_local": ws.get("is_local", True)})
    return Experiment(workspace, record["name"], _skip_name_validation=True)


class OverHandle:
    """The v1 Run protocol, each call passed to ``self._handle``; children and models come back as v1 objects."""

    _handle = None
    _experiment = None

    @classmethod
    def _over_handle(cls, handle, experiment=None):
        run = object.__new__(cls)  # not cls(...): v1's Run(experiment, run_id) reopens a run by id
        run._handle = handle
        run._experiment = experiment
        return run

    def __getattr__(self, name):
        """Backend extras (``path``, ``_record()``, ``early_terminated()``...) are the handle's."""
        handle = self.__dict__.get("_handle")
        if handle is None or name.startswith("__"):
            raise AttributeError(name)
        return getattr(handle, name)

    @property
    def experiment(self):
        if self._experiment is None:
            self._experiment = _experiment_of(self._handle)
            if self._experiment is not None and getattr(self._handle, "_experiment", None) is None:
                self._handle._experiment = self._experiment
        return self._experiment

    @property
    def id(self) -> str:
        return self._handle.id

    @property
    def display_name(self) -> str:
        return self._handle.display_name

    @property
    def description(self):
        return self._handle.description

    @property
    def _interactive(self) -> bool:
        return self._handle._interactive

    def get_status(self) -> str:
        return self._handle.get_status()

    def wait_for_completion(self, show_output=False, wait_post_processing=False, raise_on_error=True) -> dict:
        return self._handle.wait_for_completion(show_output, wait_post_processing, raise_on_error)

    def get_details(self) -> dict:
        return self._handle.get_details()

    def get_metrics(self, name=None, recursive=False, run_type=None, populate=False) -> dict:
        from acpt_estimator.v1 import _params

        _params.check("Run.get_metrics", populate=populate)
        if recursive:
            return self._metrics_of_tree(name, run_type)
        return self._handle.get_metrics(name)

    def _write_record(self, kind, name, value, **extra):
        self._handle._write_record(kind, name, value, **extra)

    def _store_image(self, artifact, path=None, plot=None):
        self._handle._store_image(artifact, path=path, plot=plot)

    def get_file_names(self) -> list:
        return self._handle.get_file_names()

    def download_file(self, name, output_file_path=None, _validate_checksum=False) -> None:
        return self._handle.download_file(name, output_file_path, _validate_checksum)

    def download_files(self, prefix=None, output_directory=None, output_paths=None, batch_size=100,
                       append_prefix=True, timeout_seconds=None) -> None:
        return self._handle.download_files(prefix, output_directory, output_paths, batch_size, append_prefix,
                                           timeout_seconds)

    def register_model(self, model_name, model_path=None, tags=None, properties=None, model_framework=None,
                       model_framework_version=None, description=None, datasets=None, sample_input_dataset=None,
                       sample_output_dataset=None, resource_configuration=None, **kwargs):
        from acpt_estimator.v1.core.model import Model

        record = self._handle.register_model(
            model_name, model_path, tags, properties, model_framework, model_framework_version, description,
            datasets, sample_input_dataset, sample_output_dataset, resource_configuration, **kwargs)
        if record is None:
            return None
        return Model._from_record(getattr(self.experiment, "workspace", None), record)

    def cancel(self) -> None:
        return self._handle.cancel()

    def get_portal_url(self) -> str:
        return self._handle.get_portal_url()

    def get_children(self, recursive=False, tags=None, properties=None, type=None, status=None,
                     _rehydrate_runs=True):
        children = self._handle.get_children(recursive=recursive, tags=tags, properties=properties, type=type,
                                             status=status, _rehydrate_runs=_rehydrate_runs)
        return iter([wrap(child, self._experiment) for child in children])

    def _new_child(self, run_id: str, name):
        experiment = self.experiment  # resolved first: the handle starts its child in this experiment
        return wrap(self._handle._new_child(run_id, name), experiment)

    def _parent_id(self):
        return self._handle._parent_id()

    def _number(self):
        return self._handle._number()

    def get_tags(self) -> dict:
        return self._handle.get_tags()

    def set_tags(self, tags) -> None:
        return self._handle.set_tags(tags)

    def remove_tags(self, tags) -> None:
        return self._handle.remove_tags(tags)

    def tag(self, key, value=None) -> None:
        return self._handle.tag(key, value)

    @property
    def tags(self) -> dict:
        return self._handle.tags

    @property
    def properties(self) -> dict:
        return self._handle.properties

    def get_properties(self) -> dict:
        return dict(self._handle.properties)

    def add_properties(self, properties) -> None:
        return self._handle.add_properties(properties)

    def upload_file(self, name, path_or_stream, datastore_name=None):
        return self._handle.upload_file(name, path_or_stream, datastore_name)

    def upload_folder(self, name, path, datastore_name=None):
        return self._handle.upload_folder(name, path, datastore_name)

    def get_environment(self):
        return self._handle.get_environment()

    def start(self) -> None:
        return self._handle.start()

    def complete(self, _set_status=True) -> None:
        return self._handle.complete(_set_status)

    def fail(self, error_details=None, error_code=None, _set_status=True) -> None:
        return self._handle.fail(error_details, error_code, _set_status)

    def get_details_with_logs(self) -> dict:
        own = getattr(self._handle, "get_details_with_logs", None)
        return own() if own is not None else self._details_with_logs()
