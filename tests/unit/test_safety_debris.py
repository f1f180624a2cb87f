"""Interrupted writers (issue 23): readers never see a killed writer's temporary files, and the next writer
removes them. The writers here are real processes killed with SIGKILL mid-write."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

from acpt_estimator.backends.local import datastores
from acpt_estimator.backends.local.store import datastore_folder
from acpt_estimator.job_runtime.acpt_datasets import local_files


def _run_until(code: str, ready, timeout: float = 60) -> None:
    """Start ``code`` in a new Python process, wait until ``ready()``, then SIGKILL it."""
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)])
    try:
        deadline = time.monotonic() + timeout
        while not ready():
            assert proc.poll() is None and time.monotonic() < deadline, "the writer never got going"
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()


def test_a_killed_upload_leaves_nothing_a_reader_returns_and_the_next_upload_cleans_it(tmp_path):
    store = tmp_path / "store"
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.csv").write_text("x\n1\n")
    datastores.upload("workspaceblobstore", str(src), "data", False, False, store_home=str(store))
    os.mkfifo(src / "b.csv")  # the writer blocks reading it, after creating its temporary file
    folder = datastore_folder(str(store), "workspaceblobstore", "data")
    _run_until(f"""
        from acpt_estimator.backends.local.atomic import copy_file
        copy_file({str(src / 'b.csv')!r}, {os.path.join(folder, 'b.csv')!r})
    """, lambda: any(n.endswith(".tmp") for n in os.listdir(folder)))
    assert any(n.startswith(".b.csv.") for n in os.listdir(folder))  # the debris is there
    assert local_files(folder) == ["a.csv"]  # datasets read through local_files
    out = tmp_path / "out"
    assert datastores.download("workspaceblobstore", str(out), "data", False, False, store_home=str(store)) == 1
    assert sorted(os.listdir(out / "data")) == ["a.csv"]
    os.unlink(src / "b.csv")
    (src / "c.csv").write_text("y\n")
    datastores.upload("workspaceblobstore", str(src), "data", False, False, store_home=str(store))
    assert sorted(os.listdir(folder)) == ["a.csv", "c.csv"]  # the next writer removed what the dead one left


def test_a_killed_model_registration_leaks_no_staging_folder(tmp_path):
    models = tmp_path / "models" / "m"
    _run_until(f"""
        import os, signal
        from acpt_estimator.backends.local import atomic
        staging = atomic.stage({str(models)!r})
        with open(os.path.join(staging, "big.bin"), "wb") as handle:
            handle.truncate(1 << 20)
        os.kill(os.getpid(), signal.SIGSTOP)  # killed here, mid-registration
    """, lambda: models.is_dir() and any(
        os.path.exists(os.path.join(models, n, "big.bin")) for n in os.listdir(models)))
    assert [n for n in os.listdir(models) if n.startswith(".staging-")]
    from acpt_estimator.backends.local import atomic

    mine = atomic.stage(str(models))  # the next registration
    assert os.listdir(models) == [os.path.basename(mine)]
