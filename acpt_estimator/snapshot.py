"""The files of a source directory that a job sees, for both backends: .amlignore if present, else .gitignore
(never both); symbolic links that lead outside the folder are never followed."""

from __future__ import annotations

import os
import shutil

import pathspec

from .exceptions import ExperimentExecutionException
from .paths import is_inside

IGNORE_FILES = (".amlignore", ".gitignore")


def ignore_spec(source_directory: str) -> pathspec.GitIgnoreSpec | None:
    """v1 semantics: the first of .amlignore/.gitignore at the root decides; no default excludes."""
    for name in IGNORE_FILES:
        path = os.path.join(source_directory, name)
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as handle:
                return pathspec.GitIgnoreSpec.from_lines(handle)
    return None


def local_store_inside(source_directory: str) -> str | None:
    """The local run store's folder relative to ``source_directory`` ('.acpt/'), when it lies inside it.

    Running a driver from its own project folder puts ./.acpt there; a snapshot must never carry earlier runs.
    """
    store = os.path.abspath(os.environ.get("ACPT_ESTIMATOR_HOME") or ".acpt")
    rel = os.path.relpath(store, os.path.abspath(source_directory)).replace(os.sep, "/")
    return None if rel == "." or rel.startswith("../") else rel + "/"


def snapshot_files(source_directory: str) -> list[str]:
    """Relative POSIX paths of the files in the snapshot, sorted; ignored folders (and the local run store)
    are not descended into, and links leading outside ``source_directory`` are left out."""
    return walk_snapshot(source_directory)[0]


def walk_snapshot(source_directory: str) -> tuple[list[str], list[str]]:
    """(snapshot files, links leading outside): the (not ignored) symbolic links to files or folders outside
    ``source_directory``, which an upload would follow, so the snapshot guard refuses them."""
    spec = ignore_spec(source_directory)
    store = local_store_inside(source_directory)
    files, outside = [], []
    for root, dirs, names in os.walk(source_directory):  # never descends into linked folders
        rel_root = os.path.relpath(root, source_directory)
        rel_root = "" if rel_root == "." else rel_root.replace(os.sep, "/") + "/"
        if spec is not None:
            dirs[:] = [d for d in dirs if not spec.match_file(rel_root + d + "/")]
        if store is not None:
            dirs[:] = [d for d in dirs if rel_root + d + "/" != store]
        outside += [rel_root + d for d in dirs if _leads_out(source_directory, root, d)]
        for name in names:
            rel = rel_root + name
            if spec is not None and spec.match_file(rel):
                continue
            if _leads_out(source_directory, root, name):
                outside.append(rel)
            else:
                files.append(rel)
    return sorted(files), sorted(outside)


def _leads_out(source_directory: str, root: str, name: str) -> bool:
    path = os.path.join(root, name)  # a dangling link leads nowhere: copying names it (copy_snapshot)
    return os.path.islink(path) and os.path.exists(path) and not is_inside(source_directory, path)


def copy_snapshot(source_directory: str, destination: str, files: list[str] | None = None) -> list[str]:
    """Copy the snapshot (content and mode) into ``destination`` (created); the source tree is only read."""
    files = snapshot_files(source_directory) if files is None else files
    os.makedirs(destination, exist_ok=True)
    for rel in files:
        target = os.path.join(destination, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        path = os.path.join(source_directory, rel)
        try:
            shutil.copy(path, target)  # content and mode; copy2's xattr/utime calls cost time
        except FileNotFoundError:
            if not os.path.islink(path):
                raise
            raise ExperimentExecutionException(
                f"source_directory holds a dangling symbolic link {path} -> {os.readlink(path)!r}; local runs "
                "copy the source folder. Remove the link, point it at an existing file, or list it in "
                ".amlignore.") from None
    return files
