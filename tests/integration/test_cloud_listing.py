"""Listing runs and experiments as run history allows: filters go to the service, pages are read as the caller
iterates (``Experiment.get_runs``, ``Experiment.list``, ``ComputeTarget.get_active_runs``)."""

from __future__ import annotations

import pytest

from acpt_estimator import PyTorch
from acpt_estimator.v1.core.compute import ComputeTarget
from acpt_estimator.v1.core.experiment import Experiment
from tests.fake_aml import JobScript
from tests.fake_aml.fixtures import *  # noqa: F401,F403

pytestmark = pytest.mark.integration


def _submit(fake_aml, workspace, source, experiment, states=("Completed",), compute="gpu-cluster", tags=None):
    fake_aml.script_next_job(JobScript(states=states))
    est = PyTorch(source, entry_script="train.py", compute_target=compute)
    return Experiment(workspace, experiment).submit(est, tags=tags)


def test_get_runs_filters_on_the_service_and_pages_lazily(fake_aml, cloud_workspace, make_project):
    source = make_project()
    runs = [_submit(fake_aml, cloud_workspace, source, "listed", tags={"stage": "a" if i % 2 else "b"})
            for i in range(5)]
    _submit(fake_aml, cloud_workspace, source, "elsewhere")
    fake_aml.state.list_page_size = 2
    fake_aml.requests.clear()

    listed = Experiment(cloud_workspace, "listed").get_runs(tags={"stage": "a"})
    first = next(listed)  # one page read, not every job of the workspace
    queries = fake_aml.calls("POST", r"/experiments/listed/runs:query$")
    assert len(queries) == 1 and not fake_aml.calls("GET", r"/jobs$")
    assert queries[0].json()["filter"] == '((Tags/stage eq "a") and (ParentRunId eq null))'
    assert [first.id] + [r.id for r in listed] == [runs[3].id, runs[1].id]  # newest first
    assert [c.json().get("continuationToken") for c in fake_aml.calls("POST", r"runs:query$")] == [None]

    everything = [r.id for r in Experiment(cloud_workspace, "listed").get_runs()]
    assert everything == [r.id for r in reversed(runs)]  # three pages of two
    assert [c.json().get("continuationToken") for c in fake_aml.calls("POST", r"runs:query$")][1:] == [None, "2", "4"]


def test_experiments_and_active_runs_come_from_run_history(fake_aml, cloud_workspace, make_project):
    from acpt_estimator.v1.core.compute import AmlCompute

    source = make_project()
    target = ComputeTarget.create(cloud_workspace, "gpu-cluster", AmlCompute.provisioning_configuration(max_nodes=2))
    done = _submit(fake_aml, cloud_workspace, source, "exp-a", compute=target)
    running = _submit(fake_aml, cloud_workspace, source, "exp-b", states=("Running",), compute=target)
    done.wait_for_completion()
    fake_aml.requests.clear()
    assert [e.name for e in Experiment.list(cloud_workspace)] == ["exp-a", "exp-b"]
    assert fake_aml.calls("POST", r"/experiments:query$") and not fake_aml.calls("GET", r"/jobs$")

    active = list(target.get_active_runs())
    assert [r.id for r in active] == [running.id] and active[0].experiment.name == "exp-b"
    status_filter = fake_aml.calls("GET", r"/computes/gpu-cluster/runs$")[0].query["$filter"]
    assert status_filter.startswith("(Status eq \"NotStarted\" or ") and not fake_aml.calls("GET", r"/jobs$")
    assert [r.id for r in target.get_active_runs(status="Completed")] == [done.id]  # status picks the state
