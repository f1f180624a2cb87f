"""The command a launcher made ahead is given (cgroup_spawn._command): the fields cgroup_spawn.c reads, exactly."""

from __future__ import annotations

import os

from acpt_estimator.backends.local.cgroup_spawn import _command


def test_a_command_is_its_argument_count_arguments_and_variables_each_ending_in_a_nul():
    argv = ["/usr/bin/mpiexec", "-n", "2", "a b"]
    env = {"PATH": "/usr/bin", "EMPTY": "", "EQUALS": "a=b"}
    assert _command(argv, env) == b"4\0/usr/bin/mpiexec\0-n\0" + b"2\0a b\0PATH=/usr/bin\0EMPTY=\0EQUALS=a=b\0"


def test_bytes_that_are_not_utf_8_reach_the_command_unchanged():
    raw = b"caf\xe9"  # (latin-1 in a UTF-8 locale: os.environ holds it as a surrogate escape)
    text = os.fsdecode(raw)
    assert _command([os.fsdecode(b"/bin/" + raw)], {"V": text}) == b"1\0/bin/" + raw + b"\0V=" + raw + b"\0"


def test_a_nul_anywhere_cannot_be_sent():
    assert _command(["/bin/true", "a\0b"], {}) is None
    assert _command(["/bin/true"], {"V": "a\0b"}) is None
    assert _command(["/bin/true"], {"A\0B": "v"}) is None
