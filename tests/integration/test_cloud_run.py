"""The v1 Run API over a submitted v2 job: streaming, failure, metrics, files, models, cancel, tags."""

from __future__ import annotations

import pytest

from acpt_estimator import PyTorch
from acpt_estimator.exceptions import ActivityFailedException, ModelPathNotFoundException, UserErrorException
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.run import Run
from tests.fake_aml import JobScript
from tests.fake_aml.fixtures import *  # noqa: F401,F403

pytestmark = pytest.mark.integration


@pytest.fixture
def submit(fake_aml, cloud_workspace, make_project):
    source = make_project()

    def do(script: JobScript | None = None, experiment="runs"):
        if script is not None:
            fake_aml.script_next_job(script)
        est = PyTorch(source, entry_script="train.py", compute_target="gpu-cluster", use_gpu=True)
        return Experiment(cloud_workspace, experiment).submit(est)

    return do


def test_wait_for_completion_streams_the_log_like_v1(submit, capsys):
    lines = [f"epoch {i} loss {1 / (i + 1):.3f}" for i in range(6)]
    run = submit(JobScript(states=("Queued", "Running", "Running", "Completed"),
                           logs={"user_logs/std_log.txt": lines}))
    assert isinstance(run, Run)

    details = run.wait_for_completion(show_output=True)

    out = capsys.readouterr().out
    assert out.startswith(f"RunId: {run.id}\nWeb View: https://ml.azure.com/runs/{run.id}?wsid=")
    assert "Streaming user_logs/std_log.txt\n===============================\n" in out
    assert all(out.count(line + "\n") == 1 for line in lines)  # partial logs are printed incrementally, once
    assert out.index(lines[0]) < out.index(lines[-1]) < out.index("Execution Summary\n=================\n")
    assert details["status"] == "Completed" and details["runId"] == run.id
    assert details["target"] == "gpu-cluster" and "endTimeUtc" in details
    assert details["runDefinition"]["environment"] == "azureml:AzureML-acpt-pytorch-2.8-cuda12.6@latest"
    assert run.get_status() == "Completed"


def test_failed_run_raises_activity_failed(submit, capsys):
    error = {"error": {"code": "UserError", "message": "ZeroDivisionError: division by zero"}}
    run = submit(JobScript(states=("Running", "Failed"), logs={"user_logs/std_log.txt": ["Traceback ..."]},
                           error=error))
    with pytest.raises(ActivityFailedException) as info:
        run.wait_for_completion(show_output=True)
    assert info.value.message.startswith("Activity Failed:\n")
    assert "ZeroDivisionError: division by zero" in info.value.message
    assert "Traceback ..." in capsys.readouterr().out

    details = run.wait_for_completion(show_output=False, raise_on_error=False)
    assert details["status"] == "Failed" and details["error"] == error


@pytest.mark.parametrize("stuck", ["NotResponding", "Paused"])
def test_waiting_stops_at_not_responding_and_paused_as_in_azure_ai_ml(submit, capsys, stuck):
    run = submit(JobScript(states=("Running", stuck, "Running", "Completed")))
    details = run.wait_for_completion(show_output=True)
    assert details["status"] == stuck and run.is_terminal()
    assert f"The run is {stuck}; waiting stops here" in capsys.readouterr().out


def test_streams_the_rank_zero_log_of_a_distributed_job(submit, capsys):
    logs = {f"user_logs/std_log_process_{rank}.txt": [f"rank {rank} says hi"] for rank in (1, 0, 2)}
    run = submit(JobScript(states=("Running", "Completed"), logs=logs))
    run.wait_for_completion(show_output=True)
    out = capsys.readouterr().out
    assert "rank 0 says hi" in out and "rank 1 says hi" not in out and "rank 2 says hi" not in out


def test_get_metrics_has_v1_scalar_and_list_semantics(submit):
    run = submit(JobScript(metrics={"lr": [0.01], "loss": [0.9, 0.5, 0.25], "best_val_acc": [0.5, 0.75]}))
    run.wait_for_completion()
    metrics = run.get_metrics()
    assert metrics == {"lr": 0.01, "loss": [0.9, 0.5, 0.25], "best_val_acc": [0.5, 0.75]}
    assert metrics["best_val_acc"][-1] == 0.75  # what v1 samples do
    assert run.get_metrics("lr") == {"lr": 0.01} and run.get_metrics("nope") == {}


def test_a_long_metric_history_comes_back_whole_across_pages(submit, fake_aml):
    fake_aml.state.metric_page_size = 4  # the service answers a long metric in pages (continuationToken)
    run = submit(JobScript(metrics={"loss": [float(i) for i in range(10)]}))
    assert run.get_metrics("loss") == {"loss": [float(i) for i in range(10)]}
    pages = fake_aml.calls("POST", r"/runs/[^/]+/full$")  # run history's metric v2 API, as azureml-core reads it
    assert len(pages) == 3 and all(c.path.startswith("/metric/v2.0/subscriptions/") for c in pages)
    assert [c.json().get("continuationToken") for c in pages] == [None, "4", "8"]


def test_the_driver_logs_to_a_cloud_run_like_the_job_does(submit):
    run = submit(JobScript(metrics={}))
    run.log("from_driver", 0.5)
    run.log("note", "checked by hand")
    run.log_list("curve", [1])
    run.log_row("rows", epoch=1, acc=0.5)
    assert run.get_metrics() == {"from_driver": 0.5, "note": "checked by hand", "curve": 1,
                                 "rows": {"epoch": 1, "acc": 0.5}}


def test_files_can_be_listed_and_downloaded(fake_aml, submit, tmp_path):
    run = submit(JobScript(files={"outputs/model.pt": b"weights", "outputs/logs/events.txt": b"e",
                                  "logs/tb/run1": b"tb", "outputs/best model+v1 #2.pt": b"best"}))
    run.wait_for_completion()
    names = run.get_file_names()  # two pages of the Artifact API's listing
    assert names == ["logs/tb/run1", "outputs/best model+v1 #2.pt", "outputs/logs/events.txt", "outputs/model.pt",
                     "user_logs/std_log.txt"]
    assert [r.query.get("continuationToken") for r in fake_aml.calls("GET", rf"/dcid\.{run.id}$")] == [None, "3"]

    run.download_file("outputs/best model+v1 #2.pt", output_file_path=str(tmp_path / "best.pt"))
    assert (tmp_path / "best.pt").read_bytes() == b"best"
    info = fake_aml.calls("GET", rf"/artifacts/ExperimentRun/dcid\.{run.id}/contentinfo$")
    assert [r.query for r in info] == [{"path": "outputs/best model+v1 #2.pt"}]  # the published swagger form

    run.download_file("outputs/model.pt", output_file_path=str(tmp_path))
    assert (tmp_path / "model.pt").read_bytes() == b"weights"
    run.download_file("outputs/model.pt")  # v1 default: basename in the cwd
    assert open("model.pt", "rb").read() == b"weights"
    with pytest.raises(UserErrorException, match="outputs/missing.pt was not found"):
        run.download_file("outputs/missing.pt")

    run.download_files(prefix="outputs/", output_directory=str(tmp_path / "all"))
    assert (tmp_path / "all/outputs/logs/events.txt").read_bytes() == b"e"
    run.download_files(prefix="outputs/", output_directory=str(tmp_path / "flat"), append_prefix=False)
    assert (tmp_path / "flat/model.pt").read_bytes() == b"weights"
    assert (tmp_path / "flat/best model+v1 #2.pt").read_bytes() == b"best"


def test_register_model_points_at_the_job_output(fake_aml, submit):
    run = submit()
    run.wait_for_completion()
    model = run.register_model("mnist", model_path="outputs/model.pt", tags={"acc": 0.9},
                               model_framework="PyTorch")
    put = fake_aml.calls("PUT", r"/models/mnist/versions/1$")
    assert len(put) == 1
    props = put[0].json()["properties"]
    assert props["modelUri"] == f"azureml://jobs/{run.id}/outputs/artifacts/paths/outputs/model.pt"
    assert props["modelType"] == "custom_model" and props["tags"] == {"acc": "0.9"}
    assert props["properties"]["model_framework"] == "PyTorch"
    assert (model.name, model.version, model.id) == ("mnist", 1, "mnist:1")  # v1's shapes: an int version
    assert model.model_framework == "PyTorch" and model.run_id == run.id and model.tags == {"acc": "0.9"}
    assert fake_aml.calls("PUT", r"^/blob/.*model") == []  # nothing is uploaded: the service copies the output
    with pytest.raises(ModelPathNotFoundException, match="outputs/nope.pt"):
        run.register_model("mnist", model_path="outputs/nope.pt")


def test_cancel_calls_cancel(fake_aml, submit):
    run = submit(JobScript(states=("Queued", "Running", "Running", "Running")))
    assert run.get_status() == "Queued"
    run.cancel()
    assert len(fake_aml.calls("POST", rf"/jobs/{run.id}/cancel$")) == 1
    assert run.get_status() == "Canceled"
    assert run.wait_for_completion()["status"] == "Canceled"


def test_tags_are_merged_and_runs_listed_per_experiment(fake_aml, submit):
    first = submit(experiment="tagged")
    submit(experiment="other")
    first.tag("stage", "baseline")
    first.set_tags({"owner": "ml-team"})
    assert first.get_tags() == {"stage": "baseline", "owner": "ml-team"}
    patches = fake_aml.calls("PATCH", rf"/experiments/tagged/runs/{first.id}$")
    assert [p.json()["tags"] for p in patches] == [{"stage": "baseline"}, {"owner": "ml-team"}]
    runs = list(first.experiment.get_runs())  # v1 returns a generator
    assert [r.id for r in runs] == [first.id]
    assert runs[0].get_portal_url().startswith(f"https://ml.azure.com/runs/{first.id}")


def test_transient_errors_while_polling_are_retried(fake_aml, submit):
    run = submit(JobScript(states=("Running", "Completed")))
    fake_aml.fail_next("GET", r"/runs/[^/]+/details$", 503, 429)
    assert run.wait_for_completion()["status"] == "Completed"
    assert [r.status for r in fake_aml.calls("GET", r"/details$")][:3] == [503, 429, 200]


def test_run_surface_on_a_cloud_run(submit, fake_aml, cloud_workspace, tmp_path):
    from acpt_estimator.v1.core.script_run import ScriptRun

    first = submit()
    run = submit()
    again = Run.get(cloud_workspace, run.id)  # by id, from another object
    assert isinstance(again, ScriptRun) and again.id == run.id and again.experiment.name == "runs"
    assert Run(run.experiment, run.id).id == run.id and run.number == first.number + 1 and run.parent is None
    run.set_tags({"keep": "1", "drop": "2"})
    run.remove_tags("drop")
    assert run.get_tags() == {"keep": "1"}
    deleted = fake_aml.calls("DELETE", r"/history/v1\.0/.*/runs/[^/]+/tags$")  # run history's tag deletion
    assert [c.json() for c in deleted] == [["drop"]]
    note = tmp_path / "note.txt"
    note.write_text("from the driver\n")
    run.upload_file("outputs/note.txt", str(note))
    (tmp_path / "folder" / "sub").mkdir(parents=True)
    (tmp_path / "folder" / "sub" / "a.txt").write_text("a")
    run.upload_folder("extra", str(tmp_path / "folder"))
    run.log_image("picture", path=str(note))
    names = run.get_file_names()
    assert {"outputs/note.txt", "extra/sub/a.txt"} <= set(names)
    assert run.get_metrics("picture")["picture"].split("/")[-1] in names
    run.download_file("outputs/note.txt", str(tmp_path / "back.txt"))
    assert (tmp_path / "back.txt").read_text() == "from the driver\n"
    assert fake_aml.calls("POST", r"/experiments/runs/runs/[^/]+/artifacts/batch/metadata$")
    note.write_text("other bytes\n")
    with pytest.raises(UserErrorException, match="already exists.*cannot be replaced"):
        run.upload_file("outputs/note.txt", str(note))  # v1 refused to replace a run's file too
    run.experiment.workspace.get_default_keyvault().set_secret("token", "t0k")  # the workspace's Key Vault
    assert run.get_secret("token") == "t0k" and run.get_secrets(["token"]) == {"token": "t0k"}
    with pytest.raises(UserErrorException, match="set by the job itself"):
        run.complete()
    run.wait_for_completion()
    assert run.get_details_with_logs()["logFiles"]["user_logs/std_log.txt"].startswith("Epoch 1 loss 0.9\n")


def test_details_have_v1_run_definition_with_script_and_arguments(fake_aml, cloud_workspace, make_project):
    est = PyTorch(make_project(), entry_script="train.py", compute_target="gpu-cluster",
                  script_params={"--epochs": 3, "--note": "two words", "--flag": ""})
    run = Experiment(cloud_workspace, "defs").submit(est)
    definition = run.get_details()["runDefinition"]
    assert definition["script"] == "train.py" and definition["nodeCount"] == 1
    assert definition["arguments"] == ["--epochs", "3", "--note", "two words", "--flag"]


def test_start_logging_in_the_cloud_is_an_mlflow_run_of_the_workspace(fake_aml, cloud_workspace, tmp_path):
    experiment = Experiment(cloud_workspace, "notebook")
    (tmp_path / "eda.txt").write_text("findings")
    with experiment.start_logging(display_name="eda") as run:
        run.log("loss", 0.5)
        run.log("loss", 0.25)
        run.log("note", "strings are kept")
        run.log_table("t", {"a": [1, 2]})
        run.tag("stage", "eda")
        run.add_properties({"source": "notebook"})
        run.upload_file("outputs/eda.txt", str(tmp_path / "eda.txt"))
        child = run.child_run(name="fold0")
        child.log("acc", 0.9)
        child.complete()
        assert run.get_status() == "Running"
    assert fake_aml.calls("POST", r"^/mlflow/v2\.0/.*/runs/create$")
    assert run.get_status() == "Completed" and run.display_name == "eda"
    assert run.get_metrics() == {"loss": [0.5, 0.25], "note": "strings are kept", "t": {"a": [1, 2]}}
    assert run.get_tags() == {"stage": "eda"} and run.properties == {"source": "notebook"}
    assert run.get_file_names() == ["outputs/eda.txt"]
    assert [c.id for c in run.get_children()] == [child.id] and child.parent.id == run.id
    assert Run.get(cloud_workspace, child.id).get_metrics() == {"acc": 0.9}
    with pytest.raises(ZeroDivisionError):
        with experiment.start_logging() as failing:
            1 / 0
    assert failing.get_status() == "Failed"


def test_cloud_children_are_filtered_and_walked_as_v1_did(fake_aml, cloud_workspace):
    """get_children(recursive, properties, type) in the cloud, as the local store answers them."""
    run = Experiment(cloud_workspace, "tree").start_logging()
    first = run.child_run(name="a")
    first.add_properties({"fold": "0"})
    grandchild = first.child_run(name="g")
    grandchild.complete()
    first.complete()
    second = run.child_run(name="b")
    second.complete()
    assert sorted(c.id for c in run.get_children()) == sorted([first.id, second.id])
    assert sorted(c.id for c in run.get_children(recursive=True)) == sorted([first.id, second.id, grandchild.id])
    assert [c.id for c in run.get_children(properties={"fold": "0"})] == [first.id]
    assert sorted(c.id for c in run.get_children(type=first.type)) == sorted([first.id, second.id])
    assert list(run.get_children(type="azureml.PipelineRun")) == []
    run.complete()


def test_details_keep_what_the_job_runs_and_who_submitted_it(submit, fake_aml):
    """Run history sends ``runDefinition`` with ``script: null, arguments: []`` for a v2 job, and ``createdBy``
    (not ``submittedBy``): the v1 keys come from the job and from the run's creator."""
    run = submit()
    details = run.wait_for_completion()
    assert details["runDefinition"]["script"] == "train.py" and details["runDefinition"]["framework"] == "Python"
    assert details["submittedBy"] == "Fake User"
    assert fake_aml.calls("GET", r"/details$")[-1].status == 200


def test_children_as_run_history_lists_them(fake_aml, cloud_workspace, make_project):
    """Children come from run history (displayName, experimentId as a GUID, a wrapped error): they keep the
    parent's experiment, their display names and their failure."""
    from acpt_estimator.v1.train.hyperdrive.parameter_expressions import choice
    from acpt_estimator.v1.train.hyperdrive.policy import PrimaryMetricGoal
    from acpt_estimator.v1.train.hyperdrive.runconfig import HyperDriveConfig
    from acpt_estimator.v1.train.hyperdrive.sampling import GridParameterSampling

    error = {"error": {"code": "UserError", "message": "CUDA out of memory"}}
    trials = (({"lr": 0.1}, JobScript(states=("Completed",))), ({"lr": 0.2}, JobScript(states=("Failed",), error=error)))
    fake_aml.script_next_job(JobScript(states=("Running", "Completed"), children=trials))
    est = PyTorch(make_project(), entry_script="train.py", compute_target="gpu-cluster")
    config = HyperDriveConfig(GridParameterSampling({"lr": choice(0.1, 0.2)}), "loss", PrimaryMetricGoal.MINIMIZE,
                              max_total_runs=2, estimator=est)
    sweep = Experiment(cloud_workspace, "children").submit(config)
    children = {c.id: c for c in sweep.get_children()}
    assert sorted(children) == [f"{sweep.id}_0", f"{sweep.id}_1"]
    failed = children[f"{sweep.id}_1"]
    assert failed.experiment.name == "children" and failed.display_name == f"{sweep.id}_1"
    assert failed.get_status() == "Failed"
    assert failed.get_details()["error"] == error


def test_a_retried_upload_whose_first_answer_was_lost_succeeds(submit, fake_aml, tmp_path):
    """run history created the artifact but its answer never arrived: the client's retry gets a Conflict, and the
    upload goes on through the artifact's writable URI; uploading the same bytes again is no error either."""
    run = submit()
    note = tmp_path / "note.txt"
    note.write_bytes(b"weights v1")
    fake_aml.lose_answer_next("POST", r"/artifacts/batch/metadata$")
    run.upload_file("outputs/note.bin", str(note))
    posts = fake_aml.calls("POST", r"/artifacts/batch/metadata$")
    assert [c.status for c in posts] == [503, 200] and "outputs/note.bin" in posts[1].json()["paths"][0]["path"]
    run.upload_file("outputs/note.bin", str(note))  # the very same bytes: nothing to replace
    run.download_file("outputs/note.bin", str(tmp_path / "back.bin"))
    assert (tmp_path / "back.bin").read_bytes() == b"weights v1"
