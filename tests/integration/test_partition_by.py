"""TabularDataset.partition_by in the local store: v1's folder layout, the keys' types, registration,
get_partition_key_values and filter on the partition keys (rows and files)."""

from __future__ import annotations

import datetime
import os

import pandas
import pytest

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.v1.core.dataset import Dataset
from tests.local_fixtures import local_workspace, write_files  # noqa: F401

pytestmark = pytest.mark.integration
OJ = ("WeekStarting,Store,Brand,Quantity,INCOME\n1990-06-14,2,tropicana,100,10.5\n1990-06-14,2,dominicks,200,10.5\n"
      "1990-06-21,5,tropicana,50,11.2\n1990-06-21,2,tropicana,70,10.5\n")


@pytest.fixture()
def oj(local_workspace, tmp_path):
    write_files(tmp_path / "data", {"oj.csv": OJ})
    store = local_workspace.get_default_datastore()
    store.upload(str(tmp_path / "data"), target_path="oj", show_progress=False)
    return Dataset.Tabular.from_delimited_files(path=(store, "oj/*.csv"))


def test_partition_by_layout_types_and_registration(oj, local_workspace, tmp_path):
    store = local_workspace.get_default_datastore()
    partitioned = oj.partition_by(partition_keys=["Store", "Brand"], target=(store, "parts"), name="oj_parts",
                                  show_progress=False)
    assert (partitioned.name, partitioned.version, partitioned.partition_keys) == ("oj_parts", "1", ["Store", "Brand"])
    root = tmp_path / ".acpt" / "datastores" / store.name / "parts"
    (guid,) = os.listdir(root)  # v1: a new guid folder under the target, then one folder per key value
    found = sorted(str(p.relative_to(root / guid)) for p in (root / guid).rglob("*.parquet"))
    assert found == ["2/dominicks/part-00000.parquet", "2/tropicana/part-00000.parquet",
                     "5/tropicana/part-00000.parquet"]
    frame = Dataset.get_by_name(local_workspace, "oj_parts").to_pandas_dataframe()
    # the key columns come from the folders, after the data columns, with their types kept
    assert list(frame.columns) == ["WeekStarting", "Quantity", "INCOME", "Store", "Brand"]
    assert frame["Store"].tolist() == [2, 2, 2, 5] and frame["Quantity"].sum() == 420
    assert partitioned.get_partition_key_values() == [
        {"Store": 2, "Brand": "dominicks"}, {"Store": 2, "Brand": "tropicana"}, {"Store": 5, "Brand": "tropicana"}]
    assert partitioned.get_partition_key_values(["Store"]) == [{"Store": 2}, {"Store": 5}]
    # filter on the partition keys
    kept = partitioned.filter((partitioned["Store"] == 2) & ~(partitioned["Brand"] == "dominicks"))
    assert kept.to_pandas_dataframe()["Quantity"].tolist() == [100, 70]
    files = oj.partition_by(["Brand"], (store, "files"), show_progress=False, partition_as_file_dataset=True)
    assert [p.rsplit("/", 2)[-2] for p in files.filter(files["Brand"].is_in(["dominicks"])).to_path()] == \
        ["dominicks"]


def test_partition_by_dates_and_refusals(local_workspace, tmp_path):
    store = local_workspace.get_default_datastore()
    frame = pandas.DataFrame({"day": pandas.to_datetime(["2020-01-02", "2020-01-03"]), "v": [1, 2]})
    table = Dataset.Tabular.register_pandas_dataframe(frame, (store, "days"), "days", show_progress=False)
    by_day = table.partition_by(["day"], store, show_progress=False)
    assert by_day.get_partition_key_values() == [{"day": datetime.datetime(2020, 1, 2)},
                                                 {"day": datetime.datetime(2020, 1, 3)}]
    assert by_day.to_pandas_dataframe()["v"].tolist() == [1, 2]
    with pytest.raises(UserErrorException, match="partition_keys cannot be empty"):
        table.partition_by([], store)
    with pytest.raises(UserErrorException, match=r"\['nope'\] are invalid partition keys"):
        table.partition_by(["nope"], store)
    with pytest.raises(UserErrorException, match="cannot have duplicates"):
        table.partition_by(["v", "v"], store)
    with pytest.raises(UserErrorException, match="only comparisons of columns with constants"):
        table.filter("v > 1")
