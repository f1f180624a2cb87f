"""The files of a source directory that a job sees: .amlignore if present, else .gitignore (never both)."""

from __future__ import annotations

import os
import shutil

import pathspec

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
    are not descended into."""
    spec = ignore_spec(source_directory)
    store = local_store_inside(source_directory)
    files = []
    for root, dirs, names in os.walk(source_directory):
        rel_root = os.path.relpath(root, source_directory)
        rel_root = "" if rel_root == "." else rel_root.replace(os.sep, "/") + "/"
        if spec is not None:
            dirs[:] = [d for d in dirs if not spec.match_file(rel_root + d + "/")]
        if store is not None:
            dirs[:] = [d for d in dirs if rel_root + d + "/" != store]
        for name in names:
            rel = rel_root + name
            if spec is None or not spec.match_file(rel):
                files.append(rel)
    return sorted(files)


def copy_snapshot(source_directory: str, destination: str) -> list[str]:
    """Copy the snapshot into ``destination`` (created); the source tree is only read."""
    files = snapshot_files(source_directory)
    for rel in files:
        target = os.path.join(destination, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(os.path.join(source_directory, rel), target)
    os.makedirs(destination, exist_ok=True)
    return files
