"""The local model registry: ``run.register_model`` copies run files into ``<home>/models/<name>/<version>``."""

from __future__ import annotations

import os
import re
import shutil
import time

import attrs

from ...exceptions import ModelPathNotFoundException, UserErrorException
from .store import home, models_folder, read_json, utc_iso, write_json

_NAME = re.compile(r"^[a-zA-Z0-9][a-zA-Z0-9\-_.]{0,254}$")


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
    if not isinstance(model_name, str) or not _NAME.match(model_name):
        raise UserErrorException(
            f"model_name={model_name!r} is not a valid model name: use letters, digits, '-', '_' and '.', "
            "starting with a letter or digit, at most 255 characters.")


def register(*, store_home: str, run_id: str, experiment_name: str, files_dir: str, file_names, model_name: str,
             model_path: str, tags=None, properties=None, description=None, model_framework=None,
             model_framework_version=None, datasets=None) -> Model:
    check_name(model_name)
    relative = model_path.strip("/")
    source = os.path.join(files_dir, *relative.split("/"))
    if not relative or not os.path.exists(source):
        shown = list(file_names)[:20]
        raise ModelPathNotFoundException(
            f"Could not locate the provided model_path {model_path} in the set of files uploaded to the run: "
            f"{shown}\nSee https://aka.ms/run-logging for more details. (Write the model under ./outputs in "
            "the job, e.g. outputs/model.pt, and pass that path.)")
    folder = os.path.join(models_folder(store_home), model_name)
    version = _claim_version(folder)
    target = os.path.join(folder, str(version), os.path.basename(relative))
    if os.path.isdir(source):
        shutil.copytree(source, target)
    else:
        shutil.copyfile(source, target)
    model = Model(name=model_name, version=version, path=target, run_id=run_id, experiment_name=experiment_name,
                  tags=dict(tags or {}), properties=dict(properties or {}), description=description,
                  model_framework=model_framework, model_framework_version=model_framework_version,
                  created_time=utc_iso(time.time()), datasets=dict(datasets or {}))
    write_json(os.path.join(folder, str(version), "model.json"), attrs.asdict(model))
    return model


def _claim_version(folder: str) -> int:
    """The next version; mkdir is atomic, so two registrations at once get different versions."""
    os.makedirs(folder, exist_ok=True)
    version = max(_versions(folder), default=0) + 1
    while True:
        try:
            os.mkdir(os.path.join(folder, str(version)))
            return version
        except FileExistsError:
            version += 1


def _versions(folder: str) -> list[int]:
    try:
        return [int(n) for n in os.listdir(folder) if n.isdigit()]
    except FileNotFoundError:
        return []


def get_model(name: str, version: int | None = None, store_home: str | None = None) -> Model:
    """A registered model (the latest version by default)."""
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
    names = [name] if name else (sorted(os.listdir(root)) if os.path.isdir(root) else [])
    found = []
    for model_name in names:
        for version in sorted(_versions(os.path.join(root, model_name))):
            path = os.path.join(root, model_name, str(version), "model.json")
            if os.path.isfile(path):
                found.append(Model(**read_json(path)))
    return found
