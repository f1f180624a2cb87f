"""Metrics an ACPT image's real azureml-core logs (run history's metric v2 API) read back in v1's shapes.

The bodies below are what azureml-core 1.61's ``run.log*`` posts to ``POST /metric/v2.0/.../runs/{runId}/batch``
(azureml/core/_metrics.py ``create_v2_dto``: one IMetricV2 per call, typed columns, ``uxMetricType``), sent over
HTTPS to the fake as a job would; the driver then reads them through ``list`` and ``full``.
"""

from __future__ import annotations

import uuid

import pytest
import requests

from acpt_estimator import PyTorch
from acpt_estimator.v1.core.experiment import Experiment
from tests.fake_aml import JobScript
from tests.fake_aml.fixtures import *  # noqa: F401,F403

pytestmark = pytest.mark.integration

_T = "2026-01-01T00:00:{:02d}.1234567Z"  # the service's seven fraction digits


def _metric(name, ux, columns, rows, second=0, step=None):
    values = [{"metricId": str(uuid.uuid4()), "createdUtc": _T.format(second),
               **({"step": step} if step is not None else {}), "data": row} for row in rows]
    return {"name": name, "columns": columns, "properties": {"uxMetricType": ux}, "value": values}


def azureml_core_logs(run_id: str) -> list:
    """One IMetricV2 per v1 call, as azureml-core's ScalarMetric/ListMetric/RowMetric/TableMetric/ImageMetric/
    ConfusionMatrixMetric build them."""
    location = f"aml://artifactId/ExperimentRun/dcid.{run_id}"
    scalar = "azureml.v1.scalar"
    return [
        *[_metric("epochs", scalar, {"epochs": "int"}, [{"epochs": v}], second=v, step=v) for v in (1, 2, 3)],
        _metric("lr", scalar, {"lr": "double"}, [{"lr": 0.01}], second=4),
        _metric("note", scalar, {"note": "string"}, [{"note": "epoch 3: 0.200"}], second=5),
        _metric("flag", scalar, {"flag": "bool"}, [{"flag": True}], second=6),
        _metric("curve", "azureml.v1.list", {"curve": "double"}, [{"curve": 0.1}, {"curve": 0.2}], second=7),
        _metric("rows", "azureml.v1.table", {"epoch": "int", "acc": "double"}, [{"epoch": 1, "acc": 0.5}], second=8),
        _metric("rows", "azureml.v1.table", {"epoch": "int", "acc": "double"}, [{"epoch": 2, "acc": 0.75}], second=9),
        _metric("table", "azureml.v1.table", {"x": "int", "y": "string"},
                [{"x": 1, "y": "a"}, {"x": 2, "y": "b"}], second=10),
        _metric("picture", "azureml.v2.image", {"picture": "Artifact"}, [{"picture": f"{location}/picture.png"}],
                second=11),
        _metric("cm", "azureml.v2.confusion_matrix", {"cm": "Artifact"}, [{"cm": f"{location}/cm"}], second=12),
    ]


@pytest.fixture
def cloud_run(fake_aml, cloud_workspace, make_project):
    fake_aml.script_next_job(JobScript(metrics={}, files={}))
    est = PyTorch(make_project(), entry_script="train.py", compute_target="gpu-cluster")
    run = Experiment(cloud_workspace, "metrics-v2").submit(est)
    run.wait_for_completion()
    return run


def _post_batch(fake_aml, run_id, metrics):
    state = fake_aml.state
    url = f"{fake_aml.url}/metric/v2.0{state.ws_id}/runs/{run_id}/batch"
    answer = requests.post(url, json={"values": metrics, "reportErrors": True}, verify=fake_aml.ca_path,
                           headers={"Authorization": "Bearer job-token"}, timeout=30)
    assert answer.status_code == 200 and answer.json() == {"errors": []}, answer.text


def test_what_the_images_azureml_core_logs_reads_back_in_v1_shapes(fake_aml, cloud_run):
    _post_batch(fake_aml, cloud_run.id, azureml_core_logs(cloud_run.id))
    location = f"aml://artifactId/ExperimentRun/dcid.{cloud_run.id}"
    metrics = cloud_run.get_metrics()
    assert metrics == {"epochs": [1, 2, 3], "lr": 0.01, "note": "epoch 3: 0.200", "flag": True, "curve": [0.1, 0.2],
                       "rows": {"epoch": [1, 2], "acc": [0.5, 0.75]}, "table": {"x": [1, 2], "y": ["a", "b"]},
                       "picture": f"{location}/picture.png", "cm": f"{location}/cm"}
    assert [type(v) for v in metrics["epochs"]] == [int, int, int]  # ints stay ints
    assert cloud_run.get_metrics("rows") == {"rows": {"epoch": [1, 2], "acc": [0.5, 0.75]}}
    assert cloud_run.get_metrics("nope") == {}  # full answers 404 for a metric the run lacks


def test_long_metric_lists_are_read_across_pages(fake_aml, cloud_run):
    fake_aml.state.metric_list_page_size = 2
    fake_aml.state.metric_page_size = 3
    _post_batch(fake_aml, cloud_run.id, [_metric(f"m{i}", "azureml.v1.scalar", {f"m{i}": "int"},
                                                 [{f"m{i}": v} for v in range(7)]) for i in range(5)])
    assert cloud_run.get_metrics() == {f"m{i}": list(range(7)) for i in range(5)}
    lists = fake_aml.calls("POST", r"/runs/[^/]+/list$")
    assert [c.json().get("continuationToken") for c in lists] == [None, "2", "4"]


def test_a_conflicting_type_is_reported_per_metric_as_the_service_does(fake_aml, cloud_run):
    state = fake_aml.state
    url = f"{fake_aml.url}/metric/v2.0{state.ws_id}/runs/{cloud_run.id}/batch"
    first = _metric("loss", "azureml.v1.scalar", {"loss": "double"}, [{"loss": 0.5}])
    second = _metric("loss", "azureml.v1.scalar", {"loss": "string"}, [{"loss": "high"}])
    answer = requests.post(url, json={"values": [first, second], "reportErrors": True}, verify=fake_aml.ca_path,
                           timeout=30)
    assert answer.status_code == 207 and [e["metric"]["name"] for e in answer.json()["errors"]] == ["loss"]
    assert cloud_run.get_metrics() == {"loss": 0.5}
