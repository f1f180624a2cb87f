"""Property: the argv a real bash delivers from our command equals the intended argv; no value injects anything."""

import json
import os
import re
import subprocess
import sys

from hypothesis import given, settings, strategies as st

from acpt_estimator import PyTorch
from acpt_estimator.arguments import expand_vars
from acpt_estimator.backends.azureml.command_line import render_argv, render_command

from .golden_cases import SRC

PRINT_ARGV = "import json, sys; print(json.dumps(sys.argv[1:]))"
ENV = {"PATH": os.environ.get("PATH", ""), "AZ_BATCHAI_TASK_INDEX": "3", "MASTER_ADDR": "10.0.0.4", "HOME": "/h"}

# Text with the characters that break naive quoting: quotes, $, backticks, ;, |, &, newlines, braces, globs.
_pieces = list("ab $'\"`;|&\\{}[]()*?!~#\n\t-=:/") + ["${{", "$[[", "$(", "$HOME", "${MASTER_ADDR}", "inputs."]
tricky = st.lists(st.sampled_from(_pieces), max_size=12).map("".join)
values = st.one_of(tricky, st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False))


def bash_argv(command_line: str) -> list:
    # render_argv starts with "python <entry>"; swap the program for one that prints its argv.
    program = command_line.replace("python 'x.py'", f"{sys.executable} -c {json.dumps(PRINT_ARGV)}", 1)
    out = subprocess.run(["bash", "-c", program], capture_output=True, text=True, env=ENV, check=True)
    return json.loads(out.stdout)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(tricky.filter(bool), values), max_size=4))
def test_bash_delivers_intended_argv(pairs):
    params = {}
    for key, value in pairs:
        params.setdefault(key, value)
    est = PyTorch(SRC, compute_target="c", entry_script="x.py", script_params=params)
    spec = est.to_job_spec()
    command = render_argv(spec).replace("python x.py", "python 'x.py'")
    expected = [expand_vars(t.value, ENV) for t in spec.arguments]
    assert bash_argv(command) == expected
    command = render_command(spec)
    # The only template references are ours (the job-runtime folder), never one formed by a value.
    assert set(re.findall(r"\$\{\{([^}]*)\}\}", command)) <= {"inputs.acpt_job_runtime"} and "$[[" not in command


def test_v1_variables_expand_in_the_job():
    est = PyTorch(SRC, compute_target="c", entry_script="x.py",
                  script_params={"--rank": "$AZ_BATCHAI_TASK_INDEX", "--url": "tcp://${MASTER_ADDR}:6105"})
    command = render_argv(est.to_job_spec()).replace("python x.py", "python 'x.py'")
    assert bash_argv(command) == ["--rank", "3", "--url", "tcp://10.0.0.4:6105"]


def test_outputs_and_logs_exist_before_the_script_starts(tmp_path):
    """v1 jobs found ./outputs and ./logs; the v2 command creates them before the program runs."""
    est = PyTorch(SRC, compute_target="c", entry_script="x.py")
    command = render_command(est.to_job_spec())
    code = "import os; print(os.path.isdir('outputs'), os.path.isdir('logs'))"
    probe = f"{sys.executable} -c {json.dumps(code)}"
    lines = command.splitlines()
    lines[-1] = probe  # the program: replaced by one that reports what it finds
    program = "\n".join(line for line in lines if "inputs.acpt_job_runtime" not in line)
    out = subprocess.run(["bash", "-c", program], capture_output=True, text=True, env=ENV, cwd=tmp_path, check=True)
    assert out.stdout.split() == ["True", "True"]
