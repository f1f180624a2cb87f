"""A workspace's v2 computes (the workspace's compute service): records of v1's fields, pollers, nodes, VM sizes and
the runs on a compute; azure imported on use."""

from __future__ import annotations

import logging

from ...exceptions import ComputeTargetException
from .client import azure_errors, ml_client

logger = logging.getLogger("acpt_estimator.v1.core.compute.compute")  # v1's logger name, which users filter on


def not_found(name) -> ComputeTargetException:
    return ComputeTargetException(
        f"ComputeTargetNotFound: Compute Target with name {name} not found in provided workspace. "
        "Create it with ComputeTarget.create(ws, name, AmlCompute.provisioning_configuration(vm_size=..., "
        "max_nodes=...)), or pick an existing name from ws.compute_targets.")


def _record(entity, rest: dict) -> dict:
    """A compute in neutral fields: v2's type and state, and the REST body, which keeps what v1's status shows and
    v2's entity drops (node counts, allocation state, instance state)."""
    state = entity.provisioning_state
    return {"name": entity.name, "type": entity.type, "provisioning_state": str(getattr(state, "value", state)),
            "location": entity.location, "tags": dict(entity.tags or {}), "description": entity.description,
            "id": entity.id, "rest": rest}


def _rest_field(entity, key, attr):
    """azure-ai-ml 1.35's AmlComputeNodeInfo and VmSize keep the REST keys (``nodeId``, ``vCPUs``) in their
    ``__dict__`` and leave their own attributes (``node_id``, ``v_cp_us``) empty: read either."""
    value = vars(entity).get(key)
    return value if value is not None else getattr(entity, attr, None)


class CloudCompute:
    stand_ins = False  # a name must be a compute of the workspace

    def __init__(self, workspace):
        self.workspace = workspace

    def _entity(self, name):
        from azure.core.exceptions import ResourceNotFoundError

        from . import sdk

        try:
            with azure_errors(self.workspace, f"look up compute target {name!r}"):
                return sdk.compute_resource(ml_client(self.workspace), self.workspace, name)
        except ResourceNotFoundError:
            raise not_found(name) from None

    def get(self, name) -> dict:
        """The compute's record; ComputeTargetException when the workspace has none by that name."""
        return _record(*self._entity(name))

    def list(self) -> list:
        from . import sdk

        with azure_errors(self.workspace, "list compute targets"):
            found = sdk.compute_resources(ml_client(self.workspace), self.workspace)
        return [_record(entity, rest) for entity, rest in found]

    def begin_create(self, name, build):
        """Start creating the v2 compute ``build(subscription_id)`` returns; its poller."""
        with azure_errors(self.workspace, f"create compute target {name!r}"):
            return ml_client(self.workspace).compute.begin_create_or_update(build(self.workspace.subscription_id))

    def wait(self, name, poller, timeout_seconds, show_output, min_node_count=None) -> bool:
        """Wait for ``poller`` (if any); True: the compute's state is there to read."""
        if min_node_count:
            logger.warning("wait_for_completion(min_node_count=%s) is not awaited: v2 clusters scale up when a job "
                           "is submitted.", min_node_count)
        if poller is not None:
            if show_output:
                print("Creating", end="", flush=True)
            poller.wait(timeout=timeout_seconds)
            if not poller.done():
                raise ComputeTargetException(
                    f"Compute target {name!r} was not ready within {timeout_seconds} seconds; call "
                    "wait_for_completion(timeout_in_minutes=...) again with a longer timeout.")
            poller.result()
        return True

    def begin(self, name, operation, action=None):
        """Start ``begin_<operation>`` (delete, start, stop, restart; ``action`` 'Detach' keeps the resource)."""
        ops = ml_client(self.workspace).compute
        with azure_errors(self.workspace, f"{(action or operation).lower()} compute target {name!r}"):
            method = getattr(ops, f"begin_{operation}")
            return method(name, action=action) if action else method(name)

    def update_scale(self, name, min_nodes, max_nodes, idle_seconds) -> dict:
        """v2 ``begin_update`` of a cluster's node range and idle time; the compute's record afterwards."""
        entity, _ = self._entity(name)
        entity.min_instances = entity.min_instances if min_nodes is None else min_nodes
        entity.max_instances = entity.max_instances if max_nodes is None else max_nodes
        if idle_seconds is not None:
            entity.idle_time_before_scale_down = idle_seconds
        with azure_errors(self.workspace, f"update compute target {name!r}"):
            ml_client(self.workspace).compute.begin_update(entity).result()
        return self.get(name)

    def nodes(self, name) -> list:
        """v1's node dicts (``nodeId``, ``port``, ``publicIpAddress``, ``privateIpAddress``, ``nodeState``, ``runId``)."""
        with azure_errors(self.workspace, f"list the nodes of compute target {name!r}"):
            nodes = list(ml_client(self.workspace).compute.list_nodes(name))
        fields = (("nodeId", "node_id"), ("port", "port"), ("publicIpAddress", "public_ip_address"),
                  ("privateIpAddress", "private_ip_address"), ("nodeState", "node_state"), ("runId", "run_id"))
        return [{key: _rest_field(node, key, attr) for key, attr in fields} for node in nodes]

    def vm_sizes(self, location, compute_type) -> list:
        """v1's dicts (``name``, ``vCPUs``, ``gpus``, ``memoryGB``, ``maxResourceVolumeMB``)."""
        with azure_errors(self.workspace, "list the supported VM sizes"):
            sizes = ml_client(self.workspace).compute.list_sizes(location=location, compute_type=compute_type)
        fields = (("name", "name"), ("vCPUs", "v_cp_us"), ("gpus", "gpus"), ("memoryGB", "memory_gb"),
                  ("maxResourceVolumeMB", "max_resource_volume_mb"))
        return [{key: _rest_field(size, key, attr) for key, attr in fields} for size in sizes]

    def active_runs(self, name, experiment_for, statuses, run_type=None, tags=None, properties=None):
        """(handle, experiment) of the compute's runs from run history (``computes/{name}/runs``, filtered there)."""
        from .listing import compute_jobs
        from .run import run_for_job

        for job in compute_jobs(self.workspace, name, status=statuses, run_type=run_type, tags=tags,
                                properties=properties):
            experiment = experiment_for(job.experiment_name)
            yield run_for_job(experiment, job), experiment
