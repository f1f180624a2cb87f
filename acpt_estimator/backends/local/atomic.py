"""Atomic publishing in the local store: files by ``os.replace``, registry versions by renaming a staged folder."""

from __future__ import annotations

import errno
import os
import shutil
import tempfile


def copy_file(source: str, dest: str) -> None:
    """Copy ``source`` to ``dest`` so a reader sees the old file or the new one, never a mix of two writers."""
    folder = os.path.dirname(dest)
    os.makedirs(folder, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(dest)}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out, open(source, "rb") as src:
            shutil.copyfileobj(src, out)
        os.replace(tmp, dest)
    except BaseException:
        _remove(tmp)
        raise


def stage(folder: str) -> str:
    """A private folder inside ``folder`` to build a version in; readers skip names starting with '.'."""
    os.makedirs(folder, exist_ok=True)
    return tempfile.mkdtemp(dir=folder, prefix=".staging-")


def claim_version(folder: str, staging: str, first: int, fill) -> int:
    """Rename ``staging`` to ``folder/<n>`` for the first free n >= ``first``; ``fill(staging, n)`` writes the
    version's record before each try. Renaming is atomic and fails on a taken version, so concurrent
    registrations from several processes all succeed, with distinct versions."""
    version = first
    while True:
        fill(staging, version)
        try:
            os.rename(staging, os.path.join(folder, str(version)))
            return version
        except OSError as err:
            if err.errno not in (errno.EEXIST, errno.ENOTEMPTY):
                shutil.rmtree(staging, ignore_errors=True)
                raise
            version += 1


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
