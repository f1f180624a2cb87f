"""v1 ``azureml.core.model``: ``Model`` (find, register, update, download, locate), in the local registry or the
workspace; ``version`` is an int and ``id`` is ``'name:version'`` in both."""

from __future__ import annotations

import os

from acpt_estimator.names import check
from acpt_estimator.exceptions import UserErrorException, WebserviceException
from acpt_estimator.unsupported import InferenceConfig  # noqa: F401 (v1 azureml.core.model exports it)
from acpt_estimator.v1._refusal import refused, refused_class
from acpt_estimator.v1.core import _model_store
from acpt_estimator._lazy import lazy_names

_DEPLOY_WHY = "acpt-estimator runs v1 training code, not deployment."
_DEPLOY_V2 = ("managed online endpoints: ml_client.online_endpoints.begin_create_or_update(ManagedOnlineEndpoint(...)) "
              "and ml_client.online_deployments.begin_create_or_update(ManagedOnlineDeployment(model=...))")
ModelPackage = refused_class("ModelPackage", _DEPLOY_WHY, "ml_client.models.package(name, version, ModelPackage(...))",
                             module=__name__)


class _Framework:
    """v1 ``Model.Framework``: the framework names ``Model.register(model_framework=...)`` takes."""

    CUSTOM = "Custom"
    MULTI = "Multi"
    ONNX = "Onnx"
    PYTORCH = "PyTorch"
    SCIKITLEARN = "ScikitLearn"
    TENSORFLOW = "TensorFlow"
    TFKERAS = "TfKeras"


class Model:
    """``Model(ws, name, version=None)`` is a registered model (the latest version by default).

    Local runs use the registry under the local run store (``<store>/models/<name>/<version>``); cloud workspaces
    use v2 model assets. ``id``/``tags``/``properties``/``run_id`` narrow the lookup like v1.
    """

    Framework = _Framework

    def __init__(self, workspace, name=None, id=None, tags=None, properties=None, version=None, run_id=None,
                 model_framework=None, expand=True, **kwargs):
        from acpt_estimator.v1 import _params

        _params.check("Model.__init__", expand=expand)
        if id:
            name, _, version = str(id).partition(":")
        if not name and not (tags or properties or run_id):
            raise UserErrorException("Model(workspace, name=...) needs the registered model's name (or id='name:1', "
                                     "or tags/properties/run_id to search by).")
        self.workspace = workspace
        version = _model_store._version(version)
        models = _model_store.store(workspace)
        if name and version is not None and not (tags or properties or run_id):
            record = models.get(name, version)
        else:
            found = [r for r in models.list(name) if _matches(r, tags, properties, run_id, model_framework)
                     and (version is None or r["version"] == version)]
            if not found:
                criteria = ", ".join(f"{k} {v}" for k, v in (
                    ("name", name), ("tags", tags), ("properties", properties), ("version", version),
                    ("run_id", run_id), ("model_framework", model_framework)) if v)
                raise WebserviceException(f"ModelNotFound: Model with {criteria} not found in provided workspace. "
                                          "List the registered models with Model.list(ws).")  # v1's message
            record = max(found, key=lambda r: r["version"] if isinstance(r["version"], int) else 0)
        self._load(record)

    @classmethod
    def _from_record(cls, workspace, record: dict) -> "Model":
        model = cls.__new__(cls)
        model.workspace = workspace
        model._load(record)
        return model

    def _load(self, record: dict) -> None:
        self._record = dict(record)
        self.name = record["name"]
        self.version = record["version"]
        self.tags = dict(record.get("tags") or {})
        self.properties = dict(record.get("properties") or {})
        self.description = record.get("description")
        self.created_time = record.get("created_time")
        self.run_id = record.get("run_id")
        self.experiment_name = record.get("experiment_name")
        self.model_framework = record.get("model_framework")
        self.model_framework_version = record.get("model_framework_version")
        self.url = record.get("path")
        self.datasets = dict(record.get("datasets") or {})

    @property
    def id(self) -> str:
        return f"{self.name}:{self.version}"

    @property
    def path(self) -> str:
        """Where the model's files are (a folder of the local registry, or the model asset's URI)."""
        return self.url

    # ---- v1 static members ---------------------------------------------------------------------------
    @staticmethod
    def register(workspace, model_path, model_name, tags=None, properties=None, description=None, datasets=None,
                 model_framework=None, model_framework_version=None, child_paths=None, sample_input_dataset=None,
                 sample_output_dataset=None, resource_configuration=None) -> "Model":
        """Register a local file or folder as a model (a new version when the name exists)."""
        from acpt_estimator.v1 import _params

        _params.check("Model.register", child_paths=child_paths, sample_input_dataset=sample_input_dataset,
                      sample_output_dataset=sample_output_dataset, resource_configuration=resource_configuration)
        check("model", model_name, parameter="model_name")  # both backends, before anything is copied or sent
        if not os.path.exists(model_path):
            raise UserErrorException(f"Model.register(model_path={model_path!r}): no such file or folder. Pass the "
                                     "path of the saved model on this machine.")
        record = _model_store.store(workspace).register(model_path, model_name, tags, properties, description,
                                                        model_framework, model_framework_version, datasets)
        print(f"Registering model {model_name}")
        return Model._from_record(workspace, record)

    @staticmethod
    def get_model_path(model_name, version=None, _workspace=None) -> str:
        """What a job sees first (``$AZUREML_MODEL_DIR``, a job input named after the model, v1's
        ``./azureml-models/<name>/<version>`` cache), else the local registry's copy, else (a cloud ``_workspace``)
        a download into that cache."""
        from acpt_estimator.job_runtime.acpt_models import CACHE, find_model_path

        check("model", model_name, parameter="model_name")  # joined under $AZUREML_MODEL_DIR and the cache
        path = find_model_path(model_name, version)
        if path is not None:
            return path
        here = _model_store.store(_workspace).path_here(model_name, version)
        if here is not None:  # the local registry's copy
            return here
        model = Model(_workspace, model_name, version=version)
        return model.download(os.path.join(CACHE, model_name, str(model.version)), exist_ok=True)

    @staticmethod
    def list(workspace, name=None, tags=None, properties=None, run_id=None, latest=False, dataset_id=None,
             expand=True, page_count=255, model_framework=None) -> list:
        """Registered models, filtered like v1 (tags: keys or [key, value] pairs; properties the same)."""
        from acpt_estimator.v1 import _params

        _params.check("Model.list", dataset_id=dataset_id, expand=expand, page_count=page_count)
        found = [r for r in _model_store.store(workspace).list(name)
                 if _matches(r, tags, properties, run_id, model_framework)]
        if latest:
            newest: dict = {}
            for record in found:
                if record["name"] not in newest or record["version"] > newest[record["name"]]["version"]:
                    newest[record["name"]] = record
            found = list(newest.values())
        return [Model._from_record(workspace, r) for r in found]

    @staticmethod
    def deserialize(workspace, model_payload) -> "Model":
        """v1: a Model from ``serialize()``'s dict."""
        p = model_payload or {}
        if not p.get("name") or p.get("version") is None:
            raise UserErrorException("Model.deserialize(model_payload=...) needs at least 'name' and 'version' (what "
                                     "model.serialize() returns).")
        return Model._from_record(workspace, {
            "name": p["name"], "version": _model_store._version(p["version"]), "path": p.get("url"),
            "run_id": p.get("runId"), "experiment_name": p.get("experimentName"), "tags": p.get("tags"),
            "properties": p.get("properties"), "description": p.get("description"),
            "created_time": p.get("createdTime"), "model_framework": p.get("framework"),
            "model_framework_version": p.get("frameworkVersion"), "datasets": p.get("datasets")})

    # ---- v1 instance members -------------------------------------------------------------------------
    def serialize(self) -> dict:
        return {"createdTime": self.created_time, "description": self.description, "id": self.id,
                "name": self.name, "framework": self.model_framework, "frameworkVersion": self.model_framework_version,
                "tags": dict(self.tags), "properties": dict(self.properties), "url": self.url,
                "version": self.version, "experimentName": self.experiment_name, "runId": self.run_id,
                "datasets": dict(self.datasets)}

    def download(self, target_dir=".", exist_ok=False, exists_ok=None) -> str:
        """Copy the model into ``target_dir``; returns the copied path (v1's return value)."""
        return _model_store.store(self.workspace).download(self._record, target_dir, bool(exist_ok or exists_ok))

    def update(self, tags=None, description=None, sample_input_dataset=None, sample_output_dataset=None,
               resource_configuration=None) -> None:
        """v1: replace the tags and/or the description."""
        from acpt_estimator.v1 import _params

        _params.check("Model.update", sample_input_dataset=sample_input_dataset,
                      sample_output_dataset=sample_output_dataset, resource_configuration=resource_configuration)
        if tags is not None:
            self.tags = _string_dict("tags", tags)
        if description is not None:
            self.description = description
        self._save()

    def add_tags(self, tags) -> None:
        self.tags.update(_string_dict("tags", tags))
        self._save()

    def remove_tags(self, tags) -> None:
        for key in [tags] if isinstance(tags, str) else list(tags or []):
            self.tags.pop(key, None)
        self._save()

    def add_properties(self, properties) -> None:
        """v1: properties are add-only; an existing key cannot change."""
        properties = _string_dict("properties", properties)
        changed = [k for k, v in properties.items() if k in self.properties and self.properties[k] != v]
        if changed:
            raise UserErrorException(f"Model properties cannot be changed once set: {changed}. Use tags for values "
                                     "that change (model.add_tags).")
        self.properties.update(properties)
        self._save()

    def update_tags_properties(self, add_tags=None, remove_tags=None, add_properties=None) -> None:
        if add_tags:
            self.tags.update(_string_dict("add_tags", add_tags))
        for key in [remove_tags] if isinstance(remove_tags, str) else list(remove_tags or []):
            self.tags.pop(key, None)
        if add_properties:
            self.add_properties(add_properties)
        self._save()

    def delete(self) -> None:
        """Delete this version (its files too, locally)."""
        _model_store.store(self.workspace).delete(self._record)

    def _save(self) -> None:
        self._record.update(tags=dict(self.tags), properties=dict(self.properties), description=self.description)
        _model_store.store(self.workspace).update(self._record)

    deploy = refused("Model.deploy", _DEPLOY_WHY, _DEPLOY_V2)
    package = refused("Model.package", _DEPLOY_WHY, "ml_client.models.package(name, version, ModelPackage(...))")
    profile = refused("Model.profile", _DEPLOY_WHY, "load-test a managed online endpoint")
    print_configuration = refused("Model.print_configuration", _DEPLOY_WHY, _DEPLOY_V2)
    get_sas_urls = refused("Model.get_sas_urls", "v2 does not hand out SAS URLs of a model's files.",
                           "ml_client.models.download(name, version, download_path=...)")
    add_dataset_references = refused("Model.add_dataset_references", "v2 models carry no dataset references.",
                                     "record lineage by registering the model from the job that used the data "
                                     "(run.register_model), or put the dataset name in the model's tags")

    def __repr__(self) -> str:
        return (f"Model(workspace={getattr(self.workspace, 'name', None)!r}, name={self.name}, id={self.id}, "
                f"version={self.version}, tags={self.tags}, properties={self.properties})")


def _string_dict(param, value) -> dict:
    if not isinstance(value, dict):
        raise UserErrorException(f"{param}={value!r} must be a dict of names to values, e.g. {{'stage': 'test'}}.")
    return {str(k): str(v) if not isinstance(v, str) else v for k, v in value.items()}


def _pairs(filters):
    """v1 filters: ['key', ['key', 'value'], ...] (a dict is accepted too)."""
    if isinstance(filters, dict):
        return list(filters.items())
    return [(f, None) if isinstance(f, str) else (f[0], f[1] if len(f) > 1 else None) for f in filters]


def _matches(record, tags, properties, run_id, model_framework) -> bool:
    for wanted, actual in ((tags, record.get("tags") or {}), (properties, record.get("properties") or {})):
        for key, value in _pairs(wanted or []):
            if key not in actual or (value is not None and str(actual[key]) != str(value)):
                return False
    if run_id and record.get("run_id") != run_id:
        return False
    return not model_framework or record.get("model_framework") == model_framework


__all__ = ["InferenceConfig", "Model", "ModelPackage"]


# v1: where Model.get_model_path looks first (AML_APP_ROOT is set in v1 deployments).
MODELS_DIR = os.path.join(os.environ.get("AML_APP_ROOT", ""), "azureml-models")


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["MAX_PROFILE_CPU", "MAX_PROFILE_MEMORY", "MIN_PROFILE_CPU", "MIN_PROFILE_MEMORY", "ModelProfile"],
        "acpt_estimator.v1.core.profile"),
    **dict.fromkeys(["ModelNotFoundException", "RunEnvironmentException", "UserErrorException", "WebserviceException"],
        "acpt_estimator.exceptions"),
    "AksCompute": "acpt_estimator.v1.core.compute._refused",
    "ContainerRegistry": "acpt_estimator.v1.core.container_registry",
    "Dataset": "acpt_estimator.v1.core.dataset",
    "Environment": "acpt_estimator.v1.core.environment",
    "Experiment": "acpt_estimator.v1.core.experiment",
    "ResourceConfiguration": "acpt_estimator.v1.core.resource_configuration",
    "get_run": "acpt_estimator.v1.core.run",
    "DatasetSnapshot": "acpt_estimator.v1.data.dataset_snapshot",
    "FileDataset": "acpt_estimator.v1.data.file_dataset",
    "TabularDataset": "acpt_estimator.v1.data.tabular_dataset",
})
