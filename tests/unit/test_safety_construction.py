"""Careless values refused when the job is described, naming the parameter, the value and the fix (issue 15)."""

from __future__ import annotations

import os
import re

import pytest

from acpt_estimator import PyTorch, ScriptRunConfig
from acpt_estimator.exceptions import UserErrorException

from .golden_cases import SRC


def _est(**kwargs):
    values = dict(source_directory=SRC, compute_target="local", entry_script="train.py")
    values.update(kwargs)
    return PyTorch(**values)


@pytest.mark.parametrize("entry, words", [
    ("/etc/passwd", "is an absolute path"), ("../outside.py", "climbs out"), ("a/../../b.py", "climbs out"),
    ("-c", "read by python as an option"), ("-mhttp.server", "read by python as an option"), ("", "not a script")])
def test_entry_script_must_be_a_script_inside_source_directory(entry, words):
    with pytest.raises(UserErrorException, match=rf"entry_script={re.escape(repr(entry))}.*{words}.*e\.g\. entry_script='train\.py'"):
        _est(entry_script=entry)
    with pytest.raises(UserErrorException, match=rf"script={re.escape(repr(entry))}.*{words}"):
        ScriptRunConfig(SRC, script=entry)


def test_a_nul_byte_in_an_argument_is_refused_not_dropped():
    with pytest.raises(UserErrorException, match="Argument 1 .* contains a NUL byte"):
        _est(script_params={"--name": "a\0b"})
    with pytest.raises(UserErrorException, match="contains a NUL byte"):
        ScriptRunConfig(SRC, script="train.py", arguments=["--name", "a\0b"])


def test_an_argument_over_the_kernel_limit_is_refused_before_launch_with_its_size():
    with pytest.raises(UserErrorException, match=r"Argument 1 is 140000 bytes; one argument may hold at most 131071"):
        _est(script_params={"--blob": "x" * 140000})
    _est(script_params={"--blob": "x" * 131071})  # the largest that the kernel takes


def test_arguments_over_arg_max_together_are_refused():
    many = {f"--a{i}": "x" * 100000 for i in range(40)}
    with pytest.raises(UserErrorException, match=r"The arguments take \d+ bytes together; at most \d+ fit"):
        _est(script_params=many)


@pytest.mark.parametrize("name", ["A=B", "A\nB", "A\0", ""])
def test_environment_variable_names_a_process_cannot_hold_are_refused(name):
    with pytest.raises(UserErrorException, match=re.escape(f"environment_variables name {name!r} cannot be an environment")):
        _est(environment_variables={name: "1"})


def test_a_nul_in_an_environment_value_is_refused():
    with pytest.raises(UserErrorException, match=r"environment_variables\['A'\] contains a NUL byte"):
        _est(environment_variables={"A": "x\0y"})


def test_source_directory_missing_or_a_file_is_named_with_the_fix(tmp_path):
    with pytest.raises(UserErrorException, match=r"source_directory='.*nope' does not exist"):
        _est(source_directory=str(tmp_path / "nope"))
    script = tmp_path / "train.py"
    script.write_text("print(1)")
    with pytest.raises(UserErrorException, match=rf"is a file.*source_directory={str(tmp_path)!r} and "
                                                 r"entry_script='train\.py'"):
        _est(source_directory=str(script))
    with pytest.raises(UserErrorException, match="does not exist"):
        ScriptRunConfig(str(tmp_path / "nope"), script="train.py")
    assert not os.path.exists(tmp_path / "nope")


def test_an_environment_variable_over_the_kernel_limit_is_refused():
    with pytest.raises(UserErrorException, match=r"environment_variables\['BIG'\] is 140004 bytes with its name"):
        _est(environment_variables={"BIG": "x" * 140000})
