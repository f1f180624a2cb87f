"""Test-session setup: the temporary folders the code under test leaves behind go with the session."""

from __future__ import annotations

import shutil
import tempfile

import pytest


@pytest.fixture(scope="session", autouse=True)
def session_temporary_folder(tmp_path_factory):
    """``FileDataset.download()`` and ``to_*_files()`` without a target leave a temporary folder, as v1's did (the
    user's to remove); hundreds of tests call them. TMPDIR (this process's and every subprocess's) is one folder
    removed after the session. A short one: AF_UNIX socket paths made below it must stay under 108 bytes."""
    tmp_path_factory.getbasetemp()  # pytest's own folders stay where they are (it keeps the last three)
    folder = tempfile.mkdtemp(prefix="acpt-tests-")
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("TMPDIR", folder)
            patch.setattr(tempfile, "tempdir", folder)  # gettempdir() caches its answer
            yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
