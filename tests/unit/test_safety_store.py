"""Hostile and careless names and paths (issue 15): nothing escapes the local store or a run's files."""

from __future__ import annotations

import os

import pytest

from acpt_estimator.backends.local import datastores, models
from acpt_estimator.backends.local.job import new_run_id  # the id a local submit gives its run
from acpt_estimator.backends.local.run import LocalRun
from acpt_estimator.backends.local.store import RunPaths, run_paths
from acpt_estimator.exceptions import UserErrorException, WebserviceException
from acpt_estimator.names import storage_key
from acpt_estimator.v1.core.dataset import Dataset
from acpt_estimator.v1.core.datastore import Datastore
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.workspace import Workspace


@pytest.fixture()
def ws(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store" / ".acpt"))
    monkeypatch.setenv("ACPT_ESTIMATOR_TARGET", "local")
    (tmp_path / "store").mkdir()
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "a.txt").write_text("alpha")
    return Workspace.from_config()


def _outside(tmp_path) -> list[str]:
    """Everything written next to the store instead of in it."""
    return sorted(p for p in os.listdir(tmp_path / "store") if p != ".acpt")


@pytest.mark.parametrize("name", ["exp\n", "exp\r\n", "a b", "../x", "-x", "é"])
def test_experiment_names_follow_v1_rule_to_the_last_character(name):
    with pytest.raises(UserErrorException, match="Experiment name must be between 1 and 255 characters"):
        Experiment(None, name)


@pytest.mark.parametrize("length", [237, 246, 255])
def test_long_experiment_names_give_run_ids_that_are_valid_file_names(tmp_path, length):
    run_id = new_run_id("e" * length)
    assert len(run_id) <= 255
    RunPaths(str(tmp_path), run_id).create()  # no "File name too long"
    assert os.path.isdir(tmp_path / "runs" / run_id)


@pytest.mark.parametrize("name", ["../x", "x/y", "x\n", "", "a b"])
def test_datastore_names_are_refused_at_construction(ws, name):
    with pytest.raises(UserErrorException, match=r"datastore_name=.* is not a valid datastore name: use"):
        Datastore(ws, name)


def test_upload_target_path_cannot_climb_out_of_the_datastore(ws, tmp_path):
    ds = ws.get_default_datastore()
    with pytest.raises(UserErrorException, match=r"target_path='\.\./\.\./x' climbs out"):
        ds.upload(src_dir="./data", target_path="../../x", show_progress=False)
    assert _outside(tmp_path) == []
    ds.upload(src_dir="./data", target_path="/nested/./x", show_progress=False)  # v1: '/' is the datastore root
    assert (tmp_path / "store/.acpt/datastores/workspaceblobstore/nested/x/a.txt").read_text() == "alpha"


def test_a_symlink_in_the_datastore_cannot_lead_an_upload_out(ws, tmp_path):
    ds = ws.get_default_datastore()
    ds.upload(src_dir="./data", target_path="ok", show_progress=False)
    os.symlink(tmp_path / "store", tmp_path / "store/.acpt/datastores/workspaceblobstore/link")
    with pytest.raises(UserErrorException, match="outside datastore 'workspaceblobstore'"):
        ds.upload(src_dir="./data", target_path="link/x", show_progress=False)
    assert _outside(tmp_path) == []


@pytest.mark.parametrize("name", ["x\n", "a\0b", ""])
def test_dataset_names_are_refused_before_anything_is_registered(ws, tmp_path, name):
    ds = ws.get_default_datastore()
    ds.upload(src_dir="./data", target_path="d", show_progress=False)
    with pytest.raises(UserErrorException, match=r"name=.* is not a valid dataset name"):
        Dataset.File.from_files(path=(ds, "d/**")).register(ws, name)
    assert not os.path.exists(tmp_path / "store/.acpt/datasets") and _outside(tmp_path) == []


@pytest.mark.parametrize("name", ["../../x", "a/b", ".hidden", "..", "my dataset"])
def test_dataset_names_v1_accepted_stay_inside_the_registry(ws, tmp_path, name):
    """v1 sent any dataset name to its service: path-like ones are kept, as storage keys inside the registry."""
    ds = ws.get_default_datastore()
    ds.upload(src_dir="./data", target_path="d", show_progress=False)
    Dataset.File.from_files(path=(ds, "d/**")).register(ws, name)
    assert _outside(tmp_path) == [] and Dataset.get_by_name(ws, name).name == name
    registry = tmp_path / "store/.acpt/datasets"
    assert [p for p in os.listdir(registry) if not p.startswith(".")] == [storage_key(name)]
    assert list(Dataset.get_all(ws)) == [name]


@pytest.mark.parametrize("path", ["../../../etc/hostname", "a/../../b", "x\0y"])
def test_datastore_paths_are_refused_when_the_reference_is_made(ws, path):
    ds = ws.get_default_datastore()
    with pytest.raises(UserErrorException, match="path_on_datastore="):
        ds.path(path).as_mount()


def test_as_upload_cannot_write_outside_the_datastore(ws):
    ds = ws.get_default_datastore()
    with pytest.raises(UserErrorException, match=r"path_on_datastore='\.\./\.\.' climbs out"):
        ds.path("../..").as_upload()


@pytest.mark.parametrize("name", ["bad\nname", "name; rm -rf /", "a-b", "1$x"])
def test_data_reference_names_become_shell_identifiers_or_are_refused(ws, name):
    with pytest.raises(UserErrorException, match="data_reference_name=.* is not a valid reference name"):
        ws.get_default_datastore().path("d", data_reference_name=name)


def _run_with_file(store: str, run_id: str = "exp_1_abcdef01") -> LocalRun:
    paths = run_paths(run_id, store)
    os.makedirs(os.path.join(paths.files, "outputs"))
    with open(os.path.join(paths.files, "outputs", "model.pt"), "w") as handle:
        handle.write("weights")
    return LocalRun(paths)


def test_register_model_cannot_take_a_file_outside_the_run(ws, tmp_path):
    run = _run_with_file(os.environ["ACPT_ESTIMATOR_HOME"])
    with pytest.raises(UserErrorException, match=r"model_path='\.\./\.\./\.\./\.\./etc/passwd' climbs out"):
        models.register(store_home=run._paths.home, run_id=run.id, experiment_name="exp", files_dir=run._paths.files,
                        file_names=[], model_name="m", model_path="../../../../etc/passwd")
    model = models.register(store_home=run._paths.home, run_id=run.id, experiment_name="exp",
                            files_dir=run._paths.files, file_names=[], model_name="m", model_path="outputs/model.pt")
    assert open(model.path).read() == "weights" and model.version == 1


@pytest.mark.parametrize("name", ["m\n", "../m", "m/x"])
def test_model_names_are_refused(ws, name):
    run = _run_with_file(os.environ["ACPT_ESTIMATOR_HOME"])
    with pytest.raises(WebserviceException, match="model_name=.* is not a valid model name"):
        models.register(store_home=run._paths.home, run_id=run.id, experiment_name="exp", files_dir=run._paths.files,
                        file_names=[], model_name=name, model_path="outputs/model.pt")


def test_download_file_reads_only_the_runs_files(ws, tmp_path):
    run = _run_with_file(os.environ["ACPT_ESTIMATOR_HOME"])
    with pytest.raises(UserErrorException, match=r"name='\.\./\.\./\.\./\.\./etc/hostname' climbs out"):
        run.download_file("../../../../etc/hostname", str(tmp_path / "got"))
    assert not os.path.exists(tmp_path / "got")
    run.download_file("outputs/model.pt", str(tmp_path / "got"))
    assert (tmp_path / "got").read_text() == "weights"


def test_upload_file_writes_only_into_the_runs_files(ws, tmp_path):
    run = _run_with_file(os.environ["ACPT_ESTIMATOR_HOME"])
    with pytest.raises(UserErrorException, match=r"name='\.\./\.\./x' climbs out"):
        run.upload_file("../../x", str(tmp_path / "data" / "a.txt"))
    with pytest.raises(UserErrorException, match=r"name='\.\./up' climbs out"):
        run.upload_folder("../up", str(tmp_path / "data"))
    assert sorted(os.listdir(run._paths.root)) == ["files"]
    run.upload_file("/logs/a.txt", str(tmp_path / "data" / "a.txt"))
    assert "logs/a.txt" in run.get_file_names()


@pytest.mark.parametrize("run_id", ["../../etc", "x\n", "a/b"])
def test_run_ids_are_never_joined_as_paths(ws, run_id):
    with pytest.raises(UserErrorException, match="run_id=.* is not a valid run name"):
        run_paths(run_id)


def test_dataset_and_datapath_paths_cannot_climb_out_of_the_datastore(ws):
    from acpt_estimator.v1.data.datapath import DataPath

    ds = ws.get_default_datastore()
    with pytest.raises(UserErrorException, match=r"path=\.\.\.\)='\.\./\.\./etc/\*\*' climbs out"):
        Dataset.File.from_files(path=(ds, "../../etc/**"))
    with pytest.raises(UserErrorException, match=r"path_on_datastore='\.\./x' climbs out"):
        DataPath(ds, "../x")


@pytest.mark.parametrize("name", ["../../etc", "m\n"])
def test_model_lookups_never_join_a_bad_name(ws, name):
    from acpt_estimator.v1.core.model import Model

    with pytest.raises(WebserviceException, match="model_name=.* is not a valid model name"):
        Model.get_model_path(name)
    with pytest.raises(WebserviceException, match="is not a valid model name"):
        Model(ws, name)
