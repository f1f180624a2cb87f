"""The local store's workspace services (``acpt_estimator.services``): experiments, models and secrets on this machine."""

from __future__ import annotations

import json
import os
import re

from . import atomic

SECRET_NAME = re.compile(r"^[0-9a-zA-Z-]{1,127}$")  # Key Vault's rule; the caller has checked the name


class LocalServices:
    def __init__(self, workspace):
        from .compute import LocalCompute
        from .datasets import LocalDatasets
        from .datastore_registry import LocalDatastores
        from .environments import LocalEnvironments
        from .publishing import LocalPipelineEndpoints, LocalPublishedPipelines, LocalSchedules
        from .workspaces import LocalWorkspace

        self.compute = LocalCompute(workspace)
        self.datasets = LocalDatasets(workspace)
        self.datastores = LocalDatastores(workspace)
        self.environments = LocalEnvironments(workspace)
        self.experiments = LocalExperiments()
        self.models = LocalModels()
        self.pipeline_endpoints = LocalPipelineEndpoints()
        self.published_pipelines = LocalPublishedPipelines()
        self.schedules = LocalSchedules()
        self.secrets = LocalSecrets()
        self.workspace = LocalWorkspace(workspace)


class LocalExperiments:
    def start_logging(self, experiment, display_name=None):
        from .run import start_interactive

        return start_interactive(experiment, display_name=display_name)

    def portal_url(self, experiment) -> str:
        from .store import file_uri, home

        return file_uri(home())

    def tags(self, name: str):
        from .experiments import ExperimentTags

        return ExperimentTags(name)


class LocalModels:
    """The local registry of ``backends/local/models.py``."""

    def get(self, name, version=None) -> dict:
        from attrs import asdict

        from .models import get_model

        return asdict(get_model(name, version))

    def list(self, name=None) -> list:
        from attrs import asdict

        from .models import list_models

        return [asdict(m) for m in list_models(name)]

    def path_here(self, name, version=None) -> str:
        """The registered model's folder in the local store (``Model.get_model_path`` outside a job)."""
        return self.get(name, version).get("path")

    def register(self, model_path, model_name, tags, properties, description, model_framework,
                 model_framework_version, datasets) -> dict:
        from attrs import asdict

        from .models import register
        from .store import home

        folder, base = os.path.split(os.path.abspath(model_path))
        return asdict(register(store_home=home(), run_id=None, experiment_name=None, files_dir=folder,
                               file_names=[base], model_name=model_name, model_path=base, tags=tags,
                               properties=properties, description=description, model_framework=model_framework,
                               model_framework_version=model_framework_version, datasets=dict(datasets or [])))

    def update(self, record: dict) -> None:
        from .models import update

        update(record)

    def delete(self, record: dict) -> None:
        from .models import delete

        delete(record["name"], record["version"])

    def download(self, record: dict, target_dir: str, exist_ok: bool) -> str:
        from .models import Model

        return Model(**record).download(target_dir, exist_ok=exist_ok)


class LocalSecrets:
    """Secrets as files readable only by their owner, under ``<store>/secrets``."""

    def _folder(self) -> str:
        from .store import home

        return os.path.join(home(), "secrets")

    def set(self, name: str, value: str, content_type: str) -> None:
        _refuse_in_job(f"set secret {name!r}")
        _write_private(os.path.join(self._folder(), name), {"value": value, "content_type": content_type})

    def read(self, name: str):
        try:
            with open(os.path.join(self._folder(), name), encoding="utf-8") as handle:
                return json.load(handle)
        except FileNotFoundError:
            return None

    def names(self) -> list:
        folder = self._folder()
        return sorted(n for n in os.listdir(folder) if SECRET_NAME.match(n)) if os.path.isdir(folder) else []

    def delete(self, name: str) -> bool:
        _refuse_in_job(f"delete secret {name!r}")
        try:
            os.remove(os.path.join(self._folder(), name))
        except FileNotFoundError:
            return False
        return True


def _refuse_in_job(what: str) -> None:
    from .store import home
    from .store_grants import refuse

    refuse(home(), what)


def _write_private(path: str, data: dict) -> None:
    """Write via a 0600 temporary file and rename, in a 0700 folder: only the owner can read secrets."""
    folder = os.path.dirname(path)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    os.chmod(folder, 0o700)
    atomic.write_text(path, json.dumps(data))  # mkstemp: the temporary (then the file) is 0600 from the start
