"""Properties over every route into a job's command (issue 15): no value changes the argv or runs as code, and
local and cloud deliver the same argv; names become folders and shell identifiers only when they are safe."""

from __future__ import annotations

import functools
import os
import re
import subprocess

import pytest
from hypothesis import given, settings, strategies as st

from acpt_estimator import PyTorch
from acpt_estimator.backends.azureml.command_line import render_command
from acpt_estimator.backends.local.launch import rank_argv
from acpt_estimator.exceptions import HyperDriveConfigException, UserErrorException
from acpt_estimator.hyperdrive.sweep import to_sweep_job
from acpt_estimator.names import RULES, is_valid, name_of_key, storage_key
from acpt_estimator.paths import contained, is_inside
from acpt_estimator.v1.train.hyperdrive.parameter_expressions import choice
from acpt_estimator.v1.train.hyperdrive.policy import PrimaryMetricGoal
from acpt_estimator.v1.train.hyperdrive.runconfig import HyperDriveConfig
from acpt_estimator.v1.train.hyperdrive.sampling import GridParameterSampling

from .golden_cases import SRC, _ds
from .test_command_quoting import ENV, _pieces, bash_argv
from .test_local_launch import _context

unquoted = st.lists(st.sampled_from([p for p in _pieces if "'" not in p] + ["leaky relu", "x;touch /tmp/pwn"]),
                    min_size=1, max_size=8).map("".join)
sweep_values = st.one_of(unquoted, st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False))
names = st.lists(st.sampled_from(list("aZ09_-.$;/\\ \n\t'\"`\0é") + ["..", "${{"]), max_size=12).map("".join)
paths = st.lists(st.sampled_from(["..", ".", "", "a", "b", "/", "a/..", "\0", "x y"]), max_size=8).map("/".join)


@functools.lru_cache(maxsize=None)
def _trial_estimator():
    return PyTorch(SRC, compute_target="c", entry_script="x.py", script_params={"--fixed": "$HOME"})


def _sweep(value):
    return HyperDriveConfig(
        estimator=_trial_estimator(),
        hyperparameter_sampling=GridParameterSampling({"act": choice(value)}), primary_metric_name="loss",
        primary_metric_goal=PrimaryMetricGoal.MINIMIZE, max_total_runs=1)


def _service_substitutes(command: str, values: dict) -> str:
    """What Azure ML does to a trial command: paste each sampled value's text in place of its reference."""
    program = command.splitlines()[-1].replace("python x.py", "python 'x.py'", 1)  # the line bash_argv runs
    return re.sub(r"\$\{\{search_space\.(\w+)\}\}", lambda m: str(values[m[1]]), program)


@functools.lru_cache(maxsize=None)
def _trial_command() -> str:
    """The v2 trial command does not depend on the choice values, only on the parameter's name."""
    return to_sweep_job(_sweep(0)).trial.command


@settings(max_examples=30, deadline=None)
@given(sweep_values)
def test_a_sweep_value_reaches_the_trial_as_one_unexpanded_argument_locally_and_in_the_cloud(value):
    config = _sweep(value)
    cloud = bash_argv(_service_substitutes(_trial_command(), {"act": value}))
    trial = config.trial_spec("hd", values={"act": value})
    local = rank_argv(trial, ENV, _context("/tmp"))[2:]
    assert cloud == local == ["--fixed", ENV["HOME"], "--act", str(value)]


@settings(max_examples=20, deadline=None)
@given(st.text(max_size=6).map(lambda s: s + "'" + s))
def test_a_choice_value_with_a_quote_is_refused_for_both_backends(value):
    with pytest.raises(HyperDriveConfigException, match="contains a quote"):
        _sweep(value)


def test_leaky_relu_stays_one_argument_and_a_semicolon_runs_nothing(tmp_path):
    marker = tmp_path / "ran"
    for value in ("leaky relu", f"x;touch {marker}", f"$(touch {marker})", f"`touch {marker}`"):
        command = _service_substitutes(to_sweep_job(_sweep(value)).trial.command, {"act": value})
        assert bash_argv(command)[-2:] == ["--act", value]
    assert not marker.exists()


@settings(max_examples=60, deadline=None)
@given(names)
def test_a_data_reference_name_is_refused_or_exports_exactly_its_variable(name):
    try:
        ref = _ds().path("data", data_reference_name=name).as_mount()
    except UserErrorException:
        assert not is_valid("reference", name)
        return
    spec = PyTorch(SRC, compute_target="c", entry_script="x.py", script_params={"--data": ref}).to_job_spec()
    exports = [line for line in render_command(spec).splitlines() if "AZUREML_DATAREFERENCE_" in line]
    script = "\n".join(exports).replace("${{inputs.", "/mnt/${{").replace("${{", "").replace("}}", "") + "\nenv"
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env={}, check=True).stdout
    assert [line for line in out.splitlines() if line.startswith("AZUREML_DATAREFERENCE_")] == [
        f"AZUREML_DATAREFERENCE_{name}=/mnt/{spec.inputs[0].name}"]


@settings(max_examples=60, deadline=None)
@given(names)
def test_an_input_name_is_refused_or_is_an_identifier_in_the_command(name):
    from acpt_estimator.v1.data.file_dataset import FileDataset

    try:
        cfg = FileDataset(paths=((_ds(), "data/**"),)).as_named_input(name).as_mount()
    except UserErrorException:
        assert not is_valid("identifier", name)
        return
    spec = PyTorch(SRC, compute_target="c", entry_script="x.py", inputs=[cfg]).to_job_spec()
    refs = re.findall(r"\$\{\{inputs\.([^}]*)\}\}", render_command(spec))
    assert [ref for ref in refs if ref != "acpt_job_runtime"] == [name]  # its export line


@settings(max_examples=200, deadline=None)
@given(paths)
def test_no_user_path_escapes_its_base(tmp_path_factory, value):
    base = str(tmp_path_factory.getbasetemp() / "base")
    try:
        result = contained(base, value, parameter="p", fix="")
    except UserErrorException as err:
        assert "p=" in err.message
        return
    assert is_inside(base, result) and os.path.normpath(result) == result.rstrip("/") or result == base


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(RULES)), names)
def test_a_valid_name_is_one_plain_folder_name_and_one_shell_word(kind, name):
    """Containment by encoding: any name v1 accepted becomes one plain folder name (its storage key); names
    that reach a command line (all but dataset and environment names, which v1 let hold anything) are one word."""
    if is_valid(kind, name):
        key = storage_key(name)
        assert os.path.basename(key) == key and not key.startswith(".") and len(key.encode()) <= 255
        assert not set(key) & set("/\\ \n\t\0$;'\"`")
        assert "~" in key or name_of_key(key) == name  # reversible (a cut key: the record holds the name)
        if kind not in ("dataset", "environment"):
            assert not set(name) & set("/\\ \n\t\0$;'\"`") and name == name.strip()


@settings(max_examples=30, deadline=None)
@given(st.lists(st.one_of(st.lists(st.sampled_from(_pieces), min_size=1, max_size=8).map("".join),
                          st.integers(-10**6, 10**6)), max_size=5))
def test_script_run_config_arguments_reach_the_same_argv_locally_and_in_the_cloud(arguments):
    from acpt_estimator import ScriptRunConfig
    from acpt_estimator.backends.azureml.command_line import render_argv

    spec = ScriptRunConfig(SRC, script="x.py", arguments=arguments, compute_target="c").to_job_spec()
    cloud = bash_argv(render_argv(spec).replace("python x.py", "python 'x.py'", 1))
    assert cloud == rank_argv(spec, ENV, _context("/tmp"))[2:]


@settings(max_examples=200, deadline=None)
@given(names, paths)
def test_no_datastore_name_or_path_and_no_run_id_leads_out_of_the_store(tmp_path_factory, name, path):
    from acpt_estimator.backends.local.store import datastore_folder, run_paths

    store = str(tmp_path_factory.getbasetemp() / "store")
    try:
        folder = datastore_folder(store, name, path)
    except UserErrorException:
        folder = None
    if folder is not None:
        assert is_inside(os.path.join(store, "datastores", name), folder) and "\n" not in name
    try:
        root = run_paths(name, store).root
    except UserErrorException:
        return
    assert os.path.dirname(root) == os.path.join(store, "runs") and is_inside(store, root)
