"""Compute targets of a local workspace (the workspace's compute service): every name is a stand-in for this machine.

Nothing is provisioned: creating, waiting, updating and deleting do nothing, so v1 notebooks' compute cells run
unchanged before a local job. The stand-in's active runs are the active runs of the local store.
"""

from __future__ import annotations

import logging
import os

logger = logging.getLogger("acpt_estimator.v1.core.compute.compute")  # v1's logger name, which users filter on


class LocalCompute:
    stand_ins = True  # any name is this machine (v1's ComputeTarget(ws, name) never fails here)

    def __init__(self, workspace):
        self.workspace = workspace

    def get(self, name):
        """None: the name stands in for this machine."""
        return None

    def list(self) -> list:
        return []  # nothing registered; ``ws.compute_targets[name]`` stands in for any name

    def begin_create(self, name, build):
        logger.info("Local runs are forced: compute target %r is not created in Azure.", name)
        return None

    def wait(self, name, poller, timeout_seconds, show_output, min_node_count=None) -> bool:
        """False: there is nothing to wait for or read back."""
        if show_output:
            print(f"Local runs are forced: compute target {name!r} is not provisioned.")
        return False

    def begin(self, name, operation, action=None):
        logger.info("Local runs are forced: nothing to %s for compute target %r in Azure.",
                    (action or operation).lower(), name)
        return None

    def update_scale(self, name, min_nodes, max_nodes, idle_seconds):
        return None  # nothing in Azure: the stand-in's configuration records the change

    def nodes(self, name) -> list:
        return []  # no cluster exists

    def vm_sizes(self, location, compute_type) -> list:
        """This machine, the only size local runs have, in v1's fields."""
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2 ** 30
        gpus = len([d for d in os.listdir("/dev") if d.startswith("nvidia") and d[6:].isdigit()]) \
            if os.path.isdir("/dev") else 0
        return [{"name": "local", "vCPUs": os.cpu_count(), "gpus": gpus, "memoryGB": round(memory, 1),
                 "maxResourceVolumeMB": None}]

    def active_runs(self, name, experiment_for, statuses, run_type=None, tags=None, properties=None):
        """(handle, experiment) of the local store's runs in ``statuses``: the stand-in is this machine."""
        from .run import LocalRun
        from .store import all_run_records, run_paths

        for record in all_run_records():
            experiment = experiment_for(record.get("experimentName") or "local")
            run = LocalRun(run_paths(record["runId"]), experiment=experiment)
            if run.get_status() not in statuses or (run_type is not None and run.type != run_type):
                continue
            details = run.get_details() if tags or properties else {}
            if _has(details.get("tags"), tags) and _has(details.get("properties"), properties):
                yield run, experiment


def _has(actual: dict, wanted) -> bool:
    """v1's compute-runs filter: a list of keys that must exist, or a dict of values that must match."""
    if not wanted:
        return True
    actual = actual or {}
    if isinstance(wanted, dict):
        return all(actual.get(k) == v for k, v in wanted.items())
    return all(k in actual for k in ([wanted] if isinstance(wanted, str) else wanted))
