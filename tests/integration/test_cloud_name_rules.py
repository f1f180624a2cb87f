"""v1's own name rules on a cloud workspace (real MLClient, loopback fake): what v1 accepted works, a name v2
refuses is registered under a deterministic v2 name (said once) and found again by its v1 name; what v1
refused is refused with v1's exception class before any request."""

from __future__ import annotations

import warnings

import pytest

from acpt_estimator.names import V1_NAME_TAG, v2_name
from tests.fake_aml.fixtures import *  # noqa: F401,F403
from tests.v1_name_rules import ACCEPTED, REFUSED, use

pytestmark = pytest.mark.integration
_CLOUD = ("dataset", "experiment", "datastore", "model")  # environments: v2 builds them (tests/integration/...)


@pytest.mark.parametrize("kind,name", [row for row in ACCEPTED if row[0] in _CLOUD], ids=lambda v: repr(v)[:24])
def test_names_v1_accepted_work_in_the_cloud(cloud_workspace, fake_aml, tmp_path, kind, name):
    assert use(kind, name, cloud_workspace, tmp_path) == name


@pytest.mark.parametrize("kind,name,error", [row for row in REFUSED if row[0] in _CLOUD], ids=lambda v: repr(v)[:24])
def test_names_v1_refused_are_refused_before_any_request(cloud_workspace, fake_aml, tmp_path, kind, name, error):
    before = len(fake_aml.calls("PUT", r".*")) + len(fake_aml.calls("POST", r".*"))
    with pytest.raises(error) as caught:
        use(kind, name, cloud_workspace, tmp_path)
    assert type(caught.value) is error
    assert len(fake_aml.calls("PUT", r".*")) + len(fake_aml.calls("POST", r".*")) == before


def test_a_dataset_name_v2_refuses_is_mapped_once_and_found_by_its_v1_name(cloud_workspace, fake_aml, monkeypatch):
    from acpt_estimator import names
    from acpt_estimator.v1.core.dataset import Dataset

    monkeypatch.setattr(names, "_warned", set())  # once per process: forget what earlier tests were told

    ds = cloud_workspace.get_default_datastore()
    mapped = v2_name("my dataset")
    assert mapped.startswith("my-dataset-") and mapped == v2_name("my dataset")
    with pytest.warns(UserWarning, match=f"registered as '{mapped}'"):
        Dataset.File.from_files(path=(ds, "d/**")).register(cloud_workspace, "my dataset")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # said once
        Dataset.File.from_files(path=(ds, "e/**")).register(cloud_workspace, "my dataset", create_new_version=True)
    put = fake_aml.calls("PUT", rf".*/data/{mapped}/versions/1")[0].json()["properties"]
    assert put["properties"][V1_NAME_TAG] == "my dataset"
    assert Dataset.get_by_name(cloud_workspace, "my dataset", version=1).name == "my dataset"
    assert list(Dataset.get_all(cloud_workspace)) == ["my dataset"]
