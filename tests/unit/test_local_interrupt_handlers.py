"""The driver's Ctrl-C/SIGTERM/SIGHUP handlers: ours while its jobs or schedulers run, its own again after."""

from __future__ import annotations

import signal
import threading

from acpt_estimator.backends.local import supervisor


def _own_handler(signum, frame):  # pragma: no cover - never called: only installed and compared
    raise AssertionError("not expected to run")


def test_the_driver_gets_its_handlers_back_once_no_scheduler_thread_runs(monkeypatch):
    """restore_interrupt_handlers() keeps ours while a sweep's or pipeline's scheduler thread is alive (it still
    submits jobs that Ctrl-C must end), whatever other threads the driver has, and gives the driver's back after."""
    saved = {signum: signal.getsignal(signum) for signum in supervisor._INTERRUPTS}
    monkeypatch.setattr(supervisor, "_previous", {})
    try:
        for signum in supervisor._INTERRUPTS:
            signal.signal(signum, _own_handler)
        supervisor.install_interrupt_handlers()
        assert all(signal.getsignal(s) is supervisor._on_signal for s in supervisor._INTERRUPTS)
        release = threading.Event()
        threads = [threading.Thread(target=release.wait, name=name, daemon=True)
                   for name in ("hyperdrive-scheduler", "some-other-thread")]
        for thread in threads:
            thread.start()
        supervisor.restore_interrupt_handlers()
        assert all(signal.getsignal(s) is supervisor._on_signal for s in supervisor._INTERRUPTS)
        release.set()
        threads[0].join()
        # A thread of that name that has ended holds nothing back; the other one, alive, never did.
        supervisor.restore_interrupt_handlers()
        assert all(signal.getsignal(s) is _own_handler for s in supervisor._INTERRUPTS)
        threads[1].join()
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler)
