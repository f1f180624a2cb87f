"""One containment check for every user string joined under a base folder (resolve, then stay inside); a file's identity."""

from __future__ import annotations

import os

from .exceptions import UserErrorException


def relative_parts(value, *, parameter: str, fix: str) -> list[str]:
    """The '/'-separated parts of a user path relative to some base; refuses '..' that climbs out, and NUL.

    A leading '/' means the base's root (v1 datastore and run-file names are relative to their store), so
    ``'/a/b'`` and ``'a/b'`` are the same place. Pure: usable at construction, before any base is known.
    """
    if not isinstance(value, str):
        raise UserErrorException(f"{parameter}={value!r} is a {type(value).__name__}; pass a relative path "
                                 f"string. {fix}")
    if "\0" in value:
        raise UserErrorException(f"{parameter}={value!r} contains a NUL byte, which no path can hold. {fix}")
    parts: list[str] = []
    for part in value.replace(os.sep, "/").split("/"):
        if part == "..":
            if not parts:
                raise UserErrorException(
                    f"{parameter}={value!r} climbs out of its folder with '..'; paths here are relative to the "
                    f"datastore, run or store they name. {fix}")
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return parts


def contained(base: str, value, *, parameter: str, fix: str, what: str = "its folder") -> str:
    """``base/value`` after checking it stays inside ``base``, symlinks resolved (a link out is refused too).

    Returns the lexical path (not the resolved one), so messages and records show the store's own layout.
    """
    parts = relative_parts(value, parameter=parameter, fix=fix)
    path = os.path.join(base, *parts)
    if not is_inside(base, path):
        raise UserErrorException(
            f"{parameter}={value!r} resolves to {os.path.realpath(path)}, outside {what} ({base}): a symbolic "
            f"link on the way leads out. {fix}")
    return path


def is_inside(base: str, path: str, base_is_real: bool = False) -> bool:
    """Whether ``path``, symlinks resolved, is ``base`` or below it. ``base_is_real``: ``base`` is resolved already
    (a caller checking many paths resolves it once: each resolution reads every folder on the way)."""
    real_base = base if base_is_real else os.path.realpath(base)
    real = os.path.realpath(path)
    return real == real_base or real.startswith(real_base.rstrip(os.sep) + os.sep)


def file_identity(path: str) -> tuple:
    """What tells one version of a file from another without reading it: (device, inode, size, mtime_ns, ctime_ns).
    A rewrite, a replacement or a chmod changes it. Raises OSError as os.stat does."""
    info = os.stat(path)
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns
