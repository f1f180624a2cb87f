"""One training script logging every v1 kind on 2 ranks; the local and the cloud backend must read back the same.

Local: a real local run (2 ranks under the local launcher, records in the local store). Cloud: the job submitted to
the loopback fake, then the same script run as that job's 2 ranks, with the job runtime's MLflow-backed Run
logging over HTTPS to the fake's MLflow API, as a v2 job on an image without azureml-core does.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from acpt_estimator import PyTorch
from acpt_estimator.job_runtime import RUNTIME_DIR
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.workspace import Workspace
from acpt_estimator.v1.train.dnn import Gloo
from tests.fake_aml import JobScript
from tests.fake_aml.fixtures import *  # noqa: F401,F403

pytestmark = pytest.mark.integration

TRAIN = r'''
import os
from azureml.core.run import Run

run = Run.get_context()
rank = int(os.environ["RANK"])
r = f"r{rank}"
run.log(f"once_{r}", 0.5 + rank)
for value in (3, 2, 1):
    run.log(f"ints_{r}", value)
run.log(f"text_{r}", f"rank {rank}: {0.25:.3f}")
run.log(f"flag_{r}", True)
run.log(f"odd name (%) {r}", 1.0)
run.log_list(f"list_{r}", [0.1, 0.2])
run.log_list(f"single_{r}", [7])
run.log_list(f"long_{r}", [i / 7 for i in range(600)])  # longer than one record tag
run.log_row(f"rows_{r}", epoch=1, acc=0.5)
run.log_row(f"rows_{r}", epoch=2, acc=0.75)
run.log_table(f"table_{r}", {"x": [1, 2], "y": ["a", "b"]})
run.log_confusion_matrix(f"cm_{r}", {"schema_type": "confusion_matrix", "data": {"matrix": [[1, 0], [0, 1]]}})
run.log("shared", rank)
run.tag(f"stage_{r}", "trained")
with open(f"notes_{r}.txt", "w") as handle:
    handle.write(f"rank {rank}\n")
run.upload_file(f"outputs/notes_{r}.txt", f"notes_{r}.txt")
if rank == 0:
    with open("picture.png", "wb") as handle:
        handle.write(b"\x89PNG fake")
    run.log_image("picture", path="picture.png")
print("rank", rank, "done")
'''


PARAMS = {"--epochs": 2, "--name": "two words"}


def _local(tmp_path, monkeypatch, source):
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store"))
    est = PyTorch(source, entry_script="train.py", compute_target="local", node_count=1, script_params=PARAMS,
                  process_count_per_node=2, distributed_training=Gloo())
    run = Experiment(Workspace._local(), "conformance").submit(est)
    run.wait_for_completion()
    return run


def _cloud(fake_aml, cloud_workspace, source):
    fake_aml.script_next_job(JobScript(metrics={}, files={}))
    est = PyTorch(source, entry_script="train.py", compute_target="gpu-cluster", node_count=1, script_params=PARAMS,
                  process_count_per_node=2, distributed_training=Gloo())
    run = Experiment(cloud_workspace, "conformance").submit(est)
    state = fake_aml.state
    tracking = f"{fake_aml.url}/mlflow/v2.0{state.ws_id}"
    ranks = []
    for rank in (0, 1):  # the job's two processes, as v2's PyTorch distribution starts them
        env = dict(os.environ, RANK=str(rank), WORLD_SIZE="2", MLFLOW_TRACKING_URI=tracking, MLFLOW_RUN_ID=run.id,
                   MLFLOW_TRACKING_TOKEN="fake-token", AZUREML_RUN_ID=run.id, PYTHONPATH=RUNTIME_DIR,
                   ACPT_ESTIMATOR_AZUREML_RUN="mlflow")
        for name in ("ACPT_ESTIMATOR_RUN_DIR", "ACPT_ESTIMATOR_RUN_ID", "HTTPS_PROXY"):
            env.pop(name, None)
        ranks.append(subprocess.Popen([sys.executable, os.path.join(source, "train.py")], cwd=source, env=env,
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    for proc in ranks:
        out, _ = proc.communicate(timeout=180)
        assert proc.returncode == 0, out
    run.wait_for_completion()
    return run


@pytest.fixture(params=["local", "cloud"])
def backend_run(request, tmp_path, monkeypatch, make_project):
    source = make_project({"train.py": TRAIN})
    if request.param == "local":
        return _local(tmp_path, monkeypatch, source)
    return _cloud(request.getfixturevalue("fake_aml"), request.getfixturevalue("cloud_workspace"), source)


def _expected(rank: int) -> dict:
    r = f"r{rank}"
    return {
        f"once_{r}": 0.5 + rank, f"ints_{r}": [3, 2, 1], f"text_{r}": f"rank {rank}: 0.250", f"flag_{r}": True,
        f"odd name (%) {r}": 1.0, f"list_{r}": [0.1, 0.2], f"single_{r}": 7, f"long_{r}": [i / 7 for i in range(600)],
        f"rows_{r}": {"epoch": [1, 2], "acc": [0.5, 0.75]}, f"table_{r}": {"x": [1, 2], "y": ["a", "b"]},
        f"cm_{r}": {"schema_type": "confusion_matrix", "data": {"matrix": [[1, 0], [0, 1]]}}}


def test_every_v1_kind_details_and_files_read_back_alike(backend_run, tmp_path):
    """One run per backend (a job costs seconds): metrics and tags, then details, then files."""
    metrics = backend_run.get_metrics()
    picture = metrics.pop("picture")
    shared = metrics.pop("shared")
    assert metrics == {**_expected(0), **_expected(1)}
    assert [type(v) for v in metrics["ints_r0"]] == [int, int, int]  # ints stay ints, as logged
    assert sorted(shared) == [0, 1]  # logged once per rank: a list, in the order the ranks logged it
    match = re.fullmatch(rf"aml://artifactId/ExperimentRun/dcid\.{re.escape(backend_run.id)}/(picture_\d+\.png)",
                         picture)
    assert match and match.group(1) in backend_run.get_file_names()
    assert backend_run.get_metrics("list_r1") == {"list_r1": [0.1, 0.2]}
    assert backend_run.get_metrics("single_r0") == {"single_r0": 7}
    tags = backend_run.get_tags()
    assert {k: v for k, v in tags.items() if k.startswith("stage_")} == {"stage_r0": "trained", "stage_r1": "trained"}
    assert not any(key.startswith("acpt.v1") for key in tags)  # records are not user tags
    _details_have_v1_keys_and_the_script_arguments(backend_run)
    _files_uploaded_by_each_rank_come_back(backend_run, tmp_path)


def _details_have_v1_keys_and_the_script_arguments(backend_run):
    details = backend_run.get_details()
    assert details["status"] == "Completed" and details["runId"] == backend_run.id
    assert {"startTimeUtc", "endTimeUtc", "properties", "inputDatasets", "outputDatasets", "logFiles"} <= set(details)
    definition = details["runDefinition"]
    assert (definition["script"], definition["arguments"]) == ("train.py", ["--epochs", "2", "--name", "two words"])
    assert definition["nodeCount"] == 1


def _files_uploaded_by_each_rank_come_back(backend_run, tmp_path):
    names = backend_run.get_file_names()
    assert {"outputs/notes_r0.txt", "outputs/notes_r1.txt"} <= set(names)
    backend_run.download_file("outputs/notes_r1.txt", str(tmp_path / "notes.txt"))
    assert (tmp_path / "notes.txt").read_text() == "rank 1\n"
