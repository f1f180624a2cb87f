"""The driver's one thread serving every job's request FIFO: each readable FIFO reaches its own handler."""

from __future__ import annotations

import os
import threading

from acpt_estimator.backends.local import fifo_service


def _fifo(tmp_path, name):
    path = tmp_path / name
    os.mkfifo(path)
    return os.open(path, os.O_RDWR | os.O_NONBLOCK)


def test_each_fifo_reaches_its_handler_and_a_failing_one_does_not_stop_the_others(tmp_path, caplog):
    broken, working = _fifo(tmp_path, "broken"), _fifo(tmp_path, "working")
    served = threading.Event()

    def fail():
        os.read(broken, 64)
        raise RuntimeError("a bug in one job's handler")

    def serve():
        assert os.read(working, 64) == b"hello\n"
        served.set()

    try:
        fifo_service.register(broken, fail)
        fifo_service.register(working, serve)
        os.write(broken, b"x\n")
        os.write(working, b"hello\n")
        assert served.wait(10)
        assert "a bug in one job's handler" in caplog.text
    finally:
        for fd in (broken, working):
            fifo_service.unregister(fd)
            os.close(fd)


def test_nothing_reaches_a_handler_after_unregister(tmp_path):
    fd = _fifo(tmp_path, "gone")
    calls = []
    fifo_service.register(fd, lambda: calls.append(os.read(fd, 64)))
    fifo_service.unregister(fd)
    os.write(fd, b"late\n")
    probe, seen = _fifo(tmp_path, "probe"), threading.Event()
    fifo_service.register(probe, lambda: (os.read(probe, 64), seen.set()))
    try:
        os.write(probe, b"x\n")
        assert seen.wait(10)  # the service went round at least once after the late write
        assert calls == [] and os.read(fd, 64) == b"late\n"
    finally:
        fifo_service.unregister(probe)
        os.close(probe)
        os.close(fd)
