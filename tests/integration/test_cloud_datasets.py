"""v1 tabular/file dataset recipes and OutputFileDatasetConfig on a cloud workspace: the real MLClient and blob
client against the loopback HTTPS fake (data assets, blob listing/download through the datastore proxy, job PUT)."""

from __future__ import annotations

import json

import pytest

from acpt_estimator import PyTorch
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.v1.core.dataset import Dataset
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.script_run_config import ScriptRunConfig
from acpt_estimator.v1.data import DataType, OutputFileDatasetConfig, TabularDataset
from tests.fake_aml.fixtures import *  # noqa: F401,F403

pytestmark = pytest.mark.integration
BLOBS = "fakeaccount/azureml-blobstore-fake/"


def _upload_iris(fake_aml):
    fake_aml.state.blobs.blobs[BLOBS + "iris/a.csv"] = b"sepal,species\n5.1,setosa\n6.3,virginica\n"
    fake_aml.state.blobs.blobs[BLOBS + "iris/b.csv"] = b"sepal,species\n4.9,setosa\n"
    fake_aml.state.blobs.blobs[BLOBS + "iris-notes.txt"] = b"not part of the dataset"


def test_tabular_recipe_reads_blobs_registers_an_asset_with_its_definition_and_reads_it_back(cloud_workspace,
                                                                                             fake_aml, tmp_path):
    _upload_iris(fake_aml)
    ds = cloud_workspace.get_default_datastore()
    iris = Dataset.Tabular.from_delimited_files(path=(ds, "iris/*.csv"),
                                                set_column_types={"sepal": DataType.to_string()})
    df = iris.to_pandas_dataframe()  # listed and downloaded through the datastore account
    assert df["species"].tolist() == ["setosa", "virginica", "setosa"] and df["sepal"].tolist()[0] == "5.1"
    registered = iris.take(2).register(cloud_workspace, "iris", tags={"src": "v1"})
    body = fake_aml.calls("PUT", r".*/data/iris/versions/1$")[0].json()["properties"]
    assert body["dataUri"] == "azureml://datastores/workspaceblobstore/paths/iris/" and body["dataType"] == "uri_folder"
    definition = json.loads(body["properties"]["acpt.dataset"])
    assert definition["type"] == "tabular" and definition["paths"] == ["*.csv"]
    assert [next(iter(s)) for s in definition["transformations"]] == ["read_delimited", "convert_column_types", "take"]

    again = Dataset.get_by_name(cloud_workspace, "iris")
    assert isinstance(again, TabularDataset) and again.tags == {"src": "v1"}
    assert again.to_pandas_dataframe()["species"].tolist() == ["setosa", "virginica"]
    assert Dataset.get_by_id(cloud_workspace, registered.id).version == "1"
    files = Dataset.File.from_files((ds, "iris/**"))
    assert files.to_path() == ["/a.csv", "/b.csv"]
    assert sorted(p.rsplit("/", 1)[-1] for p in files.download(str(tmp_path / "dl"))) == ["a.csv", "b.csv"]
    assert set(Dataset.get_all(cloud_workspace)) == {"iris"}
    again.unregister_all_versions()  # v2: the asset is archived
    assert fake_aml.state.archived_data == {"iris"}
    with pytest.raises(UserErrorException, match="'iris' .* is not registered"):
        Dataset.get_by_name(cloud_workspace, "iris")


def test_job_put_has_v2_outputs_and_the_tabular_definition_for_the_job(cloud_workspace, fake_aml, make_project):
    _upload_iris(fake_aml)
    ds = cloud_workspace.get_default_datastore()
    iris = Dataset.Tabular.from_delimited_files(path=(ds, "iris/*.csv"))
    out = OutputFileDatasetConfig(name="summary", destination=(ds, "summaries/{run-id}")).as_upload() \
        .register_on_complete("summary-files")
    scratch = OutputFileDatasetConfig(destination=(ds, "scratch/{output-name}")).as_mount()
    titanic = Dataset.Tabular.from_delimited_files(path="https://example.org/data/titanic.csv")
    config = ScriptRunConfig(make_project(), script="train.py", compute_target="cpu-cluster",
                             arguments=["--iris", iris.as_named_input("iris"), "--out", out, "--scratch", scratch,
                                        "--titanic", titanic.as_named_input("titanic")])
    Experiment(cloud_workspace, "datasets").submit(config)
    job = fake_aml.calls("PUT", r".*/jobs/[^/]+$")[-1].json()["properties"]
    summary = job["outputs"]["summary"]
    assert (summary["uri"], summary["mode"], summary["assetName"]) == (
        "azureml://datastores/workspaceblobstore/paths/summaries/${{name}}", "Upload", "summary-files")
    assert job["outputs"][scratch.name]["uri"].endswith("/paths/scratch/${{output_name}}")
    assert job["outputs"][scratch.name]["mode"] == "ReadWriteMount"
    assert job["inputs"]["iris"]["uri"] == "azureml://datastores/workspaceblobstore/paths/iris/"
    assert "--iris ${{inputs.iris}} --out ${{outputs.summary}}" in job["command"]
    definition = json.loads(job["environmentVariables"]["ACPT_DATASET_iris"])
    assert definition["type"] == "tabular" and definition["paths"] == ["*.csv"]
    web = job["inputs"]["titanic"]  # a web CSV: a uri_file input the job downloads
    assert (web["uri"], web["mode"], web["jobInputType"]) == ("https://example.org/data/titanic.csv", "Download",
                                                             "uri_file")
    assert titanic.register(cloud_workspace, "titanic").version == "1"
    asset = fake_aml.calls("PUT", r".*/data/titanic/versions/1$")[0].json()["properties"]
    assert (asset["dataUri"], asset["dataType"]) == ("https://example.org/data/titanic.csv", "uri_file")
    assert Dataset.get_by_name(cloud_workspace, "titanic").paths[0][1] == "https://example.org/data/titanic.csv"

    est = PyTorch(make_project(), compute_target="cpu-cluster", entry_script="train.py",
                  script_params={"--out": OutputFileDatasetConfig(destination=(ds, "x")).read_delimited_files()
                                 .register_on_complete("rows")})
    with pytest.raises(UserErrorException, match="Register it after the job"):
        Experiment(cloud_workspace, "datasets").submit(est)


def test_register_pandas_dataframe_uploads_parquet_and_reads_back(cloud_workspace, fake_aml):
    import pandas

    frame = pandas.DataFrame({"a": [1, 2], "b": ["x", "y"]})
    ds = cloud_workspace.get_default_datastore()
    registered = Dataset.Tabular.register_pandas_dataframe(frame, (ds, "frames"), "frame", show_progress=False)
    uploaded = [b for b in fake_aml.state.blobs.blobs if b.startswith(BLOBS + "frames/")]
    assert len(uploaded) == 1 and uploaded[0].endswith("/part-00000.parquet")
    assert registered.version == "1"
    assert Dataset.get_by_name(cloud_workspace, "frame").to_pandas_dataframe().equals(frame)


def test_partition_by_uploads_v1s_layout_and_registers_it(cloud_workspace, fake_aml):
    fake_aml.state.blobs.blobs[BLOBS + "oj/oj.csv"] = (b"Store,Brand,Quantity\n2,tropicana,100\n2,dominicks,200\n"
                                                       b"5,tropicana,50\n")
    ds = cloud_workspace.get_default_datastore()
    oj = Dataset.Tabular.from_delimited_files(path=(ds, "oj/*.csv"))
    partitioned = oj.partition_by(["Store", "Brand"], target=(ds, "parts"), name="oj_parts", show_progress=False)
    written = sorted(name[len(BLOBS):].split("/", 2)[2] for name in fake_aml.state.blobs.blobs
                     if name.startswith(BLOBS + "parts/"))  # parts/<guid>/<Store>/<Brand>/part-00000.parquet
    assert written == ["2/dominicks/part-00000.parquet", "2/tropicana/part-00000.parquet",
                       "5/tropicana/part-00000.parquet"]
    body = fake_aml.calls("PUT", r".*/data/oj_parts/versions/1$")[0].json()["properties"]
    assert body["dataUri"].startswith("azureml://datastores/workspaceblobstore/paths/parts/")
    again = Dataset.get_by_name(cloud_workspace, "oj_parts")
    assert again.partition_keys == partitioned.partition_keys == ["Store", "Brand"]
    assert again.get_partition_key_values(["Store"]) == [{"Store": 2}, {"Store": 5}]
    assert again.filter(again["Brand"] == "tropicana").to_pandas_dataframe()["Quantity"].tolist() == [100, 50]
