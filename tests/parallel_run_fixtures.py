"""Shared data for the ParallelRunStep tests: the scripts folder and a datastore holding file, tabular and OJ data."""

import os

import pytest

from tests.local_fixtures import write_files

SCRIPTS = os.path.join(os.path.dirname(__file__), "data", "parallel_run")
# a few rows of v1's orange-juice sales sample (the partition-per-column notebook's data)
OJ = ("WeekStarting,Store,Brand,Quantity,INCOME\n1990-06-14,2,tropicana,100,10.5\n1990-06-14,2,dominicks,200,10.5\n"
      "1990-06-21,5,tropicana,50,11.2\n1990-06-21,2,tropicana,70,10.5\n")


@pytest.fixture()
def datastore(local_workspace, tmp_path):
    write_files(tmp_path / "data", {**{f"files/f{i}.txt": "x" * i for i in range(1, 6)}, "oj/oj.csv": OJ,
                                    "table/a.csv": "x,y\n1,a b\n2,c\n", "table/b.csv": "x,y\n3,d\n"})
    store = local_workspace.get_default_datastore()
    store.upload(str(tmp_path / "data"), target_path="raw", show_progress=False)
    return store
