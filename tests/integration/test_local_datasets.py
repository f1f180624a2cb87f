"""v1 dataset recipes in a local job (real mpiexec): a tabular input read by name, a mounted file dataset,
OutputFileDatasetConfig outputs landing in the datastore and registered on completion."""

from __future__ import annotations

import json
import os

import pytest

from acpt_estimator.v1.core.dataset import Dataset
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.script_run_config import ScriptRunConfig
from acpt_estimator.v1.data import OutputFileDatasetConfig, TabularDataset
from tests.local_fixtures import local_workspace, web_files, write_files  # noqa: F401

pytestmark = pytest.mark.integration
SRC = os.path.join(os.path.dirname(__file__), os.pardir, "data", "dataset_job")


@pytest.fixture()
def workspace(local_workspace, tmp_path):
    write_files(tmp_path / "data", {"iris/a.csv": "sepal,species\n5.1,setosa\n6.3,virginica\n",
                                    "iris/b.csv": "sepal,species\n4.9,setosa\n", "images/cat.png": b"\x89PNG"})
    local_workspace.get_default_datastore().upload(str(tmp_path / "data"), target_path="raw", show_progress=False)
    return local_workspace


def test_tabular_and_file_inputs_and_outputs_in_a_script_run_config(workspace, tmp_path, web_files, monkeypatch):
    folder, base = web_files
    (folder / "titanic.csv").write_text("PassengerId,Survived\n1,0\n2,1\n3,1\n")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    titanic = Dataset.Tabular.from_delimited_files(path=f"{base}/titanic.csv")
    ds = workspace.get_default_datastore()
    iris = Dataset.Tabular.from_delimited_files(path=(ds, "raw/iris/*.csv")).register(workspace, "iris")
    images = Dataset.File.from_files(path=(ds, "raw/images/**"))
    summary = OutputFileDatasetConfig(destination=(ds, "summaries/{run-id}")).as_upload() \
        .register_on_complete("summary", tags={"kind": "json"})
    prepared = OutputFileDatasetConfig(name="prepared", destination=(ds, "prepared/{output-name}")) \
        .read_delimited_files().register_on_complete("setosa")
    config = ScriptRunConfig(SRC, script="train.py", compute_target="local", arguments=[
        "--iris", iris.as_named_input("iris"), "--images", images.as_named_input("images").as_mount(),
        "--output", summary, "--prepared", prepared, "--pictures", images.as_named_input("pictures"),
        "--titanic", titanic.as_named_input("titanic")])
    run = Experiment(workspace, "datasets").submit(config)
    assert run.wait_for_completion()["status"] == "Completed", run.get_details()

    landed = tmp_path / ".acpt" / "datastores" / "workspaceblobstore" / "summaries" / run.id / "summary.json"
    seen = json.loads(landed.read_text())  # uploaded to the datastore folder after the job
    assert seen == {"rows": 3, "species": ["setosa", "virginica"], "same_by_id": True, "images": ["cat.png"],
                    "images_is_path": True, "pictures": ["/cat.png"], "survived": 2}
    registered = Dataset.get_by_name(workspace, "summary")
    assert registered.to_path() == ["/summary.json"] and registered.tags == {"kind": "json"}
    setosa = Dataset.get_by_name(workspace, "setosa")
    assert isinstance(setosa, TabularDataset)
    assert setosa.to_pandas_dataframe()["sepal"].tolist() == [5.1, 4.9]
    outputs = {o["dataset"]["name"]: o for o in run.get_details()["outputDatasets"]}
    assert outputs["prepared"]["pathOnDatastore"] == "prepared/prepared"
    assert outputs[summary.name]["registered"]["name"] == "summary"
