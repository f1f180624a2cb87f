"""One snapshot for both backends (issue 15): the same secret guard, by name and by content, and links that lead
outside source_directory are never followed, copied or uploaded."""

from __future__ import annotations

import os
import re

import pytest

from acpt_estimator import PyTorch
from acpt_estimator import snapshot_guard
from acpt_estimator.exceptions import SnapshotException
from acpt_estimator.snapshot import copy_snapshot, snapshot_files
from acpt_estimator.snapshot_guard import check_snapshot
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.workspace import Workspace

from .test_cloud_snapshot_guard import PRIVATE_KEY


@pytest.fixture()
def src(tmp_path, monkeypatch):
    monkeypatch.delenv(snapshot_guard.ALLOW_SECRETS_VAR, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store"))
    monkeypatch.setenv("ACPT_ESTIMATOR_TARGET", "local")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text("print('trained')\n")
    return tmp_path / "src"


def _submit_locally(src):
    est = PyTorch(str(src), compute_target="local", entry_script="train.py")
    return Experiment(Workspace.from_config(), "snap").submit(est)


@pytest.mark.parametrize("name, text, what", [
    (".env", "OPENAI_API_KEY=sk-123\n", "environment file"),
    ("deploy/id_ed25519", PRIVATE_KEY, "SSH private key"),
    ("notes.txt", "my key:\n" + PRIVATE_KEY, "private key (PEM)"),
    ("settings.ini", "[default]\naws_access_key_id = AKIA1\naws_secret_access_key = abc\n", "AWS credentials file"),
    ("hosts", "machine example.com login me password hunter2\n", "netrc login file"),
    ("conn.txt", "DefaultEndpointsProtocol=https;AccountName=a;AccountKey=" + "A" * 86 + "==;",
     "Azure storage connection string with an account key"),
])
def test_a_secret_stops_a_local_run_as_it_stops_an_upload(src, name, text, what):
    (src / name).parent.mkdir(parents=True, exist_ok=True)
    (src / name).write_text(text)
    with pytest.raises(SnapshotException, match=f"Refusing to snapshot .*{name}: {re.escape(what)}"):
        check_snapshot(str(src))
    with pytest.raises(SnapshotException, match=f"{name}: {re.escape(what)}"):
        _submit_locally(src)
    # Checked while mpiexec starts, its ranks held at the gate: nothing of the user's ran and nothing of the run is left.
    runs = os.path.join(os.environ["ACPT_ESTIMATOR_HOME"], "runs")
    assert not os.path.exists(runs) or os.listdir(runs) == []


def test_a_link_to_a_key_outside_is_never_followed_copied_or_uploaded(src, tmp_path):
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "id_rsa").write_text(PRIVATE_KEY)
    os.symlink(tmp_path / "home" / "id_rsa", src / "model.bin")
    os.symlink(tmp_path / "home", src / "cache")
    assert snapshot_files(str(src)) == ["train.py"]
    copy_snapshot(str(src), str(tmp_path / "copy"))
    assert os.listdir(tmp_path / "copy") == ["train.py"]
    for upload in (True, False):
        with pytest.raises(SnapshotException, match=r"symbolic links that lead outside it: \['cache', 'model\.bin'\]"):
            check_snapshot(str(src), upload=upload)
    with pytest.raises(SnapshotException, match="lead outside it"):
        _submit_locally(src)


def test_links_inside_and_ignored_links_are_fine(src, tmp_path):
    (tmp_path / "outside.txt").write_text("data")
    os.symlink(src / "train.py", src / "alias.py")
    os.symlink(tmp_path / "outside.txt", src / "big.dat")
    (src / ".amlignore").write_text("big.dat\n")
    assert check_snapshot(str(src)) == [".amlignore", "alias.py", "train.py"]
