"""v1 ``azureml.core.model.Model``: find, register and locate models, in the local registry or the workspace."""

from __future__ import annotations

import os

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.target import local_mode
from acpt_estimator.unsupported import InferenceConfig  # noqa: F401 (v1 azureml.core.model exports it)


def _local(workspace) -> bool:
    return workspace is None or getattr(workspace, "is_local", False) or local_mode()


class Model:
    """``Model(ws, name, version=None)`` returns the registered model (latest version by default).

    Local runs use the registry under the local run store (``<store>/models/<name>/<version>``); cloud
    workspaces use v2 model assets through the workspace's MLClient.
    """

    def __new__(cls, workspace, name=None, id=None, tags=None, properties=None, version=None, run_id=None,
                model_framework=None, expand=True, sas_link=False):
        if id:
            name, _, version = id.partition(":")
        if not name:
            raise UserErrorException("Model(workspace, name=...) needs the registered model's name (or id='name:1').")
        version = int(version) if version not in (None, "") and str(version).isdigit() else version
        if _local(workspace):
            from acpt_estimator.backends.local.models import get_model

            return get_model(name, version)
        from acpt_estimator.backends.azureml.client import azure_errors, ml_client

        with azure_errors(workspace, f"get model {name!r}"):
            models = ml_client(workspace).models
            return models.get(name, version=str(version)) if version else models.get(name, label="latest")

    @staticmethod
    def register(workspace, model_path, model_name, tags=None, properties=None, description=None, datasets=None,
                 model_framework=None, model_framework_version=None, child_paths=None, sample_input_dataset=None,
                 sample_output_dataset=None, resource_configuration=None):
        """Register a local file or folder as a model (a new version when the name exists)."""
        if not os.path.exists(model_path):
            raise UserErrorException(f"Model.register(model_path={model_path!r}): no such file or folder. Pass the "
                                     "path of the saved model on this machine.")
        if _local(workspace):
            from acpt_estimator.backends.local.models import register
            from acpt_estimator.backends.local.store import home

            folder, name = os.path.split(os.path.abspath(model_path))
            return register(store_home=home(), run_id=None, experiment_name=None, files_dir=folder, file_names=[name],
                            model_name=model_name, model_path=name, tags=tags, properties=properties,
                            description=description, model_framework=model_framework,
                            model_framework_version=model_framework_version, datasets=dict(datasets or []))
        from azure.ai.ml.entities import Model as V2Model

        from acpt_estimator.backends.azureml.client import azure_errors, ml_client

        model = V2Model(name=model_name, path=model_path, type="custom_model", description=description,
                        tags={str(k): str(v) for k, v in (tags or {}).items()} or None,
                        properties={str(k): str(v) for k, v in (properties or {}).items()} or None)
        with azure_errors(workspace, f"register model {model_name!r}"):
            return ml_client(workspace).models.create_or_update(model)

    @staticmethod
    def get_model_path(model_name, version=None, _workspace=None) -> str:
        """Inside a deployment: under ``$AZUREML_MODEL_DIR``; elsewhere: the local registry's copy."""
        model_dir = os.environ.get("AZUREML_MODEL_DIR")
        if model_dir:
            return os.path.join(model_dir, model_name) if os.path.exists(os.path.join(model_dir, model_name)) \
                else model_dir
        from acpt_estimator.backends.local.models import get_model

        return get_model(model_name, version).path

    @staticmethod
    def list(workspace, name=None, tags=None, properties=None, run_id=None, latest=False, **kwargs) -> list:
        if _local(workspace):
            from acpt_estimator.backends.local.models import list_models

            found = list_models(name)
            if run_id:
                found = [m for m in found if m.run_id == run_id]
            if latest:
                newest = {}
                for model in found:
                    newest[model.name] = model
                found = list(newest.values())
            return found
        from acpt_estimator.backends.azureml.client import azure_errors, ml_client

        with azure_errors(workspace, "list models"):
            return list(ml_client(workspace).models.list(name=name) if name else ml_client(workspace).models.list())
