"""Checks on what reaches a job's processes, made when the job is described (before anything is written)."""

from __future__ import annotations

import os

from .exceptions import UserErrorException
from .paths import relative_parts

# Linux refuses a single argv/environment string over 32 pages (MAX_ARG_STRLEN) with E2BIG: the exec fails
# and a shell reports exit code 126. The whole argv must also fit in ARG_MAX next to the environment.
MAX_ARGUMENT_BYTES = 32 * 4096 - 1
_ARG_MAX = os.sysconf("SC_ARG_MAX") if hasattr(os, "sysconf") else 2 * 1024 * 1024
MAX_ARGV_BYTES = _ARG_MAX // 2  # the other half is left for the environment the job inherits


def check_source_directory(source_directory) -> None:
    if not isinstance(source_directory, (str, os.PathLike)) or not os.path.exists(source_directory):
        raise UserErrorException(
            f"source_directory={source_directory!r} does not exist (looked in {os.getcwd()}). Pass the folder that "
            "holds your training script, e.g. source_directory='./src'.")
    if not os.path.isdir(source_directory):
        folder, name = os.path.split(os.path.abspath(source_directory))
        raise UserErrorException(
            f"source_directory={source_directory!r} is a file; it must be the folder the job runs in. Pass "
            f"source_directory={folder!r} and entry_script={name!r}.")


def check_entry_script(entry_script, parameter: str = "entry_script") -> None:
    """A path relative to source_directory and inside it: the snapshot is all the cloud job has."""
    if entry_script is None:
        return
    fix = f"Pass the script's path relative to source_directory, e.g. {parameter}='train.py'."
    if not isinstance(entry_script, str) or not entry_script.strip():
        raise UserErrorException(f"{parameter}={entry_script!r} is not a script path. {fix}")
    if entry_script.startswith("-"):
        raise UserErrorException(
            f"{parameter}={entry_script!r} would be read by python as an option (-c runs its argument as code, -m "
            f"a module), not as a script. {fix}")
    if os.path.isabs(entry_script):
        raise UserErrorException(
            f"{parameter}={entry_script!r} is an absolute path: the job runs from a copy of source_directory, and "
            f"a file elsewhere on this machine is not in it. Move the script into source_directory. {fix}")
    relative_parts(entry_script, parameter=parameter, fix=f"Move the script into source_directory. {fix}")


def check_arguments(values) -> None:
    """Each literal argument: no NUL byte (exec would cut it there) and within the kernel's size limits."""
    total = 0
    for index, value in enumerate(values):
        if "\0" in value:
            raise UserErrorException(
                f"Argument {index} ({value[:60]!r}...) contains a NUL byte, which no process argument can carry "
                "(it would be cut off there). Remove it, or pass binary data through a file or data input.")
        size = len(value.encode("utf-8", "surrogateescape")) + 1
        if size > MAX_ARGUMENT_BYTES + 1:
            raise UserErrorException(
                f"Argument {index} is {size - 1} bytes; one argument may hold at most {MAX_ARGUMENT_BYTES} bytes "
                "(Linux MAX_ARG_STRLEN), so the job could not start. Write the value to a file in "
                "source_directory (or a data input) and pass its path instead.")
        total += size
    if total > MAX_ARGV_BYTES:
        raise UserErrorException(
            f"The arguments take {total} bytes together; at most {MAX_ARGV_BYTES} fit next to the job's "
            "environment (ARG_MAX), so the job could not start. Pass large values through a file in "
            "source_directory or a data input instead.")


def check_environment_variables(variables) -> None:
    """Names a process environment can hold: not empty, no '=', newline or NUL; values without NUL."""
    for name, value in dict(variables or {}).items():
        if not isinstance(name, str) or not name or any(ch in name for ch in "=\n\0"):
            raise UserErrorException(
                f"environment_variables name {name!r} cannot be an environment variable: names must be "
                "non-empty and hold no '=', newline or NUL. Use a name like 'MY_SETTING'.")
        if "\0" in str(value):
            raise UserErrorException(
                f"environment_variables[{name!r}] contains a NUL byte, which an environment value cannot carry. "
                "Remove it.")
        size = len(f"{name}={value}".encode("utf-8", "surrogateescape"))
        if size > MAX_ARGUMENT_BYTES:
            raise UserErrorException(
                f"environment_variables[{name!r}] is {size} bytes with its name; one variable may hold at most "
                f"{MAX_ARGUMENT_BYTES} (Linux MAX_ARG_STRLEN), so the job could not start. Write the value to a file "
                "in source_directory and pass its path instead.")
