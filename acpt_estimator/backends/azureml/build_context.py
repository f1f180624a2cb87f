"""Environment build folders for upload: private (0700), created fresh, written without following links, removed
after the upload (or at exit); a caller-chosen root (captures, ACPT_ESTIMATOR_ENV_CONTEXT_DIR) keeps them."""

from __future__ import annotations

import atexit
import os
import re
import shutil
import tempfile

from ...exceptions import UserErrorException
from ...spec import EnvironmentSpec

CONTEXT_ROOT_VAR = "ACPT_ESTIMATOR_ENV_CONTEXT_DIR"
_private: list[str] = []  # temporary folders of this process, removed by remove_private()


def write_build_context(env: EnvironmentSpec, context_root: str | None = None) -> tuple:
    """(folder, Dockerfile path in it): the user's build folder as is, or the Dockerfile and its files written
    under ``<root>/<name>-<version>`` (``\\n`` line endings on every platform). Without a root the folder lies in
    a fresh private temporary folder: nobody else can plant a link or a file in it."""
    if env.context_dir and not env.dockerfile:
        return env.context_dir, env.dockerfile_path
    root = context_root or os.environ.get(CONTEXT_ROOT_VAR)
    if root is None:
        root = tempfile.mkdtemp(prefix="acpt-estimator-env-")  # 0700, unpredictable
        _private.append(root)
    folder = os.path.join(root, re.sub(r"[^\w.-]", "-", f"{env.name}-{env.version}"))
    if os.path.islink(folder) or (os.path.lexists(folder) and not os.path.isdir(folder)):
        raise UserErrorException(
            f"{folder} is a link or a file, not the environment build folder; something else wrote it. Remove it, "
            f"or point {CONTEXT_ROOT_VAR} at a folder only you can write.")
    if env.context_dir:  # a build folder plus our additions: copy it (links as links), then our Dockerfile
        shutil.copytree(env.context_dir, folder, symlinks=True, dirs_exist_ok=True)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    for rel, text in (("Dockerfile", env.dockerfile),) + tuple(env.context_files):
        _write_no_follow(os.path.join(folder, rel), text.encode("utf-8"))
    return folder, "Dockerfile"


def _write_no_follow(path: str, data: bytes) -> None:
    """Replace ``path`` with ``data``: a link planted there is replaced, never written through."""
    if os.path.islink(path):
        os.unlink(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), 0o600)
    with os.fdopen(fd, "wb") as handle:  # bytes: no platform newline translation
        handle.write(data)


def remove_private() -> None:
    """Remove the private build folders written so far (after the upload that needed them)."""
    while _private:
        shutil.rmtree(_private.pop(), ignore_errors=True)


atexit.register(remove_private)
