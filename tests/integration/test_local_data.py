"""v1 data calls, locally: upload, register, mount/download inputs read by a 2-rank job; read-only mounts."""

from __future__ import annotations

import json
import os

import pytest

from acpt_estimator import PyTorch
from acpt_estimator.backends.local.inputs import bind_mounts_available
from acpt_estimator.v1.core.dataset import Dataset
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.v1.core.experiment import Experiment
from tests.local_fixtures import local_workspace, write_files  # noqa: F401

pytestmark = pytest.mark.integration
SRC = os.path.join(os.path.dirname(__file__), os.pardir, "data", "data_job")


@pytest.fixture()
def workspace(local_workspace, tmp_path):
    write_files(tmp_path / "data", {"mnist/a.txt": "alpha", "mnist/sub/b.txt": "beta", "cifar/c.txt": "gamma",
                                    "meta/labels.csv": "x,y\n"})
    return local_workspace


def test_driver_uploads_registers_and_a_two_rank_job_reads_every_input(workspace, tmp_path):
    ds = workspace.get_default_datastore()
    ds.upload(src_dir="./data/mnist", target_path="mnist", overwrite=True, show_progress=False)
    ds.upload(src_dir="./data/meta", target_path="meta", show_progress=False)
    train = Dataset.File.upload_directory("./data/cifar", target=(ds, "cifar"), show_progress=False)
    train.register(workspace, "cifar-train")
    registered = Dataset.get_by_name(workspace, "cifar-train")
    est = PyTorch(SRC, compute_target="cpu-cluster", entry_script="read_all.py", node_count=1,
                  process_count_per_node=2, distributed_backend="mpi",
                  script_params={"--mounted": ds.path("mnist").as_mount(),
                                 "--downloaded": ds.path("mnist", data_reference_name="dl").as_download(),
                                 "--labels": ds.path("meta/labels.csv").as_download()},
                  inputs=[registered.as_named_input("train").as_mount()])
    run = Experiment(workspace, "data").submit(est)
    assert run.wait_for_completion()["status"] == "Completed"
    for rank in (0, 1):
        run.download_file(f"outputs/seen_{rank}.json", str(tmp_path / f"seen_{rank}.json"))
        seen = json.loads((tmp_path / f"seen_{rank}.json").read_text())
        assert seen["mounted"] == {"a.txt": "alpha", "sub/b.txt": "beta"}
        assert seen["downloaded"]["a.txt"] == "alpha" and seen["labels"] == "x,y\n"
        assert seen["train"] == {"c.txt": "gamma"} and seen["env_train"] is True
        assert seen["write_to_mount"] in ("OSError", "PermissionError")  # EROFS (bind mount) or EACCES (copy)
    store = tmp_path / ".acpt" / "datastores" / "workspaceblobstore" / "mnist"
    assert sorted(os.listdir(store)) == ["a.txt", "sub"]  # neither the intruder nor the scratch file landed
    assert run.get_details()["inputDatasets"][0]["consumptionDetails"]["mechanism"] == "Mount"


def test_read_only_mount_is_a_bind_mount_when_root(workspace):
    """On this machine (root with CAP_SYS_ADMIN and CAP_SETPCAP) the mount is a real read-only bind, not a copy."""
    with open("/proc/self/status", encoding="ascii") as status:
        effective = int(next(line for line in status if line.startswith("CapEff:")).split()[1], 16)
    can_mount = os.geteuid() == 0 and bool(effective & (1 << 21)) and bool(effective & (1 << 8))  # SYS_ADMIN, SETPCAP
    assert bind_mounts_available() == can_mount


def test_errors_name_the_thing_and_the_fix(workspace):
    ds = workspace.get_default_datastore()
    with pytest.raises(UserErrorException, match=r"upload source folder './nope' does not exist"):
        ds.upload(src_dir="./nope")
    ds.upload(src_dir="./data/mnist", target_path="mnist", show_progress=False)
    (workspace_dir := os.path.join("data", "mnist", "a.txt"))
    with open(workspace_dir, "w") as handle:
        handle.write("changed")
    with pytest.raises(UserErrorException, match=r"would overwrite 1 different file\(s\): a\.txt\. Pass overwrite=True"):
        ds.upload(src_dir="./data/mnist", target_path="mnist", show_progress=False)
    with pytest.raises(UserErrorException, match=r"Dataset 'nope' .* not registered"):
        Dataset.get_by_name(workspace, "nope")
    missing = Dataset.File.from_files(path=(ds, "not-uploaded/**"))
    with pytest.raises(UserErrorException, match="nothing was registered"):
        missing.register(workspace, "half")
    assert not os.path.exists(os.path.join(".acpt", "datasets", "half"))
    est = PyTorch(SRC, compute_target="local", entry_script="read_all.py",
                  script_params={"--mounted": ds.path("absent").as_mount(), "--downloaded": "x", "--labels": "y"})
    with pytest.raises(UserErrorException, match="has no local copy"):
        Experiment(workspace, "data").submit(est)
