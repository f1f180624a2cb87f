"""Local jobs cannot write through their read-only inputs, and leave no expanded secret behind (issue 15)."""

from __future__ import annotations

import json
import os

import pytest

from acpt_estimator import PyTorch
from acpt_estimator.backends.local.inputs import bind_mounts_available
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.workspace import Workspace

pytestmark = pytest.mark.integration

JOB = r'''
import json, os, stat, subprocess, sys
args = dict(zip(sys.argv[1::2], sys.argv[2::2]))
run_dir = os.environ["ACPT_ESTIMATOR_RUN_DIR"]
plans = [n for n in ("rank.sh", "rank.plan") if os.path.exists(os.path.join(run_dir, n))]
seen = {"token": args["--token"], "plans": plans,
        "rank_sh_mode": oct(stat.S_IMODE(os.stat(os.path.join(run_dir, plans[0])).st_mode))}
data = args["--data"]
remount = subprocess.run(["mount", "-o", "remount,rw,bind", data], capture_output=True, text=True)
seen["remount_rc"] = remount.returncode
try:
    with open(os.path.join(data, "intruder.txt"), "w") as handle:
        handle.write("should not land")
    seen["write"] = "succeeded"
except OSError as err:
    seen["write"] = type(err).__name__
os.makedirs("outputs", exist_ok=True)
with open("outputs/seen.json", "w") as handle:
    json.dump(seen, handle)
'''


@pytest.fixture()
def workspace(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / ".acpt"))
    monkeypatch.setenv("ACPT_ESTIMATOR_TARGET", "local")
    monkeypatch.setenv("SECRET_TOKEN", "s3cr3t-value")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "job.py").write_text(JOB)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "a.txt").write_text("alpha")
    return Workspace.from_config()


def test_a_root_job_cannot_remount_its_input_and_no_expanded_secret_stays(workspace, tmp_path):
    ds = workspace.get_default_datastore()
    ds.upload(src_dir="./data", target_path="d", show_progress=False)
    est = PyTorch(str(tmp_path / "src"), compute_target="local", entry_script="job.py",
                  script_params={"--token": "$SECRET_TOKEN", "--data": ds.path("d").as_mount()})
    run = Experiment(workspace, "e" * 250).submit(est)  # a long name gives a run id that is still a file name
    assert run.wait_for_completion()["status"] == "Completed" and len(run.id) <= 255
    run.download_file("outputs/seen.json", str(tmp_path / "seen.json"))
    seen = json.loads((tmp_path / "seen.json").read_text())
    assert seen["token"] == "s3cr3t-value"  # v1: $VARs in arguments are expanded for the job
    assert len(seen["plans"]) == 1 and seen["rank_sh_mode"] == "0o600"  # rank.sh, or rank.plan (rank_exec)
    if bind_mounts_available():
        assert seen["remount_rc"] != 0  # the ranks have no CAP_SYS_ADMIN
    assert seen["write"] in ("OSError", "PermissionError")
    assert sorted(os.listdir(tmp_path / ".acpt/datastores/workspaceblobstore/d")) == ["a.txt"]
    run_dir = tmp_path / ".acpt" / "runs" / run.id
    assert not (run_dir / "rank.sh").exists() and not (run_dir / "rank.plan").exists()
    leaked = [os.path.join(d, f) for d, _, names in os.walk(run_dir) for f in names
              if "outputs" not in d and "s3cr3t-value" in open(os.path.join(d, f), errors="replace").read()]
    assert leaked == []
