"""Local datastores and datasets: folders under ``<store>/datastores`` and a versioned registry in ``<store>/datasets``."""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import time
import uuid

from ...exceptions import UserErrorException
from ...names import check, name_of_key, storage_key
from ...paths import contained
from . import atomic
from .store import datastore_folder, home, utc_iso
from .store_grants import refuse

DATASETS = "datasets"


def list_source_files(src_dir: str) -> list[str]:
    """Relative paths of the files under ``src_dir``; a missing folder is an error naming it."""
    if not os.path.isdir(src_dir):
        raise UserErrorException(f"upload source folder {src_dir!r} does not exist (or is not a folder). "
                                 "Pass the folder that holds the data, e.g. src_dir='./data'.")
    files = []
    for root, _, names in os.walk(src_dir):
        for name in names:
            files.append(os.path.relpath(os.path.join(root, name), src_dir).replace(os.sep, "/"))
    return sorted(files)


def upload(datastore_name: str, src_dir: str, target_path: str | None, overwrite: bool, show_progress: bool,
           files: list[str] | None = None, store_home: str | None = None) -> list[str]:
    """Copy files into the local datastore folder. Identical files are skipped; differing ones need overwrite.

    Every conflict is found before anything is copied, so a refused upload changes nothing.
    """
    files = list_source_files(src_dir) if files is None else files
    target = datastore_folder(store_home or home(), datastore_name, target_path or "", parameter="target_path")
    refuse(store_home or home(), f"upload to datastore {datastore_name!r} path {target_path or '/'!r}", target)
    conflicts, todo = [], []
    for rel in files:
        source, dest = os.path.join(src_dir, rel), contained(
            target, rel, parameter="files", what=f"datastore {datastore_name!r}",
            fix="Pass files under relative_root (or leave relative_root out).")
        if os.path.exists(dest):
            if filecmp.cmp(source, dest, shallow=False):
                continue  # already there: nothing to re-upload
            if not overwrite:
                conflicts.append(rel)
                continue
        todo.append(rel)
    if conflicts:
        shown = ", ".join(conflicts[:5]) + (f" and {len(conflicts) - 5} more" if len(conflicts) > 5 else "")
        raise UserErrorException(
            f"Uploading {src_dir!r} to datastore {datastore_name!r} path {target_path or '/'!r} would overwrite "
            f"{len(conflicts)} different file(s): {shown}. Pass overwrite=True to replace them; nothing was uploaded.")
    if show_progress:
        print(f"Uploading an estimated of {len(files)} files ({len(files) - len(todo)} already there)")
    cleaned: set = set()
    for count, rel in enumerate(todo, 1):
        atomic.copy_file(os.path.join(src_dir, rel), os.path.join(target, *rel.split("/")), cleaned)
        if show_progress:
            print(f"Uploaded {rel}, {count} files out of an estimated total of {len(todo)}")
    if show_progress:
        print(f"Uploaded {len(todo)} files")
    return todo


# ---- the dataset registry ----------------------------------------------------------------------------
def _registry(name: str, store_home: str | None = None) -> str:
    """The dataset's folder: its name as a storage key (any v1 name, never a path)."""
    return os.path.join(store_home or home(), DATASETS, storage_key(check("dataset", name, parameter="name")))


def _versions(folder: str) -> list[int]:
    try:
        return sorted(int(v) for v in os.listdir(folder) if v.isdigit())
    except FileNotFoundError:
        return []


def register(name: str, paths: list, description=None, tags=None, create_new_version=False,
             store_home: str | None = None, steps: dict | None = None) -> dict:
    """Record ``paths`` ((datastore, path) pairs) and ``steps`` (a tabular dataset's type and transformations)
    under ``name``; the new version appears whole or not at all."""
    base = store_home or home()
    refuse(base, f"register dataset {name!r}")
    folder = _registry(name, base)
    for datastore, path in paths:
        if datastore is None:
            continue  # a web URL: read from the web, nothing to check here
        data = datastore_folder(base, datastore, _without_glob(path))
        if not os.path.exists(data):
            raise UserErrorException(
                f"Cannot register dataset {name!r}: datastore {datastore!r} has no {path!r} here ({data}). "
                "Upload the data first (ds.upload(...) or Dataset.File.upload_directory(...)); nothing was registered.")
    versions = _versions(folder)
    definition = {"paths": [[d, p] for d, p in paths], **(steps or {})}
    if versions:
        latest = get(name, None, base)
        if all(latest.get(k) == v for k, v in definition.items()):
            return latest  # v1: registering the same definition again returns the existing version
        if not create_new_version:
            raise UserErrorException(
                f"Dataset {name!r} is already registered (version {versions[-1]}) with other paths. Pass "
                "create_new_version=True to register a new version, or choose another name.")
    record = dict(definition, name=name, description=description, tags=dict(tags or {}),
                  createdTime=utc_iso(time.time()), id=str(uuid.uuid4()))

    def fill(staging: str, version: int) -> None:
        record["version"] = version
        with open(os.path.join(staging, "dataset.json"), "w", encoding="utf-8") as handle:
            json.dump(record, handle, indent=2)

    atomic.claim_version(folder, atomic.stage(folder), (versions[-1] + 1) if versions else 1, fill)
    return record


def _write_record(folder: str, record: dict) -> None:
    staging = os.path.join(folder, ".dataset.json.tmp")
    with open(staging, "w", encoding="utf-8") as handle:
        json.dump(record, handle, indent=2)
    os.replace(staging, os.path.join(folder, "dataset.json"))  # readers see the old record or the new one


def names(store_home: str | None = None) -> list[str]:
    """Every registered dataset name (with at least one version)."""
    root = os.path.join(store_home or home(), DATASETS)
    if not os.path.isdir(root):
        return []
    return sorted(_name_in(os.path.join(root, key), key) for key in os.listdir(root)
                  if not key.startswith(".") and _versions(os.path.join(root, key)))


def _name_in(folder: str, key: str) -> str:
    """The v1 name a registry folder holds (from its record: a cut, hashed key does not spell it out)."""
    if "~" not in key:
        return name_of_key(key)
    with open(os.path.join(folder, str(_versions(folder)[-1]), "dataset.json"), encoding="utf-8") as handle:
        return json.load(handle)["name"]


def get_by_id(dataset_id: str, store_home: str | None = None) -> dict | None:
    for name in names(store_home):
        for version in _versions(_registry(name, store_home)):
            record = get(name, version, store_home)
            if record.get("id") == dataset_id:
                return record
    return None


def update(name: str, version, store_home: str | None = None, **fields) -> dict:
    """Change description/tags of one registered version in place."""
    refuse(store_home or home(), f"change registered dataset {name!r}")
    record = get(name, version, store_home)
    record.update(fields)
    _write_record(os.path.join(_registry(name, store_home), str(record["version"])), record)
    return record


def unregister(name: str, store_home: str | None = None) -> None:
    """Remove every version of ``name`` (v1's unregister_all_versions)."""
    refuse(store_home or home(), f"unregister dataset {name!r}")
    folder = _registry(name, store_home)
    if os.path.isdir(folder):
        doomed = os.path.join(os.path.dirname(folder), f".deleting-{uuid.uuid4().hex[:8]}")
        os.rename(folder, doomed)  # gone at once for readers, then removed
        shutil.rmtree(doomed, ignore_errors=True)


def get(name: str, version=None, store_home: str | None = None) -> dict:
    folder = _registry(name, store_home)
    versions = _versions(folder)
    chosen = versions[-1] if version in (None, "latest") and versions else version
    path = os.path.join(folder, str(chosen), "dataset.json")
    if chosen is None or not os.path.isfile(path):
        known = names(store_home)
        raise UserErrorException(
            f"Dataset {name!r} (version {version or 'latest'}) is not registered in the local store "
            f"{os.path.dirname(folder)}; registered: {known or 'none'}. Register it with dataset.register(ws, "
            f"{name!r}) (or set ACPT_ESTIMATOR_HOME to the store that has it).")
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def _without_glob(path: str) -> str:
    from acpt_estimator.datastore_paths import strip_glob

    return strip_glob(path) if any(ch in path for ch in "*?[") else path


def download(datastore_name: str, target_path: str, prefix: str | None, overwrite: bool, show_progress: bool,
             store_home: str | None = None) -> int:
    """v1 ``datastore.download``: files whose path starts with ``prefix`` copied under ``target_path``."""
    from ...datastore_paths import download_each
    from ...job_runtime.acpt_datasets import local_files

    root = datastore_folder(store_home or home(), datastore_name)
    names = local_files(root) if os.path.isdir(root) else []  # a killed writer's temporary files are not data
    wanted = [n for n in names if n.startswith((prefix or "").lstrip("/"))]
    return download_each(wanted, target_path, overwrite, show_progress,
                         lambda rel, dest: shutil.copyfile(os.path.join(root, rel), dest))
