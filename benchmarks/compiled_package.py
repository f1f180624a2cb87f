"""The package's bytecode, compiled before a benchmark starts fresh interpreters, as an installed package has it."""

from __future__ import annotations

import compileall
import os


def compile_package() -> None:
    """The package's (and its v1 namespace's) .pyc files, where its folders are writable. With
    PYTHONDONTWRITEBYTECODE set, every fresh interpreter would otherwise compile what it imports from source (an
    editable checkout; a pip install compiles at install time)."""
    import acpt_estimator

    folders = [os.path.dirname(acpt_estimator.__file__)]
    compat = os.path.join(os.path.dirname(folders[0]), "compat")
    if os.path.isdir(compat):
        folders.append(compat)
    for folder in folders:
        if os.access(folder, os.W_OK):
            compileall.compile_dir(folder, quiet=2)
