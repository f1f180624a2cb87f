"""Checks on what reaches a job's processes, made when the job is described (before anything is written)."""

from __future__ import annotations

import os
import re

from .exceptions import ComputeTargetException, UserErrorException
from .paths import relative_parts

# The v2 service substitutes ${{...}} (and $[[...]] optional blocks) in a job's command, environment variables and
# data paths; the command quotes them away (command_line.quote_plain), elsewhere there is no escape.
_V2_TEMPLATE = re.compile(r"\$(?:\{\{|\[\[)")

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


def check_environment_variables(variables, parameter: str = "environment_variables") -> None:
    """A dict of names a process environment can hold (not empty, no '=', newline or NUL) to string or number
    values without NUL; None is refused (it would be exported as the text 'None')."""
    if variables is not None and not isinstance(variables, dict):
        raise UserErrorException(
            f"{parameter}={variables!r} is a {type(variables).__name__}; it must be a dict of names to values, "
            f"e.g. {parameter}={{'MY_SETTING': '1'}}.")
    for name, value in dict(variables or {}).items():
        if value is None or not isinstance(value, (str, int, float)):
            raise UserErrorException(
                f"{parameter}[{name!r}]={value!r}: a value must be a string (or a number), not "
                f"{type(value).__name__}; it would reach the job as the text {str(value)!r}. Pass "
                f"{parameter}={{{name!r}: ''}} for an empty value, or leave the name out.")
        if not isinstance(name, str) or not name or any(ch in name for ch in "=\n\0"):
            raise UserErrorException(
                f"environment_variables name {name!r} cannot be an environment variable: names must be "
                "non-empty and hold no '=', newline or NUL. Use a name like 'MY_SETTING'.")
        check_no_template(str(value), f"{parameter}[{name!r}]",
                          "Pass the value another way (an argument, or a file in source_directory).")
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


def check_argument_list(arguments, parameter: str = "arguments") -> None:
    """A list of arguments, not one string (which would be split into one argument per character)."""
    if isinstance(arguments, (str, bytes)):
        import shlex

        raise UserErrorException(
            f"{parameter}={arguments!r} is a single string; it must be a list with one item per argument (a string "
            f"would become one argument per character). Pass {parameter}={_split(shlex, arguments)!r}.")
    if arguments is not None and not isinstance(arguments, (list, tuple)):
        raise UserErrorException(f"{parameter}={arguments!r} must be a list of arguments, e.g. "
                                 f"{parameter}=['--epochs', 10].")


def _split(shlex, text) -> list:
    try:
        return shlex.split(text if isinstance(text, str) else text.decode("utf-8", "replace"))
    except ValueError:
        return [text]


def check_compute_target(target, parameter: str = "compute_target") -> None:
    """A compute name, a ComputeTarget object (anything with a string ``name``), or None."""
    if target is None or (isinstance(target, str) and target.strip()):
        return
    if not isinstance(target, str) and isinstance(getattr(target, "name", None), str):
        return
    raise ComputeTargetException(
        f"{parameter}={target!r} is not a compute target: pass a cluster's name (e.g. {parameter}='gpu-cluster'), "
        f"'local' to run on this machine, or a ComputeTarget object (ComputeTarget(ws, 'gpu-cluster')).")


_SHM_SIZE = re.compile(r"[1-9][0-9]*[bkmgBKMG]?")


def check_shm_size(shm_size, parameter: str = "shm_size") -> None:
    """Docker's size syntax, as v1 and v2 take it: a number and one of b, k, m, g (e.g. '2g')."""
    if shm_size is None or (isinstance(shm_size, str) and _SHM_SIZE.fullmatch(shm_size)):
        return
    raise UserErrorException(
        f"{parameter}={shm_size!r} is not a size: pass a number with a unit b, k, m or g as a string, e.g. "
        f"{parameter}='2g' (2 GB of shared memory for the job's container).")


def check_tags(tags, parameter: str = "tags") -> None:
    """A dict of string names to string values: the run records and Azure ML keep tags as text."""
    if tags is None:
        return
    if not isinstance(tags, dict):
        raise UserErrorException(f"{parameter}={tags!r} must be a dict of names to values, e.g. "
                                 f"{parameter}={{'team': 'vision'}}.")
    for name, value in tags.items():
        if not isinstance(name, str) or not isinstance(value, str):
            raise UserErrorException(
                f"{parameter} holds {name!r}: {value!r}; tag names and values must be strings (a number would be "
                f"kept as a number locally and as text in Azure ML). Pass {parameter}={{{str(name)!r}: "
                f"{('' if value is None else str(value))!r}}}.")


def check_no_template(text: str, parameter: str, fix: str) -> None:
    """Refuse '${{' and '$[[' where Azure ML would replace them with job values and nothing can escape them."""
    if isinstance(text, str) and _V2_TEMPLATE.search(text):
        raise UserErrorException(
            f"{parameter}={text!r} holds '${{{{' or '$[[', which Azure ML replaces with job values (${{{{inputs.x}}}}) "
            f"there, so the job would see something else than written. {fix}")
