"""pytest fixtures: one fake per session, reset per test; process-global env vars restored in teardown.

Import them into a test module with ``from tests.fake_aml.fixtures import *  # noqa: F401,F403``.
"""

from __future__ import annotations

import pytest

from acpt_estimator import target
from acpt_estimator.v1.core.workspace import Workspace

from .server import FakeAzureML, FakeCredential

__all__ = ["cloud_workspace", "fake_aml", "fake_aml_server", "make_project"]


@pytest.fixture(scope="session")
def fake_aml_server(tmp_path_factory):
    server = FakeAzureML(str(tmp_path_factory.mktemp("fake-aml-certs"))).start()
    yield server
    server.stop()


@pytest.fixture
def fake_aml(fake_aml_server, monkeypatch, tmp_path):
    """The fake, emptied, with the SDK pointed at it (AZUREML_DEV_URL_MFE + a CA bundle) and fast polling."""
    fake_aml_server.reset()
    monkeypatch.setenv("AZUREML_DEV_URL_MFE", fake_aml_server.url)
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", fake_aml_server.ca_path)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("HTTPS_PROXY", fake_aml_server.proxy_url)  # local job inputs go to the datastore account
    monkeypatch.delenv("https_proxy", raising=False)
    monkeypatch.setenv("ACPT_ESTIMATOR_POLL_SECONDS", "0.01")
    for name in ("AZUREML_CURRENT_CLOUD", "ACPT_ESTIMATOR_TARGET", "ACPT_ESTIMATOR_CAPTURE_DIR",
                 "ACPT_ESTIMATOR_ALLOW_SECRETS", "AML_SNAPSHOT_NO_FILE_LIMIT", "ACPT_ESTIMATOR_ENVIRONMENT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(target, "_forced", None)
    # The SDK names experiments after the cwd and reads git metadata from it: use a neutral folder.
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    yield fake_aml_server
    fake_aml_server.reset()


@pytest.fixture
def cloud_workspace(fake_aml):
    state = fake_aml.state
    return Workspace(state.subscription_id, state.resource_group, state.workspace_name, auth=FakeCredential())


@pytest.fixture
def make_project(tmp_path):
    """``make_project({'train.py': '...'})`` writes a source directory and returns its path."""
    counter = [0]

    def make(files=None):
        counter[0] += 1
        root = tmp_path / f"project{counter[0]}"
        for rel, text in (files or {"train.py": "print('training')\n"}).items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text if isinstance(text, bytes) else text.encode())
        return str(root)

    return make
