"""The snapshot guard: v1's size/file limits with their bypass, and obvious secrets refused unless ignored."""

from __future__ import annotations

import json

import pytest

from acpt_estimator import snapshot_guard
from acpt_estimator.exceptions import SnapshotException
from acpt_estimator.snapshot_guard import check_snapshot, find_secrets

PRIVATE_KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\n-----END OPENSSH PRIVATE KEY-----\n"
CERT = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n"


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.delenv(snapshot_guard.ALLOW_SECRETS_VAR, raising=False)
    monkeypatch.delenv(snapshot_guard.NO_FILE_LIMIT_VAR, raising=False)

    def make(files: dict):
        for rel, text in files.items():
            path = tmp_path / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        return str(tmp_path)

    return make


def _found(root):
    from acpt_estimator.snapshot import snapshot_files

    return dict(find_secrets(root, snapshot_files(root)))


def test_obvious_secrets_are_found_by_name_or_content(project):
    root = project({
        "train.py": "print(1)\n", ".env": "TOKEN=abc\n", ".env.production": "X=1\n", ".env.example": "X=\n",
        "deploy/id_rsa": PRIVATE_KEY, "deploy/id_rsa.pub": "ssh-rsa AAAA\n", "certs/server.pem": PRIVATE_KEY,
        "certs/ca.pem": CERT, "certs/bundle.pfx": "binary", ".aws/credentials": "[default]\n",
        "gcp-service-account.json": json.dumps({"type": "service_account", "private_key": PRIVATE_KEY}),
        ".azureml/config.json": json.dumps({"subscription_id": "s", "resource_group": "r", "workspace_name": "w",
                                            "client_secret": "abc"}),
        "aml_config/config.json": json.dumps({"subscription_id": "s", "resource_group": "r", "workspace_name": "w"}),
        "model/config.json": json.dumps({"hidden_size": 768, "pad_token_id": 0}),
    })
    found = _found(root)
    assert sorted(found) == [".aws/credentials", ".azureml/config.json", ".env", ".env.production",
                             "certs/bundle.pfx", "certs/server.pem", "deploy/id_rsa", "gcp-service-account.json"]
    assert "client_secret" in found[".azureml/config.json"]
    assert found["deploy/id_rsa"] == "SSH private key"


def test_the_message_names_files_and_the_ignore_file_but_never_the_secret(project, monkeypatch):
    root = project({"train.py": "", ".env": "PASSWORD=hunter2\n", "id_ed25519": PRIVATE_KEY,
                    ".gitignore": "*.log\n"})
    with pytest.raises(SnapshotException) as info:
        check_snapshot(root)
    message = info.value.message
    assert "  - .env: environment file" in message and "  - id_ed25519: SSH private key" in message
    assert ".gitignore" in message and "replace it entirely" in message  # .gitignore decides here
    assert "hunter2" not in message and "b3BlbnNzaC1rZXk" not in message
    assert snapshot_guard.ALLOW_SECRETS_VAR in message

    with open(root + "/.gitignore", "a") as handle:
        handle.write(".env\nid_ed25519\n")
    assert ".env" not in check_snapshot(root)
    monkeypatch.setenv(snapshot_guard.ALLOW_SECRETS_VAR, "1")
    with open(root + "/.gitignore", "w") as handle:
        handle.write("")
    assert ".env" in check_snapshot(root)


def test_amlignore_replaces_gitignore(project):
    root = project({"train.py": "", ".env": "A=1\n", ".gitignore": ".env\n", ".amlignore": "*.log\n"})
    with pytest.raises(SnapshotException, match=r"\.amlignore"):
        check_snapshot(root)


def test_v1_size_and_file_count_limits(project, monkeypatch):
    root = project({f"data/{i}.txt": "x" for i in range(12)})
    monkeypatch.setattr(snapshot_guard, "MAX_SNAPSHOT_FILES", 10)
    with pytest.raises(SnapshotException) as info:
        check_snapshot(root)
    assert "exceeds the file limit of 10 (12 files)" in info.value.message
    assert snapshot_guard.NO_FILE_LIMIT_VAR in info.value.message
    monkeypatch.setenv(snapshot_guard.NO_FILE_LIMIT_VAR, "1")
    assert len(check_snapshot(root)) == 12

    monkeypatch.setattr(snapshot_guard, "MAX_SNAPSHOT_BYTES", 10)
    with pytest.raises(SnapshotException, match="total snapshot size exceeds the limit"):
        check_snapshot(root)
    with open(root + "/.amlignore", "w") as handle:
        handle.write("data/\n")
    assert check_snapshot(root) == [".amlignore"]


def test_local_store_inside_the_project_is_left_out_and_blocks_cloud_upload(tmp_path, monkeypatch):
    from acpt_estimator.exceptions import SnapshotException
    from acpt_estimator.snapshot import snapshot_files
    from acpt_estimator.snapshot_guard import check_snapshot

    project = tmp_path / "project"
    (project / ".acpt" / "runs" / "r1").mkdir(parents=True)
    (project / ".acpt" / "runs" / "r1" / "run.json").write_text("{}")
    (project / "train.py").write_text("print(1)\n")
    monkeypatch.chdir(project)
    monkeypatch.delenv("ACPT_ESTIMATOR_HOME", raising=False)
    assert snapshot_files(str(project)) == ["train.py"]
    with pytest.raises(SnapshotException, match=r"contains the local run store '\.acpt/'.*Add the line '\.acpt/'"):
        check_snapshot(str(project))
    (project / ".amlignore").write_text(".acpt/\n")
    assert check_snapshot(str(project)) == [".amlignore", "train.py"]
