"""Where v1 ``Model`` records live: the local registry (``<store>/models``) or v2 model assets in the workspace.

Both give the same record (a dict of v1's fields, ``version`` an int), so ``Model`` behaves the same in both.
"""

from __future__ import annotations

import os

from acpt_estimator.backends.azureml.model_records import _FRAMEWORK_PROPS, model_record as from_v2  # noqa: F401
from acpt_estimator.backends.azureml.model_records import model_version as _version  # noqa: F401 - model.py uses it
from acpt_estimator.exceptions import UserErrorException, WebserviceException
from acpt_estimator.target import local_mode



def is_local(workspace) -> bool:
    return workspace is None or getattr(workspace, "_offline", False) or getattr(workspace, "is_local", False) \
        or local_mode()


def store(workspace):
    return LocalModels() if is_local(workspace) else CloudModels(workspace)


class LocalModels:
    """The local registry of ``backends/local/models.py``."""

    def get(self, name, version=None) -> dict:
        from attrs import asdict

        from acpt_estimator.backends.local.models import get_model

        return asdict(get_model(name, version))

    def list(self, name=None) -> list:
        from attrs import asdict

        from acpt_estimator.backends.local.models import list_models

        return [asdict(m) for m in list_models(name)]

    def register(self, model_path, model_name, tags, properties, description, model_framework,
                 model_framework_version, datasets) -> dict:
        from attrs import asdict

        from acpt_estimator.backends.local.models import register
        from acpt_estimator.backends.local.store import home

        folder, base = os.path.split(os.path.abspath(model_path))
        return asdict(register(store_home=home(), run_id=None, experiment_name=None, files_dir=folder,
                               file_names=[base], model_name=model_name, model_path=base, tags=tags,
                               properties=properties, description=description, model_framework=model_framework,
                               model_framework_version=model_framework_version, datasets=dict(datasets or [])))

    def update(self, record: dict) -> None:
        from acpt_estimator.backends.local.models import update

        update(record)

    def delete(self, record: dict) -> None:
        from acpt_estimator.backends.local.models import delete

        delete(record["name"], record["version"])

    def download(self, record: dict, target_dir: str, exist_ok: bool) -> str:
        from acpt_estimator.backends.local.models import Model as LocalModel

        return LocalModel(**record).download(target_dir, exist_ok=exist_ok)


class CloudModels:
    """v2 model assets through the workspace's MLClient."""

    def __init__(self, workspace):
        self.workspace = workspace

    def _client(self):
        from acpt_estimator.backends.azureml.client import ml_client

        return ml_client(self.workspace)

    def _errors(self, action):
        from acpt_estimator.backends.azureml.client import azure_errors

        return azure_errors(self.workspace, action)

    def get(self, name, version=None) -> dict:
        from azure.core.exceptions import ResourceNotFoundError

        try:
            with self._errors(f"get model {name!r}"):
                models = self._client().models
                entity = models.get(name, version=str(version)) if version else models.get(name, label="latest")
        except ResourceNotFoundError:
            raise WebserviceException(
                f"ModelNotFound: Model with name {name}{f', version {version}' if version else ''} not found in "
                f"provided workspace {self.workspace.name!r}; check Model.list(ws, name={name!r}).") from None
        return from_v2(entity)

    def list(self, name=None) -> list:
        from acpt_estimator.backends.azureml.client import list_or_empty

        models = self._client().models
        names = [name] if name else [m.name for m in list_or_empty(self.workspace, "list models", models.list)]
        return [from_v2(m) for n in names
                for m in list_or_empty(self.workspace, f"list the versions of model {n!r}",
                                       lambda n=n: models.list(name=n))]

    def register(self, model_path, model_name, tags, properties, description, model_framework,
                 model_framework_version, datasets) -> dict:
        from azure.ai.ml.entities import Model as V2Model

        props = {str(k): str(v) for k, v in (properties or {}).items()}
        props.update({k: str(v) for k, v in zip(_FRAMEWORK_PROPS, (model_framework, model_framework_version)) if v})
        model = V2Model(name=model_name, path=model_path, type="custom_model", description=description,
                        tags={str(k): str(v) for k, v in (tags or {}).items()} or None, properties=props or None)
        with self._errors(f"register model {model_name!r}"):
            return from_v2(self._client().models.create_or_update(model))

    def update(self, record: dict) -> None:
        with self._errors(f"update model {record['name']!r}"):
            entity = self._client().models.get(record["name"], version=str(record["version"]))
            entity.tags = {str(k): str(v) for k, v in record["tags"].items()}
            entity.properties = {str(k): str(v) for k, v in record["properties"].items()}
            entity.description = record["description"]
            self._client().models.create_or_update(entity)

    def delete(self, record: dict) -> None:
        from acpt_estimator.backends.azureml import sdk

        with self._errors(f"delete model {record['name']!r}"):
            sdk.delete_model_version(self._client(), self.workspace, record["name"], record["version"])

    def download(self, record: dict, target_dir: str, exist_ok: bool) -> str:
        """v1's layout: the model's files straight in ``target_dir`` (v2 adds a ``<name>/`` level, removed here)."""
        import shutil
        import tempfile

        os.makedirs(target_dir, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target_dir, prefix=".download-") as staging:
            with self._errors(f"download model {record['name']!r}"):
                self._client().models.download(record["name"], str(record["version"]), download_path=staging)
            root = os.path.join(staging, record["name"])
            entries = sorted(os.listdir(root))
            clashes = [e for e in entries if os.path.exists(os.path.join(target_dir, e))]
            if clashes and not exist_ok:
                raise UserErrorException(f"File {os.path.join(target_dir, clashes[0])} already exists. Pass "
                                         "exist_ok=True to overwrite it.")
            for entry in entries:
                dest = os.path.join(target_dir, entry)
                if os.path.isdir(dest):
                    shutil.rmtree(dest)
                shutil.move(os.path.join(root, entry), dest)
        return os.path.join(target_dir, entries[0]) if len(entries) == 1 else target_dir
