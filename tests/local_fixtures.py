"""pytest fixtures for the local store: a workspace in a fresh store, and small data files written for a test.

Import with ``from tests.local_fixtures import local_workspace, write_files  # noqa: F401``.
"""

from __future__ import annotations

import pytest

from acpt_estimator.v1.core.workspace import Workspace


@pytest.fixture()
def local_workspace(tmp_path, monkeypatch):
    """The local workspace, its store in ``tmp_path/.acpt``, the cwd ``tmp_path`` and local runs forced."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / ".acpt"))
    monkeypatch.setenv("ACPT_ESTIMATOR_TARGET", "local")
    return Workspace.from_config()


def write_files(root, files: dict) -> None:
    """``{relative path: text or bytes}`` under ``root`` (a pathlib.Path), folders created."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())


@pytest.fixture()
def web_files(tmp_path):
    """A real HTTP server on the loopback serving ``tmp_path/web``; yields (folder, base URL)."""
    import functools
    import http.server
    import threading

    folder = tmp_path / "web"
    folder.mkdir()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield folder, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
