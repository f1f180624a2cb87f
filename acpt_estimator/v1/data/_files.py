"""The files a dataset names: local datastore folders, blobs of a cloud datastore, or local paths in a job."""

from __future__ import annotations

import os
import shutil
import tempfile
import urllib.parse

from acpt_estimator.datastore_paths import download_url, is_local_workspace, is_url
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.job_runtime.acpt_datasets import local_files, select, split_glob


def _datastore_root(datastore) -> str:
    from acpt_estimator.backends.local.store import datastore_folder, home

    return datastore_folder(home(), datastore.name)


def list_files(paths) -> list[tuple[tuple, str]]:
    """[(source, relative path)]: source is ('local', abs path) or ('blob', datastore, blob name); sorted, unique."""
    found = {}
    for datastore, path in paths:
        if datastore is None and is_url(path):  # a web file
            found.setdefault(("url", path), urllib.parse.urlsplit(path).path.rsplit("/", 1)[-1] or "download")
        elif datastore is None:  # a local path (a dataset input inside a job)
            base, pattern = split_glob(path)
            for rel, shown in select(local_files(base), pattern or ""):
                found.setdefault(("local", os.path.join(base, rel) if os.path.isdir(base) else base), shown)
        elif is_local_workspace(datastore.workspace):
            root, prefix = _datastore_root(datastore), split_glob(path.lstrip("/"))[0]
            start = os.path.join(root, *prefix.split("/"))
            listed = [prefix.rstrip("/") + "/" + f if prefix.strip("/") else f for f in local_files(start)] \
                if os.path.isdir(start) else [prefix] if os.path.isfile(start) else []
            for rel, shown in select(listed, path):
                found.setdefault(("local", os.path.join(root, *rel.split("/"))), shown)
        else:
            from acpt_estimator.backends.azureml import data_ops

            names = data_ops.list_blobs(datastore.workspace, datastore.name, split_glob(path.lstrip("/"))[0])
            for rel, shown in select(names, path):
                found.setdefault(("blob", datastore, rel), shown)
    return sorted(found.items(), key=lambda item: item[1])


def fetch(entries, target: str | None = None, overwrite: bool = True) -> list[tuple[str, str]]:
    """[(local path, relative path)]: local files as they are (or copied into ``target``), blobs downloaded."""
    result, blobs = [], {}
    for source, rel in entries:
        dest = _destination(target, rel) if target else None
        if dest and os.path.exists(dest) and not overwrite:
            raise UserErrorException(
                f"download: {dest} already exists. Pass overwrite=True to replace it, or another target_path.")
        if source[0] == "local":
            if dest:
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                shutil.copyfile(source[1], dest)
            result.append((dest or source[1], rel))
        elif source[0] == "url":
            dest = dest or os.path.join(tempfile.mkdtemp(prefix="acpt-dataset-"), rel)
            download_url(source[1], dest)
            result.append((dest, rel))
        else:
            blobs.setdefault(source[1].name, (source[1], []))[1].append((source[2], rel))
    if blobs:
        from acpt_estimator.backends.azureml import data_ops

        target = target or tempfile.mkdtemp(prefix="acpt-dataset-")
        for datastore, items in blobs.values():
            pairs = [(name, _destination(target, rel)) for name, rel in items]
            data_ops.download_blobs(datastore.workspace, datastore.name, pairs)
            result += [(_destination(target, rel), rel) for _, rel in items]
    return result


def _destination(target: str, rel: str) -> str:
    """Where a dataset file goes under ``target``; a blob or file name leading out of it is refused."""
    from acpt_estimator.paths import contained

    return contained(target, rel, parameter="dataset file", what="the download folder",
                     fix="Download into a folder of its own, or rename the file in the datastore.")
