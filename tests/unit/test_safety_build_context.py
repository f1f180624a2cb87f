"""Environment build folders (issue 23): private and fresh, never written through a planted link, removed after use."""

from __future__ import annotations

import os
import stat

import pytest

from acpt_estimator import PyTorch
from acpt_estimator.backends.azureml import build_context
from acpt_estimator.backends.azureml.build_context import remove_private, write_build_context
from acpt_estimator.exceptions import UserErrorException

from .golden_cases import SRC


def _spec():
    return PyTorch(SRC, compute_target="local", entry_script="train.py", use_gpu=True,
                   pip_packages=["tqdm"]).to_job_spec().environment


def test_the_default_folder_is_private_fresh_and_removed(monkeypatch, tmp_path):
    monkeypatch.delenv(build_context.CONTEXT_ROOT_VAR, raising=False)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    planted = tmp_path / "acpt-estimator-environments"  # the old shared, predictable place
    planted.mkdir()
    folder, _ = write_build_context(_spec())
    root = os.path.dirname(folder)
    assert not folder.startswith(str(planted)) and stat.S_IMODE(os.stat(root).st_mode) == 0o700
    assert write_build_context(_spec())[0] != folder  # created fresh each time
    remove_private()
    assert not os.path.exists(root) and os.listdir(tmp_path) == ["acpt-estimator-environments"]


def test_a_planted_link_is_never_written_through(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("mine\n")
    folder, _ = write_build_context(_spec(), str(tmp_path / "root"))
    os.unlink(os.path.join(folder, "Dockerfile"))
    os.symlink(victim, os.path.join(folder, "Dockerfile"))
    write_build_context(_spec(), str(tmp_path / "root"))
    assert victim.read_text() == "mine\n" and not os.path.islink(os.path.join(folder, "Dockerfile"))
    other = tmp_path / "other"
    other.mkdir()
    os.rename(folder, str(tmp_path / "moved"))
    os.symlink(other, folder)  # the whole folder replaced by a link
    with pytest.raises(UserErrorException, match="is a link or a file, not the environment build folder"):
        write_build_context(_spec(), str(tmp_path / "root"))
    assert os.listdir(other) == []
