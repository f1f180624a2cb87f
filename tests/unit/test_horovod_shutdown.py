"""The Horovod layer's shutdown (also run at exit): gloo's worker threads get the GIL before the interpreter ends."""

from __future__ import annotations

import importlib
import socket

import pytest
import torch.distributed as dist


@pytest.fixture
def _runtime(monkeypatch):
    """The layer's runtime module, whether or not a real Horovod is installed beside it (the package then loads
    that one for ``import horovod``: ACPT_ESTIMATOR_HOROVOD=layer asks for the layer)."""
    import sys

    monkeypatch.setenv("ACPT_ESTIMATOR_HOROVOD", "layer")
    for name in [n for n in sys.modules if n.startswith("acpt_estimator.job_runtime.horovod")]:
        monkeypatch.delitem(sys.modules, name)
    return importlib.import_module("acpt_estimator.job_runtime.horovod.torch._runtime")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_shutdown_of_a_gloo_group_leaves_its_threads_a_moment_after_destroying_it(_runtime, monkeypatch):
    """torch 2.13 aborts a rank whose gloo threads still wait for the GIL at interpreter shutdown
    (pytorch/pytorch#190489): the group is destroyed first, then the layer sleeps; a group-less layer does not."""
    slept = []
    monkeypatch.setattr(_runtime.time, "sleep", lambda seconds: slept.append((seconds, dist.is_initialized())))
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{_free_port()}", rank=0, world_size=1)
    monkeypatch.setattr(_runtime._state, "created_group", True)
    monkeypatch.setattr(_runtime._state, "backend", "gloo")
    _runtime.shutdown()
    assert slept == [(_runtime.GLOO_DRAIN_SECONDS, False)]
    assert not dist.is_initialized()
    _runtime.shutdown()  # nothing left to destroy: no wait
    assert len(slept) == 1
