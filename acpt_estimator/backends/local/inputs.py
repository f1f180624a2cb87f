"""Data inputs and outputs of a local run: local paths handed over, datastore paths mapped into the store."""

from __future__ import annotations

import json
import os
import re
import shutil

import attrs

from ...datastore_paths import download_url, fill_output_path, is_url
from ...exceptions import UserErrorException
from . import mount_ns
from .store import RunPaths, datastore_folder, within

_DATASTORE_URI = re.compile(r"^azureml://datastores/(?P<ds>[^/]+)/paths/(?P<path>.*)$")


def _local_path(uri: str) -> str | None:
    if uri.startswith("file://"):
        return uri[len("file://"):]
    if "://" in uri or uri.startswith("azureml:"):
        return None
    return uri


def input_path(item, store_home: str) -> str:
    """The path a job reads ``item`` (a DataInput) from; fails naming the path it expected."""
    local = _local_path(item.uri)
    if item.kind == "local" or local is not None:
        path = os.path.abspath(local if local is not None else item.uri)
        if not os.path.exists(path):
            raise UserErrorException(
                f"Input {item.reference_name!r} points at {path}, which does not exist. Create it or pass "
                "another path.")
        return path
    if is_url(item.uri):
        return item.uri  # a web file: downloaded into the run by materialize
    match = _DATASTORE_URI.match(item.uri)
    if match is None and item.datastore:  # a registered dataset: its datastore path is known
        match = {"ds": item.datastore, "path": item.path_on_datastore}
    if match is None:
        raise UserErrorException(
            f"Input {item.reference_name!r} ({item.uri}) is a registered dataset or remote URI; local runs read "
            "datastore paths and local folders only. Pass a datastore path (ds.path('folder')) or a local "
            "folder, or run on Azure.")
    path = datastore_folder(store_home, match["ds"], match["path"])
    if not os.path.exists(path):
        raise UserErrorException(
            f"Input {item.reference_name!r} reads datastore path {item.uri}, which has no local copy: expected "
            f"{path}. Copy the data there (local runs stand in {os.path.join(store_home, 'datastores')} for "
            "the workspace's datastores; set ACPT_ESTIMATOR_HOME to use another store), or pass a local path.")
    return path


def output_path(item, store_home: str, run_id: str = "") -> str:
    """Where the job writes an output: the datastore folder itself (mount), or the run's staging folder
    (upload: copied to the datastore after the job, as v1 and v2 upload outputs at the end). Created here."""
    match = _DATASTORE_URI.match(item.uri)
    if item.mode == "upload" and match is not None and run_id:
        path = os.path.join(RunPaths(store_home, run_id).root, "output_data", item.name)
    elif match is not None:
        path = datastore_folder(store_home, match["ds"], fill_output_path(match["path"], run_id, item.name))
    else:
        local = _local_path(item.uri)
        if local is None:
            raise UserErrorException(
                f"Output {item.reference_name!r} ({item.uri}) cannot be written by a local run; use a datastore "
                "path or a local folder.")
        path = os.path.abspath(local)
    os.makedirs(path, exist_ok=True)
    return path


def resolve(spec, store_home: str) -> dict:
    """{input name: path} for every input of ``spec``: all checked before a run is created."""
    return {item.name: input_path(item, store_home) for item in spec.inputs}


def resolve_outputs(spec, store_home: str, run_id: str) -> dict:
    """{output name: path} for every output of ``spec``, once the run's folder exists."""
    return {item.name: output_path(item, store_home, run_id) for item in spec.outputs}


def output_records(spec, output_paths: dict, run_id: str) -> list[dict]:
    """The run record's outputDatasets: where each output was written, where it lands, what to register."""
    records = []
    for item in spec.outputs:
        path_on_datastore = fill_output_path(item.path_on_datastore, run_id, item.name)
        records.append({"dataset": {"name": item.reference_name, "uri": fill_output_path(item.uri, run_id, item.name)},
                        "outputDetails": {"outputName": item.reference_name}, "localPath": output_paths[item.name],
                        "mode": item.mode, "datastore": item.datastore, "pathOnDatastore": path_on_datastore,
                        "overwrite": item.overwrite, "registration": json.loads(item.registration or "null")})
    return records


def collect_outputs(record: dict, store_home: str, completed: bool) -> list[str]:
    """After the job: upload-mode outputs land in their datastore folder; registrations happen on completion.

    Returns warnings (files kept because overwrite=False). Each output's registered dataset is recorded.
    """
    warnings = []
    for output in record.get("outputDatasets") or []:
        if not output.get("datastore"):
            continue
        destination = datastore_folder(store_home, output["datastore"], output["pathOnDatastore"])
        if output.get("mode") == "upload" and os.path.isdir(output["localPath"]):
            if not within(RunPaths(store_home, record["runId"]).root, output["localPath"]):
                warnings.append(f"Output {output['dataset']['name']!r} was not uploaded: its folder "
                                f"{output['localPath']} is a link that leads out of the run folder.")
                continue
            kept = _move_tree(output["localPath"], destination, output.get("overwrite", False))
            if kept:
                warnings.append(f"Output {output['dataset']['name']!r}: {len(kept)} file(s) already at "
                                f"{destination} were kept (overwrite=False), e.g. {kept[0]}.")
        registration = output.get("registration")
        if completed and registration:
            from .datastores import register

            path = output["pathOnDatastore"].rstrip("/") + "/" + registration.get("path_glob", "**")
            steps = {"type": registration["type"], "transformations": registration["transformations"]}
            entry = register(registration["name"], [(output["datastore"], path)], registration.get("description"),
                             registration.get("tags"), create_new_version=True, store_home=store_home, steps=steps)
            output["registered"] = {"name": entry["name"], "version": entry["version"], "id": entry["id"]}
    return warnings


def _move_tree(source: str, target: str, overwrite: bool) -> list[str]:
    kept = []
    for root, _, names in os.walk(source):
        for name in names:
            rel = os.path.relpath(os.path.join(root, name), source)
            dest = os.path.join(target, rel)
            if os.path.exists(dest) and not overwrite:
                kept.append(rel.replace(os.sep, "/"))
                continue
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.move(os.path.join(root, name), dest)
    return kept


@attrs.frozen
class Mount:
    """A bind mount the launcher makes in the job's own mount namespace: read-only unless ``writable``;
    ``recursive`` binds what is mounted below too (the store over the job's own writable binds)."""

    source: str
    target: str
    writable: bool = False
    recursive: bool = False


def bind_mounts_available() -> bool:
    """Read-only bind mounts need root with CAP_SYS_ADMIN (the job's mount namespace, mount_ns) and CAP_SETPCAP (the
    job then runs without CAP_SYS_ADMIN, so it cannot remount them read-write: mount_ns.drop_job_capabilities);
    probed once.

    Root in a plain ``docker run`` lacks CAP_SYS_ADMIN: no mount namespace can be made there, and the inputs
    are read-only copies instead (a write lands in the copy, never in the datastore).
    """
    return mount_ns.available()


def materialize(spec, sources: dict, run_root: str, bind: bool | None = None) -> tuple[dict, tuple]:
    """Where the job sees each input, and the mounts that make it so.

    - local paths (kind 'local'): handed over as they are;
    - download: the job's own writable copy under ``<run>/inputs/<name>``; the datastore is never touched;
    - mount/direct: read-only at ``<run>/inputs/<name>``: a read-only bind mount (root), else a read-only copy
      (file permissions stop non-root writers).
    """
    paths, mounts = {}, []
    for item in spec.inputs:
        source = sources[item.name]
        if item.kind == "local" or _local_path(item.uri) is not None:
            paths[item.name] = source
            continue
        folder = os.path.join(run_root, "inputs", item.name)
        target = os.path.join(folder, os.path.basename(source)) if os.path.isfile(source) else folder
        os.makedirs(folder, exist_ok=True)
        if is_url(source):  # the job's own copy of a web file
            target = os.path.join(folder, source.rsplit("/", 1)[-1] or "download")
            download_url(source, target)
        elif item.mode == "download":
            _copy(source, target)
        elif bind if bind is not None else bind_mounts_available():  # probed only for jobs that mount
            if os.path.isfile(source):
                open(target, "a").close()  # a file is bind-mounted onto a file
            mounts.append(Mount(source, target))
        else:
            _copy(source, target)
            _make_read_only(target)
        paths[item.name] = target
    return paths, tuple(mounts)


def _copy(source: str, target: str) -> None:
    if os.path.isdir(source):
        shutil.copytree(source, target, dirs_exist_ok=True)
    else:
        shutil.copyfile(source, target)


def _make_read_only(path: str) -> None:
    for root, dirs, files in os.walk(path, topdown=False):
        for name in files:
            os.chmod(os.path.join(root, name), 0o444)
        os.chmod(root, 0o555)
    if os.path.isfile(path):
        os.chmod(path, 0o444)
