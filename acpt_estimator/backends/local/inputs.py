"""Data inputs and outputs of a local run: local paths handed over, datastore paths mapped into the store."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import attrs

from ...exceptions import UserErrorException
from .store import datastore_folder

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


def output_path(item, store_home: str) -> str:
    """Outputs (``as_upload``) are written straight into the local datastore folder; created here."""
    match = _DATASTORE_URI.match(item.uri)
    if match is not None:
        path = datastore_folder(store_home, match["ds"], match["path"])
    else:
        local = _local_path(item.uri)
        if local is None:
            raise UserErrorException(
                f"Output {item.reference_name!r} ({item.uri}) cannot be written by a local run; use a datastore "
                "path or a local folder.")
        path = os.path.abspath(local)
    os.makedirs(path, exist_ok=True)
    return path


def resolve(spec, store_home: str) -> tuple[dict, dict]:
    """({input name: path}, {output name: path}) for every input and output of ``spec``."""
    inputs = {item.name: input_path(item, store_home) for item in spec.inputs}
    outputs = {item.name: output_path(item, store_home) for item in spec.outputs}
    return inputs, outputs


@attrs.frozen
class Mount:
    """A read-only bind mount the launcher makes in the job's own mount namespace."""

    source: str
    target: str


_bind_probe: dict = {}


def bind_mounts_available() -> bool:
    """Read-only bind mounts need root with CAP_SYS_ADMIN and util-linux's unshare and mount; probed once.

    Root in a plain ``docker run`` lacks CAP_SYS_ADMIN: ``unshare --mount`` fails there, and the inputs
    are read-only copies instead.
    """
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    unshare = shutil.which("unshare")
    if unshare is None:
        return False
    if unshare not in _bind_probe:
        try:
            probe = subprocess.run([unshare, "--mount", "--propagation", "private", "--", "/bin/true"],
                                   stdin=subprocess.DEVNULL, capture_output=True, timeout=10)
            _bind_probe[unshare] = probe.returncode == 0
        except (OSError, subprocess.SubprocessError):
            _bind_probe[unshare] = False
    return _bind_probe[unshare]


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
        if item.mode == "download":
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
