"""Careless types and values, round 3 (issue 23): each refused at once, naming the parameter, the value and the fix,
with v1's exception classes."""

from __future__ import annotations

import re

import pytest

from acpt_estimator import PyTorch, ScriptRunConfig
from acpt_estimator.exceptions import ComputeTargetException, TrainingException, UserErrorException
from acpt_estimator.v1.core.experiment import Experiment

from .golden_cases import SRC


def _est(**kwargs):
    values = dict(source_directory=SRC, compute_target="local", entry_script="train.py")
    values.update(kwargs)
    return PyTorch(**values)


@pytest.mark.parametrize("kwargs, error, pattern", [
    (dict(pip_packages="numpy"), UserErrorException,
     r"pip_packages='numpy' is a single string.*one-letter packages.*Pass pip_packages=\['numpy'\]"),
    (dict(conda_packages="scipy"), UserErrorException, r"conda_packages='scipy' is a single string"),
    (dict(environment_variables=["A=1"]), UserErrorException,
     r"environment_variables=\['A=1'\] is a list; it must be a dict.*environment_variables=\{'MY_SETTING': '1'\}"),
    (dict(environment_variables={"A": None}), UserErrorException,
     r"environment_variables\['A'\]=None.*the text 'None'.*environment_variables=\{'A': ''\}"),
    (dict(compute_target=42), ComputeTargetException, r"compute_target=42 is not a compute target.*'gpu-cluster'"),
    (dict(shm_size="lots"), UserErrorException, r"shm_size='lots' is not a size.*shm_size='2g'"),
    (dict(framework_version=1.6), TrainingException,
     r"framework_version=1\.6 is a number.*Pass framework_version='1\.6'"),
])
def test_careless_estimator_values(kwargs, error, pattern):
    with pytest.raises(error, match=pattern):
        _est(**kwargs)


def test_a_string_of_arguments_is_refused_with_the_list_it_meant():
    with pytest.raises(UserErrorException, match=re.escape("arguments='--a b' is a single string") +
                       r".*Pass arguments=\['--a', 'b'\]"):
        ScriptRunConfig(SRC, script="train.py", arguments="--a b")


def test_script_run_config_values():
    with pytest.raises(ComputeTargetException, match=r"compute_target=42 is not a compute target"):
        ScriptRunConfig(SRC, script="train.py", compute_target=42)
    src = ScriptRunConfig(SRC, script="train.py")
    src.run_config.environment_variables = {"A": None}
    with pytest.raises(UserErrorException, match=r"run_config.environment_variables\['A'\]=None"):
        src.to_job_spec()


@pytest.mark.parametrize("tags, shown", [({"epochs": 5}, r"'epochs': 5"), ({1: "a"}, r"1: 'a'")])
def test_non_string_tags_are_refused_with_their_text_form(tags, shown):
    with pytest.raises(UserErrorException, match=rf"tags holds {shown}; tag names and values must be strings"):
        _est().to_job_spec(tags=tags)


def test_an_experiment_needs_a_workspace():
    with pytest.raises(UserErrorException, match=r"Experiment\(workspace=None, name='x'\): workspace must be a "
                                                 r"Workspace, e.g\. Experiment\(Workspace.from_config\(\), 'x'\)"):
        Experiment(None, "x")


def test_a_prefix_that_climbs_out_of_the_datastore_is_refused(tmp_path, monkeypatch):
    from acpt_estimator.v1.core.datastore import Datastore
    from acpt_estimator.v1.core.workspace import Workspace

    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store"))
    monkeypatch.setenv("ACPT_ESTIMATOR_TARGET", "local")
    monkeypatch.chdir(tmp_path)
    ds = Datastore(Workspace.from_config(), "workspaceblobstore")
    with pytest.raises(UserErrorException, match=r"prefix='\.\./secrets' climbs out.*prefix='data/train'"):
        ds.download(str(tmp_path / "out"), prefix="../secrets")


def test_v2_templates_outside_the_command_are_refused():
    from acpt_estimator.v1.core.datastore import Datastore

    class _Workspace:
        name = "ws"

    with pytest.raises(UserErrorException, match=r"environment_variables\['E'\]='\$\{\{inputs.data\}\}' holds "
                                                 r"'\$\{\{' or '\$\[\['.*Azure ML replaces"):
        _est(environment_variables={"E": "${{inputs.data}}"})
    ds = Datastore(_Workspace(), "workspaceblobstore")
    with pytest.raises(UserErrorException, match=r"path_on_datastore='a/\$\{\{inputs.x\}\}' holds"):
        ds.path("a/${{inputs.x}}")
    with pytest.raises(UserErrorException, match=r"path_on_datastore='a/\$\[\[x\]\]' holds"):
        ds.path("a").path("$[[x]]")
    _est(environment_variables={"E": "${HOME}/x", "F": "$[x]"})  # shell variables stay allowed
