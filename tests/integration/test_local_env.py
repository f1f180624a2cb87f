"""Local runs give every rank Azure's environment contract, on real mpiexec, and leave no process behind."""

from __future__ import annotations

import json
import os
import textwrap

import pytest

from acpt_estimator import Datastore, Gloo, Mpi, PyTorch
from acpt_estimator.backends.local import get_run, list_runs
from acpt_estimator.backends.local.procs import job_pids
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.workspace import Workspace

pytestmark = pytest.mark.integration

PROBE = textwrap.dedent("""
    import json, os, sys
    from acpt_estimator.v1.core.run import Run
    run = Run.get_context()
    rank = os.environ["RANK"]
    os.makedirs("outputs", exist_ok=True)
    os.makedirs("logs", exist_ok=True)
    with open(f"outputs/env_{rank}.json", "w") as handle:
        json.dump({"env": dict(os.environ), "argv": sys.argv[1:], "cwd": os.getcwd(), "run_id": run.id,
                   "experiment": run.experiment.name, "workspace": run.experiment.workspace.name,
                   "inputs": run.input_datasets}, handle)
    open(f"logs/touched_{rank}.txt", "w").write("x")
    open("scratch_written_by_job.txt", "w").write("the snapshot is a copy")
    print(f"rank {rank} done", flush=True)
""")


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store"))
    source = tmp_path / "src"
    source.mkdir()
    (source / "probe.py").write_text(PROBE)
    (source / ".amlignore").write_text("secret.txt\n")
    (source / "secret.txt").write_text("not in the snapshot")
    return source


def _rank_files(run, world):
    found = {}
    for rank in range(world):
        name = f"outputs/env_{rank}.json"
        run.download_file(name, output_file_path=os.path.join(run.path, "check", name))
        with open(os.path.join(run.path, "check", name)) as handle:
            found[rank] = json.load(handle)
    return found


def test_one_node_two_processes_gets_the_mpi_contract(project, tmp_path):
    data = tmp_path / "store" / "datastores" / "workspaceblobstore" / "mnist"
    data.mkdir(parents=True)
    experiment = Experiment(Workspace._local(), "env-1x2")
    ds = Datastore(experiment.workspace, "workspaceblobstore")
    est = PyTorch(str(project), entry_script="probe.py", compute_target="local", distributed_training=Mpi(2),
                  script_params={"--rank": "$AZ_BATCHAI_TASK_INDEX", "--data": ds.path("mnist", "mnist").as_mount()},
                  environment_variables={"MY_SETTING": "a b"})
    run = experiment.submit(est)
    details = run.wait_for_completion()
    assert details["status"] == "Completed" and run.get_status() == "Completed"
    data = os.path.join(run.path, "inputs", "mnist")  # the datastore folder, seen read-only by the job
    ranks = _rank_files(run, 2)
    for rank, seen in ranks.items():
        env = seen["env"]
        for name, value in {"RANK": rank, "LOCAL_RANK": rank, "NODE_RANK": 0, "WORLD_SIZE": 2,
                            "OMPI_COMM_WORLD_RANK": rank, "OMPI_COMM_WORLD_SIZE": 2,
                            "OMPI_COMM_WORLD_LOCAL_RANK": rank, "OMPI_COMM_WORLD_LOCAL_SIZE": 2,
                            "AZ_BATCHAI_TASK_INDEX": rank, "MASTER_ADDR": "127.0.0.1",
                            "AZUREML_RUN_ID": run.id, "NCCL_TREE_THRESHOLD": 0, "MY_SETTING": "a b",
                            "AZUREML_DATAREFERENCE_mnist": str(data)}.items():
            assert env[name] == str(value), name
        port = env["MASTER_PORT"]
        assert env["AZ_BATCHAI_PYTORCH_INIT_METHOD"] == f"tcp://127.0.0.1:{port}"
        assert env["AZ_BATCH_MASTER_NODE"] == f"127.0.0.1:{port}"
        assert seen["argv"] == ["--rank", str(rank), "--data", str(data)]
        assert seen["run_id"] == run.id and seen["experiment"] == "env-1x2" and seen["workspace"] == "local"
        assert seen["inputs"] == {"mnist": str(data)}
        assert os.path.realpath(seen["cwd"]) == os.path.realpath(os.path.join(run.path, "snapshot"))
    names = run.get_file_names()
    assert {"outputs/env_0.json", "outputs/env_1.json", "logs/touched_0.txt", "logs/touched_1.txt",
            "user_logs/std_log_process_0.txt", "user_logs/std_log_process_1.txt"} <= set(names)
    assert "rank 1 done" in open(details["logFiles"]["user_logs/std_log_process_1.txt"]).read()
    # The snapshot honoured .amlignore and the user's tree was only read.
    assert not os.path.exists(os.path.join(run.path, "snapshot", "secret.txt"))
    assert sorted(os.listdir(project)) == [".amlignore", "probe.py", "secret.txt"]
    assert job_pids(run.id) == []


def test_two_nodes_two_processes_oversubscribed_simulates_nodes(project):
    """4 ranks on a 2-core machine; rank r sits on simulated node r // 2."""
    experiment = Experiment(Workspace._local(), "env-2x2")
    est = PyTorch(str(project), entry_script="probe.py", compute_target="local", node_count=2,
                  process_count_per_node=2, distributed_training=Gloo(),
                  script_params=["--init", "$AZ_BATCHAI_PYTORCH_INIT_METHOD", "--node", "${NODE_RANK}"])
    run = experiment.submit(est)
    run.wait_for_completion()
    ranks = _rank_files(run, 4)
    ports = {seen["env"]["MASTER_PORT"] for seen in ranks.values()}
    assert len(ports) == 1
    for rank, seen in ranks.items():
        env = seen["env"]
        assert (env["RANK"], env["NODE_RANK"], env["LOCAL_RANK"]) == (str(rank), str(rank // 2), str(rank % 2))
        assert (env["WORLD_SIZE"], env["LOCAL_WORLD_SIZE"], env["OMPI_COMM_WORLD_LOCAL_SIZE"]) == ("4", "2", "2")
        assert seen["argv"] == ["--init", f"tcp://127.0.0.1:{env['MASTER_PORT']}", "--node", str(rank // 2)]
    assert run.get_details()["runDefinition"]["nodeCount"] == 2
    # The run can be listed and reopened, as from a later process.
    assert [r.id for r in list_runs(experiment)] == [run.id]
    again = get_run(run.id)
    assert again.get_status() == "Completed" and again.get_file_names() == run.get_file_names()
    assert again.experiment.name == "env-2x2"
    assert job_pids(run.id) == []


def test_store_inside_the_project_is_not_copied_into_later_snapshots(project, monkeypatch):
    """Running a driver from its project folder puts ./.acpt inside source_directory."""
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(project / ".acpt"))
    experiment = Experiment(Workspace._local(), "nested-store")
    est = PyTorch(str(project), entry_script="probe.py", compute_target="local")
    first = experiment.submit(est)
    first.wait_for_completion()
    second = experiment.submit(est)
    assert second.wait_for_completion()["status"] == "Completed"
    assert sorted(os.listdir(os.path.join(second.path, "snapshot"))) == [".amlignore", "probe.py",
                                                                         "scratch_written_by_job.txt"]
    assert "user_logs/std_log.txt" in second.get_file_names()  # one process: Azure's single-log name
