"""v1 dataset recipes on the local store, read with real pandas: tabular and file datasets, registry, refusals."""

from __future__ import annotations

import datetime
import json
import os

import pandas
import pytest

from acpt_estimator.exceptions import UserErrorException, V1NotSupportedException
from acpt_estimator.job_runtime.acpt_datasets import select
from acpt_estimator.v1.core.dataset import Dataset
from acpt_estimator.v1.data import DataType, FileDataset, TabularDataset
from acpt_estimator.v1.data.dataset_type_definitions import PromoteHeadersBehavior
from tests.local_fixtures import local_workspace, web_files, write_files  # noqa: F401


@pytest.fixture()
def ws(local_workspace, tmp_path):
    """A local workspace whose default datastore holds iris CSVs, a parquet file, JSON lines and plain files."""
    data = tmp_path / "data"
    write_files(data, {
        "iris/part1.csv": "sepal,species,ok,when\n5.1,setosa,yes,2020-01-02\n4.9,setosa,no,2020-01-03\n",
        "iris/part2.csv": "sepal,species,ok,when\n6.3,virginica,yes,2021-05-06\n", "nohead.tsv": "1\ta\n2\tb\n",
        "rows.jsonl": '{"a": 1, "b": "x"}\n{"a": 2, "b": "y"}\n', "files/a.txt": "A", "files/b.txt": "B",
        "files/sub/c.txt": "C"})
    pandas.DataFrame({"k": [1, 2, 3], "v": ["p", "q", "r"]}).to_parquet(data / "table.parquet")
    local_workspace.get_default_datastore().upload(str(data), target_path="d", show_progress=False)
    return local_workspace


def test_tabular_csv_recipe_reads_every_file_with_v1_column_types(ws):
    ds = ws.get_default_datastore()
    iris = Dataset.Tabular.from_delimited_files(
        path=(ds, "d/iris/*.csv"),
        set_column_types={"ok": DataType.to_bool(true_values=["yes"], false_values=["no"]),
                          "when": DataType.to_datetime(["%Y-%m-%d"]), "sepal": DataType.to_string()})
    df = iris.to_pandas_dataframe()
    assert list(df.columns) == ["sepal", "species", "ok", "when"] and len(df) == 3
    assert df["ok"].tolist() == [True, False, True] and df["sepal"].tolist() == ["5.1", "4.9", "6.3"]
    assert str(df["when"].dtype).startswith("datetime64") and df["when"][2].year == 2021
    assert iris.take(2).skip(1).to_pandas_dataframe()["species"].tolist() == ["setosa"]
    assert list(iris.keep_columns(["species"]).to_pandas_dataframe().columns) == ["species"]
    assert list(iris.drop_columns("when").to_pandas_dataframe().columns) == ["sepal", "species", "ok"]
    with_path = Dataset.Tabular.from_delimited_files((ds, "d/iris/part2.csv"), include_path=True).to_pandas_dataframe()
    assert with_path["Path"].tolist() == ["/part2.csv"]


def test_headerless_tsv_parquet_and_json_lines(ws):
    ds = ws.get_default_datastore()
    tsv = Dataset.Tabular.from_delimited_files((ds, "d/nohead.tsv"), separator="\t", header=False)
    assert tsv.to_pandas_dataframe().to_dict("list") == {"Column1": [1, 2], "Column2": ["a", "b"]}
    enum_header = Dataset.Tabular.from_delimited_files((ds, "d/nohead.tsv"), separator="\t",
                                                       header=PromoteHeadersBehavior.NO_HEADERS)
    assert len(enum_header.to_pandas_dataframe()) == 2
    parquet = Dataset.Tabular.from_parquet_files(path=[(ds, "d/table.parquet")])
    assert parquet.to_pandas_dataframe()["v"].tolist() == ["p", "q", "r"]
    lines = Dataset.Tabular.from_json_lines_files((ds, "d/rows.jsonl"), set_column_types={"a": DataType.to_float()})
    assert lines.to_pandas_dataframe()["a"].tolist() == [1.0, 2.0]


def test_random_split_and_sample_are_seeded_and_complementary(ws):
    rows = Dataset.Tabular.from_delimited_files((ds := ws.get_default_datastore(), "d/iris/*.csv"))
    first, second = rows.random_split(0.5, seed=7)
    a, b = first.to_pandas_dataframe(), second.to_pandas_dataframe()
    assert len(a) + len(b) == 3 and set(a["sepal"]) | set(b["sepal"]) == {5.1, 4.9, 6.3}
    assert rows.take_sample(0.5, seed=1).to_pandas_dataframe().equals(rows.take_sample(0.5, seed=1)
                                                                      .to_pandas_dataframe())
    assert ds.name == "workspaceblobstore"


def test_file_dataset_to_path_download_mount_take_skip(ws, tmp_path):
    files = Dataset.File.from_files(path=(ws.get_default_datastore(), "d/files/**"))
    assert files.to_path() == ["/a.txt", "/b.txt", "/sub/c.txt"]
    assert files.take(2).to_path() == ["/a.txt", "/b.txt"] and files.skip(2).to_path() == ["/sub/c.txt"]
    got = files.download(target_path=str(tmp_path / "dl"))
    assert sorted(os.path.relpath(p, tmp_path / "dl") for p in got) == ["a.txt", "b.txt", os.path.join("sub", "c.txt")]
    with pytest.raises(UserErrorException, match="already exists. Pass overwrite=True"):
        files.download(target_path=str(tmp_path / "dl"))
    assert len(files.download(target_path=str(tmp_path / "dl"), overwrite=True)) == 3
    with files.mount() as context:
        assert open(os.path.join(context.mount_point, "sub", "c.txt")).read() == "C"
        assert os.stat(os.path.join(context.mount_point, "a.txt")).st_mode & 0o222 == 0  # read-only copy
    assert not os.path.exists(context.mount_point)
    missing = Dataset.File.from_files((ws.get_default_datastore(), "nothing/**"))
    with pytest.raises(UserErrorException, match="name no files"):
        missing.download()
    assert missing.download(ignore_not_found=True) == []


def test_registry_by_name_id_tags_versions_and_unregister(ws):
    ds = ws.get_default_datastore()
    iris = Dataset.Tabular.from_delimited_files((ds, "d/iris/*.csv")).take(2)
    registered = iris.register(ws, "iris", description="two rows", tags={"team": "a"})
    assert (registered.name, registered.version, registered.description) == ("iris", "1", "two rows")
    again = Dataset.get_by_name(ws, "iris")
    assert isinstance(again, TabularDataset) and len(again.to_pandas_dataframe()) == 2  # the steps were kept
    assert Dataset.get_by_id(ws, registered.id).name == "iris"
    assert iris.register(ws, "iris").version == "1"  # the same definition: the same version
    with pytest.raises(UserErrorException, match="create_new_version=True"):
        iris.take(1).register(ws, "iris")
    assert iris.take(1).register(ws, "iris", create_new_version=True).version == "2"
    assert Dataset.get_by_name(ws, "iris", version=1).to_pandas_dataframe().shape == (2, 4)
    files = Dataset.File.from_files((ds, "d/files/**")).register(ws, "files")
    assert set(Dataset.get_all(ws)) == {"iris", "files"} and isinstance(Dataset.get_all(ws)["files"], FileDataset)
    assert files.add_tags({"k": "v"}).tags == {"k": "v"} and Dataset.get_by_name(ws, "files").tags == {"k": "v"}
    assert files.add_tags({"x": "1"}).remove_tags(["k"]).tags == {"x": "1"}
    files.unregister_all_versions()
    with pytest.raises(UserErrorException, match="'files' .* is not registered"):
        Dataset.get_by_name(ws, "files")
    with pytest.raises(UserErrorException, match="No dataset with id 'nope'"):
        Dataset.get_by_id(ws, "nope")


def test_legacy_dataset_api_wraps_the_new_datasets(ws, caplog):
    ds = ws.get_default_datastore()
    legacy = Dataset.from_delimited_files((ds, "d/iris/*.csv"))
    assert "deprecated after version 1.0.69" in caplog.text
    assert legacy.head(1)["species"].tolist() == ["setosa"] and len(legacy.to_pandas_dataframe()) == 3
    assert legacy.register(ws, "legacy").name == "legacy" and Dataset.get(ws, name="legacy").version == "1"


def test_bad_input_names_the_parameter_and_the_fix(ws):
    ds = ws.get_default_datastore()
    with pytest.raises(UserErrorException, match=r"path='iris.csv'.*\(datastore, 'path'\)"):
        Dataset.Tabular.from_delimited_files(path="iris.csv")
    with pytest.raises(UserErrorException, match="Cannot load any data from the specified path"):
        Dataset.Tabular.from_delimited_files((ds, "nothing/*.csv"))
    with pytest.raises(UserErrorException, match=r"set_column_types=\{'a': 'int'\}.*DataType"):
        Dataset.Tabular.from_delimited_files((ds, "d/iris/*.csv"), set_column_types={"a": "int"})
    with pytest.raises(UserErrorException, match=r"take\(count=-1\)"):
        Dataset.File.from_files((ds, "d/**")).take(-1)
    with pytest.raises(UserErrorException, match=r"partition_format='/data.csv'\): it names no \{column\}"):
        Dataset.Tabular.from_parquet_files((ds, "d/**"), partition_format="/data.csv")
    with pytest.raises(UserErrorException, match="a TabularDataset is consumed directly"):
        Dataset.Tabular.from_delimited_files((ds, "d/iris/*.csv")).as_named_input("iris").as_mount()
    with pytest.raises(V1NotSupportedException, match=r"TabularDataset.to_spark_dataframe .*Use instead: a v2 Spark"):
        Dataset.Tabular.from_delimited_files((ds, "d/iris/*.csv")).to_spark_dataframe()


@pytest.mark.parametrize("path, expected", [
    ("d/**", ["a.csv", "x/b.csv"]), ("d/*.csv", ["a.csv"]), ("d/**/*.csv", ["a.csv", "x/b.csv"]),
    ("d/x", ["b.csv"]), ("d/x/", ["b.csv"]), ("d/a.csv", ["a.csv"]), ("d", ["a.csv", "x/b.csv"]),
    ("d/?.csv", ["a.csv"]), ("other/**", []),
])
def test_v1_path_globs(path, expected):
    assert [shown for _, shown in select(["d/a.csv", "d/x/b.csv", "e/c.csv"], path)] == expected


def test_outputs_in_arguments_and_script_params_become_job_outputs(ws):
    from acpt_estimator import PyTorch
    from acpt_estimator.spec import OutputRef
    from acpt_estimator.v1.core.script_run_config import ScriptRunConfig
    from acpt_estimator.v1.data import OutputFileDatasetConfig

    ds = ws.get_default_datastore()
    default = OutputFileDatasetConfig(name="model")
    config = ScriptRunConfig(".", script="t.py", arguments=["--out", default.register_on_complete("m")])
    spec = config.to_job_spec(experiment_name="e")
    (output,) = spec.outputs
    assert spec.arguments[1] == OutputRef("model") and output.mode == "mount"
    assert output.path_on_datastore == "dataset/{run-id}/{output-name}" and output.datastore == "workspaceblobstore"
    assert json.loads(output.registration)["name"] == "m"
    est = PyTorch(".", entry_script="t.py", compute_target="local",
                  script_params={"--out": OutputFileDatasetConfig(destination=(ds, "o/{run-id}")).as_upload(True)})
    (upload,) = est.to_job_spec(experiment_name="e").outputs
    assert (upload.mode, upload.overwrite, upload.path_on_datastore) == ("upload", True, "o/{run-id}")
    run_bound = OutputFileDatasetConfig(destination=(ds, "o/{run-id}")).as_input()  # fine in a pipeline step
    with pytest.raises(UserErrorException, match="depends on the run id"):
        ScriptRunConfig(".", script="t.py", arguments=["--in", run_bound]).to_job_spec(experiment_name="e")
    later = OutputFileDatasetConfig(name="prep", destination=(ds, "d/files")).as_input("prepared")
    assert later.name == "prepared" and later.mode == "mount" and later.dataset.to_path()[0] == "/a.txt"
    with pytest.raises(UserErrorException, match=r"destination='o'.*\(datastore, 'path'\)"):
        OutputFileDatasetConfig(destination="o")
    with pytest.raises(V1NotSupportedException, match=r"source=.*Use instead"):
        OutputFileDatasetConfig(source="/tmp/out")


def test_inside_a_cloud_job_a_tabular_input_reads_from_its_mounted_folder(ws, tmp_path, monkeypatch):
    """What the job runtime's MLflow-backed Run hands out for a tabular input: the definition over the mount."""
    from acpt_estimator.arguments import build_arguments
    from acpt_estimator.job_runtime import acpt_datasets

    iris = Dataset.Tabular.from_delimited_files((ws.get_default_datastore(), "d/iris/*.csv")).take(2)
    _, (item,), _ = build_arguments(["--iris", iris.as_named_input("iris")])
    mounted = tmp_path / "data" / "iris"  # stands in for the job's ro_mount of azureml://.../paths/d/iris/
    monkeypatch.setenv("ACPT_DATASET_iris", item.definition)
    monkeypatch.setenv("AZUREML_DATAREFERENCE_iris", str(mounted))
    (name, definition), = acpt_datasets.job_definitions().items()
    in_job = acpt_datasets.job_dataset(name, str(mounted), definition)
    assert in_job.to_pandas_dataframe()["species"].tolist() == ["setosa", "setosa"]
    files = Dataset.File.from_files((ws.get_default_datastore(), "d/files/**")).skip(1)
    _, (direct,), _ = build_arguments([files.as_named_input("direct")])
    job_files = acpt_datasets.job_dataset("direct", str(tmp_path / "data" / "files"), json.loads(direct.definition))
    assert job_files.to_path() == ["/b.txt", "/sub/c.txt"]  # the steps apply in the job
    assert [os.path.basename(p) for p in job_files.download(str(tmp_path / "job-dl"))] == ["b.txt", "c.txt"]
    assert acpt_datasets.job_dataset("m", "/mnt/m", {"type": "file", "mode": "mount"}) == "/mnt/m"
    from acpt_estimator.v1.data.job_inputs import input_datasets

    assert input_datasets()["iris"].to_pandas_dataframe().shape == (2, 4)  # a local job: the full TabularDataset


def test_a_web_csv_as_the_v1_tutorials_read_it(ws, web_files, monkeypatch):
    """Dataset.Tabular.from_delimited_files(path='https://.../titanic.csv'): read, registered, read back."""
    folder, base = web_files
    (folder / "titanic.csv").write_text("PassengerId,Survived\n1,0\n2,1\n3,1\n")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    titanic = Dataset.Tabular.from_delimited_files(path=f"{base}/titanic.csv")
    assert titanic.to_pandas_dataframe()["Survived"].sum() == 2
    titanic.register(ws, "titanic")
    assert Dataset.get_by_name(ws, "titanic").take(1).to_pandas_dataframe()["PassengerId"].tolist() == [1]
    assert Dataset.File.from_files(f"{base}/titanic.csv").to_path() == ["/titanic.csv"]
    with pytest.raises(UserErrorException, match=r"Could not download dataset file .*/missing.csv"):
        Dataset.Tabular.from_delimited_files(path=f"{base}/missing.csv").to_pandas_dataframe()


def test_path_on_compute_is_not_dropped_silently(ws, caplog):
    from acpt_estimator.arguments import build_arguments

    files = Dataset.File.from_files((ws.get_default_datastore(), "d/files/**"))
    build_arguments(["--data", files.as_named_input("imgs").as_mount(path_on_compute="/mnt/imgs")])
    assert "Input 'imgs': path_on_compute='/mnt/imgs' is not used" in caplog.text


def test_time_series_filters_on_the_timestamp_column(ws):
    iris = Dataset.Tabular.from_delimited_files((ws.get_default_datastore(), "d/iris/*.csv"))
    with pytest.raises(UserErrorException, match=r"time_after: .*with_timestamp_columns\(timestamp='<column>'\)"):
        iris.time_after(datetime.datetime(2020, 1, 1))
    timed = iris.with_timestamp_columns(timestamp="when")
    assert timed.timestamp_columns == ("when", None)
    day = datetime.datetime(2020, 1, 3)
    assert timed.time_after(day).to_pandas_dataframe()["sepal"].tolist() == [4.9, 6.3]
    assert timed.time_after(day, include_boundary=False).to_pandas_dataframe()["sepal"].tolist() == [6.3]
    assert timed.time_before(day).to_pandas_dataframe()["sepal"].tolist() == [5.1, 4.9]
    assert len(timed.time_between(datetime.datetime(2020, 1, 1), datetime.datetime(2020, 12, 31))
               .to_pandas_dataframe()) == 2
    assert timed.time_recent(datetime.timedelta(days=1)).to_pandas_dataframe().empty
    with pytest.raises(UserErrorException, match="pass a datetime.timedelta"):
        timed.time_recent(5)


def test_unreadable_rows_name_the_paths(ws):
    iris = Dataset.Tabular.from_delimited_files((ws.get_default_datastore(), "d/iris/*.csv"))
    with pytest.raises(UserErrorException, match=r"could not read \['d/iris/\*.csv'\]: Timestamp column 'nope'"):
        iris.with_timestamp_columns("nope").time_before(datetime.datetime(2021, 1, 1)).to_pandas_dataframe()


def test_partition_format_columns_from_paths_in_the_driver_and_in_a_job(ws, tmp_path, monkeypatch):
    from acpt_estimator.arguments import build_arguments
    from acpt_estimator.job_runtime import acpt_datasets

    sales = tmp_path / "sales"
    write_files(sales, {"Accounts/2019/01/01/data.csv": "amount\n5\n", "Marketing/2020/02/03/data.csv": "amount\n7\n"})
    ds = ws.get_default_datastore()
    ds.upload(str(sales), target_path="sales", show_progress=False)
    dataset = Dataset.Tabular.from_delimited_files(
        (ds, "sales/*/*/*/*/data.csv"), partition_format="/{Department}/{PartitionDate:yyyy/MM/dd}/data.csv")
    df = dataset.to_pandas_dataframe()
    assert df["Department"].tolist() == ["Accounts", "Marketing"] and df["amount"].tolist() == [5, 7]
    assert df["PartitionDate"].tolist() == [datetime.datetime(2019, 1, 1), datetime.datetime(2020, 2, 3)]
    assert dataset.partition_keys == ["Department", "PartitionDate"]
    assert dataset.get_partition_key_values(["Department"]) == [{"Department": "Accounts"},
                                                                {"Department": "Marketing"}]
    _, (item,), _ = build_arguments([dataset.as_named_input("sales")])
    in_job = acpt_datasets.JobTabularDataset("sales", str(sales), json.loads(item.definition))  # the mounted folder
    assert in_job.to_pandas_dataframe()["Department"].tolist() == ["Accounts", "Marketing"]
    monkeypatch.setenv("ACPT_DATASET_sales", item.definition)
    monkeypatch.setenv("AZUREML_DATAREFERENCE_sales", str(sales))
    from acpt_estimator.v1.data.job_inputs import input_datasets

    local_job = input_datasets()["sales"]  # a local job: the TabularDataset over its input folder
    assert local_job.get_partition_key_values(["Department"])[1] == {"Department": "Marketing"}
    assert local_job.to_pandas_dataframe()["PartitionDate"].dt.year.tolist() == [2019, 2020]


def test_register_pandas_dataframe_and_conversions_to_files(ws):
    frame = pandas.DataFrame({"a": [1, 2], "b": ["x", "y"]})
    ds = ws.get_default_datastore()
    registered = Dataset.Tabular.register_pandas_dataframe(frame, (ds, "frames"), "frame", tags={"k": "v"})
    assert (registered.name, registered.version, registered.tags) == ("frame", "1", {"k": "v"})
    assert Dataset.get_by_name(ws, "frame").to_pandas_dataframe().equals(frame)
    assert registered.paths[0][1].startswith("frames/") and registered.paths[0][1].endswith("/*.parquet")
    again = Dataset.Tabular.register_pandas_dataframe(frame.head(1), (ds, "frames"), "frame")
    assert again.version == "2" and len(again.to_pandas_dataframe()) == 1  # a new folder and version each time
    csv = registered.to_csv_files(separator=";")
    assert csv.to_path() == ["/part-00000.csv"] and open(csv.download()[0]).read() == "a;b\n1;x\n2;y\n"
    parquet = registered.to_parquet_files()
    assert pandas.read_parquet(parquet.download()[0]).equals(frame)
