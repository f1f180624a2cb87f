"""A disk that fills up while a run ends (issue 23): metrics are never double-counted or lost, and the run reaches
a final status; finishing the run again (a reopened run) changes nothing."""

from __future__ import annotations

import json
import textwrap

import pytest

from .test_local_faults import run_driver, store  # noqa: F401 - the fixture

pytestmark = pytest.mark.integration

DRIVER = """
    import json, os, sys
    from acpt_estimator import PyTorch
    from acpt_estimator.backends.local import get_run
    from acpt_estimator.v1.core.experiment import Experiment
    from acpt_estimator.v1.core.workspace import Workspace
    run = Experiment(Workspace._local(), "fulldisk").submit(
        PyTorch("src", entry_script="log.py", compute_target="local"))
    details = run.wait_for_completion(raise_on_error=False)
    again = get_run(run.id)  # a reader after the driver's own finish
    values = again.get_metrics().get("loss") or []
    print(json.dumps({"status": details["status"], "record": again.get_status(), "count": len(values),
                      "id": run.id, "path": run.path}))
"""
LOG = textwrap.dedent("""
    from azureml.core.run import Run
    run = Run.get_context()
    for i in range(4000):
        run.log("loss", float(i))
    with open("outputs/fill.bin", "wb") as handle:  # the disk is full when the run ends
        try:
            while True:
                handle.write(b"x" * 65536)
        except OSError:
            pass
""")


def test_a_full_disk_at_the_end_neither_doubles_nor_loses_metrics(store):  # noqa: F811
    (store / "src" / "log.py").write_text(LOG)
    (store / "store").mkdir()
    done = run_driver(store, DRIVER, "unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c",
                      'mount -t tmpfs -o size=3m tmpfs "$0" && exec "$@"', str(store / "store"))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["status"] == result["record"] and result["record"] in ("Completed", "Failed"), result
    assert result["count"] == 4000, result
