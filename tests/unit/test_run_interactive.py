"""v1's Run surface on interactive local runs (``Experiment.start_logging``, ``child_run``) and run lookup by id."""

from __future__ import annotations

import os

import pytest

from acpt_estimator.exceptions import UserErrorException, V1NotSupportedException
from acpt_estimator.v1.core.experiment import Experiment, ViewType
from acpt_estimator.v1.core.run import Run, get_run
from acpt_estimator.v1.core.script_run import ScriptRun
from acpt_estimator.v1.core.workspace import Workspace


@pytest.fixture
def experiment(tmp_path, monkeypatch):
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store"))
    return Experiment(Workspace._local(), "interactive")


def test_start_logging_gives_a_run_that_logs_and_completes(experiment):
    run = experiment.start_logging(display_name="notebook")
    assert run.get_status() == "Running" and run.display_name == "notebook"
    run.log("loss", 0.5)
    run.log("loss", 0.25)
    run.log("note", "kept as a string")
    run.log_list("curve", [1])
    run.tag("stage", "eda")
    run.complete()
    assert run.get_status() == "Completed" and run.get_details()["endTimeUtc"]
    again = Run.get(experiment.workspace, run.id)  # another object, read back from the store
    assert again.get_metrics() == {"loss": [0.5, 0.25], "note": "kept as a string", "curve": 1}
    assert again.get_tags() == {"stage": "eda"} and again.experiment.name == "interactive"



def test_an_interactive_run_is_exported_to_mlflow_like_a_job(experiment, monkeypatch):
    from mlflow.tracking import MlflowClient

    run = experiment.start_logging()
    run.log("loss", 0.5)
    run.log("loss", 0.25)
    run.complete()
    client = MlflowClient(experiment.workspace.get_mlflow_tracking_uri())  # copies finished runs in
    found = client.search_runs([client.get_experiment_by_name("interactive").experiment_id],
                               f"tags.`azureml.runid` = '{run.id}'")
    assert len(found) == 1 and found[0].info.status == "FINISHED" and found[0].info.run_name == run.id
    assert [m.value for m in client.get_metric_history(found[0].info.run_id, "loss")] == [0.5, 0.25]
    assert run.get_metrics() == {"loss": [0.5, 0.25]}  # the copy is not counted twice


def test_with_block_fails_the_run_on_an_exception(experiment):
    with pytest.raises(ZeroDivisionError):
        with experiment.start_logging() as run:
            1 / 0
    details = run.get_details()
    assert details["status"] == "Failed" and "ZeroDivisionError" in details["error"]["error"]["message"]


def test_children_parent_and_lookup_by_id(experiment):
    parent = experiment.start_logging()
    child = parent.child_run(name="fold")
    tagged = parent.create_children(tag_key="fold", tag_values=["a", "b"])
    assert [c.get_tags()["fold"] for c in tagged] == ["a", "b"]
    assert [c.id for c in parent.get_children()] == [child.id] + [c.id for c in tagged]
    assert [c.id for c in parent.get_children(tags={"fold": "b"})] == [tagged[1].id]
    assert child.parent.id == parent.id and parent.parent is None
    assert child.number > parent.number >= 1
    reopened = Run(experiment, child.id)  # v1's constructor reopens a run by id
    assert isinstance(reopened, ScriptRun) and reopened.id == child.id
    assert get_run(experiment, child.id).id == child.id and ScriptRun(experiment, child.id).id == child.id
    grandchild = child.child_run(name="inner")
    assert [c.id for c in parent.get_children(recursive=True)] == [child.id, *[c.id for c in tagged], grandchild.id]
    grandchild.complete()
    child.log("acc", 0.5)
    parent.log("loss", 1.0)
    assert parent.get_metrics(recursive=True) == {parent.id: {"loss": 1.0}, child.id: {"acc": 0.5},
                                                  tagged[0].id: {}, tagged[1].id: {}, grandchild.id: {}}
    for c in [child, *tagged]:
        c.complete()
    parent.complete()
    assert [r.id for r in Run.list(experiment)] == [parent.id]  # children only with include_children
    assert len(list(experiment.get_runs(include_children=True))) == 5
    with pytest.raises(UserErrorException, match="run_id='../evil' is not a valid run name"):
        parent.child_run(run_id="../evil")
    with pytest.raises(UserErrorException, match="tag_values"):
        parent.create_children(count=3, tag_key="fold", tag_values=["a"])


def test_tags_can_be_removed_and_runs_filtered(experiment):
    run = experiment.start_logging()
    run.set_tags({"a": "1", "b": "2"})
    run.remove_tags(["a"])
    assert run.get_tags() == {"b": "2"} and run.tags == {"b": "2"}
    run.add_properties({"p": 1})
    assert run.get_properties()["p"] == "1"
    run.complete()
    assert [r.id for r in experiment.get_runs(tags={"b": "2"})] == [run.id]
    assert list(experiment.get_runs(tags="a")) == [] and list(experiment.get_runs(properties={"p": "1"}))


def test_experiment_tags_listing_and_refusals(experiment):
    experiment.start_logging().complete()
    experiment.set_tags({"team": "vision", "old": "x"})
    experiment.remove_tags("old")
    assert experiment.tags == {"team": "vision"}
    assert [e.name for e in Experiment.list(experiment.workspace)] == ["interactive"]
    assert Experiment.list(experiment.workspace, view_type=ViewType.ARCHIVED_ONLY) == []
    assert experiment.workspace_object is experiment.workspace and experiment.archived_time is None
    with pytest.raises(V1NotSupportedException, match="Experiment.archive.*Use instead:"):
        experiment.archive()


def test_a_submitted_runs_status_is_not_set_by_complete(experiment):
    run = experiment.start_logging()
    run.complete()
    with pytest.raises(UserErrorException, match="has ended"):
        run.start()
    with pytest.raises(UserErrorException, match="No run 'nope'"):
        Run.get(experiment.workspace, "nope")
    with pytest.raises(UserErrorException, match="Secret 'token' is not in the workspace key vault"):
        run.get_secret("token")
    experiment.workspace.get_default_keyvault().set_secret("token", "t0k")
    assert run.get_secret("token") == "t0k" and run.get_secrets(["token"]) == {"token": "t0k"}


def test_logs_come_back_with_the_details(experiment, tmp_path):
    run = experiment.start_logging()
    log = tmp_path / "driver.txt"
    log.write_text("step 1\n")
    run.upload_file("logs/driver.txt", str(log))
    run.upload_file("outputs/model.txt", str(log))
    assert run.get_details_with_logs()["logFiles"] == {"logs/driver.txt": "step 1\n"}
    paths = run.get_all_logs(destination=str(tmp_path / "all"))
    assert [p.replace(str(tmp_path), "") for p in paths] == ["/all/logs/driver.txt"]
