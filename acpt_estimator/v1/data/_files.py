"""The files a dataset names: local datastore folders, blobs of a cloud datastore, or local paths in a job."""

from __future__ import annotations

import os
import shutil
import tempfile
import urllib.parse

from acpt_estimator.datastore_paths import download_url, is_url
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.job_runtime.acpt_datasets import local_files, select, split_glob


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
        else:  # a datastore's files: its local store folder, or its blobs
            from acpt_estimator.services import services_for

            for source, shown in services_for(datastore.workspace).datasets.files(datastore, path):
                found.setdefault(source, shown)
    return sorted(found.items(), key=lambda item: item[1])


def fetch(entries, target: str | None = None, overwrite: bool = True) -> list[tuple[str, str]]:
    """[(local path, relative path)] in the order of ``entries``: local files as they are (or copied into
    ``target``), web files and blobs downloaded (into ``target`` or a new temporary folder)."""
    result, blobs = [], {}
    scratch = None
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
            continue
        if dest is None:
            scratch = scratch or tempfile.mkdtemp(prefix="acpt-dataset-")
            dest = _destination(scratch, rel)
        if source[0] == "url":
            download_url(source[1], dest)
        else:
            blobs.setdefault(source[1].name, (source[1], []))[1].append((source[2], dest))
        result.append((dest, rel))
    if blobs:
        from acpt_estimator.backends.azureml import data_ops

        for datastore, pairs in blobs.values():
            data_ops.download_blobs(datastore.workspace, datastore.name, pairs)
    return result


def _destination(target: str, rel: str) -> str:
    """Where a dataset file goes under ``target``; a blob or file name leading out of it is refused."""
    from acpt_estimator.paths import contained

    return contained(target, rel, parameter="dataset file", what="the download folder",
                     fix="Download into a folder of its own, or rename the file in the datastore.")


def full_path(source: tuple, input_root: tuple = ()) -> str:
    """The datastore path of a listed file (what partition_format matches): a blob's name, a local store
    file's path in its datastore, a job input file's path under the input's datastore folder."""
    from acpt_estimator.job_runtime.acpt_datasets import job_relative

    if source[0] == "blob":
        return source[2]
    if source[0] == "url":
        return urllib.parse.urlsplit(source[1]).path
    if input_root and source[1].startswith(input_root[0]):
        return input_root[1] + job_relative(input_root[0], source[1])
    from acpt_estimator.backends.local.store import home

    datastores = os.path.join(home(), "datastores") + os.sep
    if source[1].startswith(datastores):  # <store>/datastores/<datastore>/<path>
        return source[1][len(datastores):].split(os.sep, 1)[-1].replace(os.sep, "/")
    return source[1]
