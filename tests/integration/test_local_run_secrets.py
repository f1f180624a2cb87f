"""v1's documented secret recipe runs unchanged locally: the driver stores a secret in the workspace Key Vault and the
training script reads it with ``Run.get_context().get_secret(name)``; the value is never printed."""

from __future__ import annotations

import hashlib
import json

import pytest

from acpt_estimator import target
from acpt_estimator.exceptions import UserErrorException, V1NotSupportedException
from azureml.core import Experiment, Run, ScriptRunConfig, Workspace

pytestmark = pytest.mark.integration

SECRET = "p@ss w0rd;$(echo no)"
JOB = r'''
import hashlib, json, os
from azureml.core import Run
run = Run.get_context()
value = run.get_secret(name="db-password")
both = run.get_secrets(secrets=["db-password", "api-token"])
os.makedirs("outputs", exist_ok=True)
with open("outputs/secrets.json", "w") as handle:
    json.dump({"sha256": hashlib.sha256(value.encode()).hexdigest(), "names": sorted(both),
               "same": both["db-password"] == value}, handle)
try:
    run.get_secret("never-set")
except Exception as err:
    with open("outputs/missing.txt", "w") as handle:
        handle.write(type(err).__name__ + ": " + str(getattr(err, "message", err)))
'''


@pytest.fixture()
def workspace(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / ".acpt"))
    monkeypatch.setenv("ACPT_ESTIMATOR_TARGET", "local")
    monkeypatch.setattr(target, "_forced", None)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "job.py").write_text(JOB)
    return Workspace.from_config()


def test_a_training_script_reads_the_workspace_secret_with_run_get_secret(workspace, tmp_path):
    keyvault = workspace.get_default_keyvault()
    keyvault.set_secret(name="db-password", value=SECRET)
    keyvault.set_secrets({"api-token": "t0k"})
    src = ScriptRunConfig(source_directory=str(tmp_path / "src"), script="job.py", compute_target="local")
    run = Experiment(workspace, "secrets").submit(src)
    run.wait_for_completion(show_output=False)
    assert run.get_status() == "Completed"
    run.download_file("outputs/secrets.json", str(tmp_path / "secrets.json"))
    seen = json.loads((tmp_path / "secrets.json").read_text())
    assert seen == {"sha256": hashlib.sha256(SECRET.encode()).hexdigest(), "names": ["api-token", "db-password"],
                    "same": True}
    run.download_file("outputs/missing.txt", str(tmp_path / "missing.txt"))
    assert "never-set" in (tmp_path / "missing.txt").read_text()
    for log in (tmp_path / ".acpt").rglob("*.txt"):
        assert SECRET not in log.read_text(errors="replace")


def test_outside_a_job_get_secret_names_the_way_to_the_key_vault(monkeypatch):
    monkeypatch.delenv("ACPT_ESTIMATOR_RUN_DIR", raising=False)
    offline = Run.get_context()
    with pytest.raises(UserErrorException) as err:
        offline.get_secret("db-password")
    assert isinstance(err.value, V1NotSupportedException)
    assert "Run.get_secret" in err.value.message and "get_default_keyvault().get_secret(name)" in err.value.message
