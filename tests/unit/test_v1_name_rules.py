"""v1's own name rules on the local backend: what v1 accepted works and stays inside the store (storage keys);
what v1 refused is refused with v1's exception class. The cloud half is tests/integration/test_cloud_name_rules.py."""

from __future__ import annotations

import os

import pytest

from tests.unit.test_safety_store import ws  # noqa: F401 - the local store fixture
from tests.v1_name_rules import ACCEPTED, METRIC_NAMES, REFUSED, TAGS, outside, use


@pytest.fixture(autouse=True)
def _data(ws):
    ws.get_default_datastore().upload(src_dir="./data", target_path="d", show_progress=False)


@pytest.mark.parametrize("kind,name", ACCEPTED, ids=lambda v: repr(v)[:24])
def test_names_v1_accepted_work_and_stay_in_the_store(ws, tmp_path, kind, name):
    assert use(kind, name, ws, tmp_path) == name
    assert outside(os.environ["ACPT_ESTIMATOR_HOME"]) == []


@pytest.mark.parametrize("kind,name,error", REFUSED, ids=lambda v: repr(v)[:24])
def test_names_v1_refused_are_refused_with_v1s_exception(ws, tmp_path, kind, name, error):
    before = sorted(os.walk(os.environ["ACPT_ESTIMATOR_HOME"]))
    with pytest.raises(error) as caught:
        use(kind, name, ws, tmp_path)
    assert type(caught.value) is error
    assert sorted(os.walk(os.environ["ACPT_ESTIMATOR_HOME"])) == before  # nothing was created


def test_metric_names_and_tags_v1_accepted_are_kept(ws):
    from acpt_estimator.v1.core.experiment import Experiment

    run = Experiment(ws, "names").start_logging()
    for number, name in enumerate(METRIC_NAMES):
        run.log(name, number)
    run.set_tags(TAGS)
    run.complete()
    assert run.get_metrics() == {name: number for number, name in enumerate(METRIC_NAMES)}
    assert {k: run.get_tags()[k] for k in TAGS} == TAGS


def test_a_store_written_before_reads_unchanged(ws, tmp_path):
    """Names the older, stricter rules allowed are their own storage keys: existing folders are found."""
    from acpt_estimator.backends.local import datastores

    use("dataset", "old-name.v1", ws, tmp_path)
    assert os.listdir(os.path.join(os.environ["ACPT_ESTIMATOR_HOME"], "datasets")) == ["old-name.v1"]
    assert datastores.names() == ["old-name.v1"]
