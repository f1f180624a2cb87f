"""The local model registry: ``run.register_model`` copies run files into ``<home>/models/<name>/<version>``."""

from __future__ import annotations

import os
import shutil
import time

import attrs

from ...exceptions import ModelPathNotFoundException, UserErrorException
from ...names import check
from ...paths import contained
from . import atomic
from .store_grants import refuse
from .store import home, models_folder, read_json, utc_iso, write_json


@attrs.define
class Model:
    """What v1's ``Model`` offers drivers: name, version, id, tags, properties, and ``download``."""

    name: str
    version: int
    path: str  # the registered copy on this machine
    run_id: str | None = None
    experiment_name: str | None = None
    tags: dict = attrs.field(factory=dict)
    properties: dict = attrs.field(factory=dict)
    description: str | None = None
    model_framework: str | None = None
    model_framework_version: str | None = None
    created_time: str | None = None
    datasets: dict = attrs.field(factory=dict)

    @property
    def id(self) -> str:
        return f"{self.name}:{self.version}"

    def download(self, target_dir=".", exist_ok=False, exists_ok=None) -> str:
        """Copy the model into ``target_dir``; returns the copied path (v1's return value)."""
        target = os.path.join(target_dir, os.path.basename(self.path))
        if os.path.exists(target) and not (exist_ok or exists_ok):
            raise UserErrorException(f"File {target} already exists. Pass exist_ok=True to overwrite it.")
        os.makedirs(target_dir, exist_ok=True)
        if os.path.isdir(self.path):
            shutil.copytree(self.path, target, dirs_exist_ok=True)
        else:
            shutil.copyfile(self.path, target)
        return target


def check_name(model_name) -> None:
    check("model", model_name, parameter="model_name")


def register(*, store_home: str, run_id: str, experiment_name: str, files_dir: str, file_names, model_name: str,
             model_path: str, tags=None, properties=None, description=None, model_framework=None,
             model_framework_version=None, datasets=None) -> Model:
    check_name(model_name)
    source = contained(files_dir, model_path, parameter="model_path", what="the run's files",
                       fix="Pass the model's path among the run's files, e.g. model_path='outputs/model.pt'.")
    relative = os.path.relpath(source, files_dir).replace(os.sep, "/")
    if relative == "." or not os.path.exists(source):
        shown = list(file_names)[:20]
        raise ModelPathNotFoundException(
            f"Could not locate the provided model_path {model_path} in the set of files uploaded to the run: "
            f"{shown}\nSee https://aka.ms/run-logging for more details. (Write the model under ./outputs in "
            "the job, e.g. outputs/model.pt, and pass that path.)")
    if os.environ.get("ACPT_ESTIMATOR_STORE_VIEW"):  # a job with a read-only store: its driver registers it
        from .store_grants import protected, request

        if protected(store_home):
            return Model(**request("model", run_id=run_id, experiment_name=experiment_name, files_dir=files_dir,
                                   file_names=list(file_names), model_name=model_name, model_path=model_path,
                                   tags=tags, properties=properties, description=description,
                                   model_framework=model_framework, model_framework_version=model_framework_version,
                                   datasets=datasets))
    folder = os.path.join(models_folder(store_home), model_name)
    model = Model(name=model_name, version=0, path="", run_id=run_id, experiment_name=experiment_name,
                  tags=dict(tags or {}), properties=dict(properties or {}), description=description,
                  model_framework=model_framework, model_framework_version=model_framework_version,
                  created_time=utc_iso(time.time()), datasets=dict(datasets or {}))
    leaf = os.path.basename(relative)

    def fill(staging: str, version: int) -> None:
        # model.json is written for each claimed version: a reader never sees a version without it.
        model.version, model.path = version, os.path.join(folder, str(version), leaf)
        write_json(os.path.join(staging, "model.json"), attrs.asdict(model))

    staging = atomic.stage(folder)
    try:
        if os.path.isdir(source):
            shutil.copytree(source, os.path.join(staging, leaf))
        else:
            shutil.copyfile(source, os.path.join(staging, leaf))
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    atomic.claim_version(folder, staging, max(_versions(folder), default=0) + 1, fill)
    return model


def _versions(folder: str) -> list[int]:
    try:
        return [int(n) for n in os.listdir(folder) if n.isdigit()]
    except FileNotFoundError:
        return []


def get_model(name: str, version: int | None = None, store_home: str | None = None) -> Model:
    """A registered model (the latest version by default)."""
    check_name(name)
    folder = os.path.join(models_folder(store_home or home()), name)
    versions = sorted(_versions(folder))
    chosen = version if version is not None else (versions[-1] if versions else None)
    path = os.path.join(folder, str(chosen), "model.json")
    if chosen is None or not os.path.isfile(path):
        raise UserErrorException(
            f"Model {name!r} version {version if version is not None else '(latest)'} is not registered in "
            f"{models_folder(store_home or home())}; registered versions: {versions}.")
    return Model(**read_json(path))


def list_models(name: str | None = None, store_home: str | None = None) -> list[Model]:
    root = models_folder(store_home or home())
    names = [check_name(name) or name] if name else (sorted(os.listdir(root)) if os.path.isdir(root) else [])
    found = []
    for model_name in names:
        for version in sorted(_versions(os.path.join(root, model_name))):
            path = os.path.join(root, model_name, str(version), "model.json")
            if os.path.isfile(path):
                found.append(Model(**read_json(path)))
    return found


def _record_path(name: str, version: int, store_home: str | None = None) -> str:
    path = os.path.join(models_folder(store_home or home()), name, str(version), "model.json")
    if not os.path.isfile(path):
        raise UserErrorException(f"Model {name!r} version {version} is not registered in "
                                 f"{models_folder(store_home or home())}.")
    return path


def update(record: dict, store_home: str | None = None) -> None:
    """Rewrite a registered version's tags, properties and description (its files stay)."""
    check_name(record["name"])
    refuse(store_home or home(), f"change registered model {record['name']}:{record['version']}")
    path = _record_path(record["name"], int(record["version"]), store_home)
    write_json(path, attrs.asdict(Model(**{**read_json(path), "tags": dict(record["tags"]),
                                          "properties": dict(record["properties"]),
                                          "description": record["description"]})))


def delete(name: str, version: int, store_home: str | None = None) -> None:
    """Remove one registered version with its files."""
    check_name(name)
    refuse(store_home or home(), f"delete registered model {name}:{version}")
    path = _record_path(name, int(version), store_home)
    shutil.rmtree(os.path.dirname(path))
