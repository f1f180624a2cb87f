"""v1 ``azureml.core.compute.compute``: ``ComputeTarget``, mapped to v2 compute operations; stand-ins offline."""

from __future__ import annotations

import logging

from acpt_estimator.exceptions import ComputeTargetException
from acpt_estimator.v1._refusal import refused
from acpt_estimator._lazy import lazy_names

logger = logging.getLogger(__name__)

_V1_TYPES = {"amlcompute": "AmlCompute", "computeinstance": "ComputeInstance", "kubernetes": "Kubernetes",
             "virtualmachine": "VirtualMachine", "databricks": "Databricks", "hdinsight": "HDInsight",
             "synapsespark": "SynapseSpark"}
ACTIVE_RUN_STATES = ("NotStarted", "Queued", "Preparing", "Provisioning", "Starting", "Running", "Finalizing")
_ATTACH_V2 = ("ml_client.compute.begin_attach(KubernetesCompute(...)|VirtualMachineCompute(...)) or "
              "`az ml compute attach`")


def _not_found(name) -> ComputeTargetException:
    return ComputeTargetException(
        f"ComputeTargetNotFound: Compute Target with name {name} not found in provided workspace. "
        "Create it with ComputeTarget.create(ws, name, AmlCompute.provisioning_configuration(vm_size=..., "
        "max_nodes=...)), or pick an existing name from ws.compute_targets.")


def _v1_type(entity_type) -> str:
    return _V1_TYPES.get(str(entity_type).lower(), str(entity_type))


class ComputeTarget:
    """``ComputeTarget(ws, name)`` returns the matching subclass, or raises ComputeTargetException if missing.

    With local runs forced (or for a local-only workspace) any name yields an ``AmlCompute`` stand-in whose
    provisioning calls do nothing, so v1 notebooks' compute cells run unchanged before a local job.
    """

    _compute_type = None

    def __new__(cls, workspace=None, name=None):
        if workspace is None or name is None or cls is not ComputeTarget:
            return super().__new__(cls)
        target_cls = _class_for("AmlCompute")
        if not workspace._offline:
            entity, rest = _lookup(workspace, name)
            target_cls = _class_for(_v1_type(entity.type))
            target = super().__new__(target_cls)
            target._entity, target._rest = entity, rest
            return target
        return super().__new__(target_cls)

    def __init__(self, workspace=None, name=None):
        if workspace is None or name is None:
            return  # made by create()/list()/deserialize(), which fill the fields
        if not isinstance(name, str) or not name:
            raise ComputeTargetException(f"ComputeTarget name={name!r} must be a non-empty string.")
        self.workspace = workspace
        self.name = name
        self._poller = None
        entity, rest = getattr(self, "_entity", None), getattr(self, "_rest", None)
        if entity is None and not workspace._offline:
            entity, rest = _lookup(workspace, name)
            if self._compute_type and _v1_type(entity.type) != self._compute_type:
                raise ComputeTargetException(
                    f"Compute target {name!r} is a {entity.type}, not {self._compute_type}; use ComputeTarget(ws, "
                    f"{name!r}) to get it whatever its type.")
        self._set_entity(entity, rest)

    @classmethod
    def _make(cls, workspace, name, entity=None, rest=None):
        target = cls.__new__(cls)
        target.workspace, target.name, target._poller = workspace, name, None
        target._set_entity(entity, rest)
        return target

    def _set_entity(self, entity, rest=None) -> None:
        self._entity, self._rest = entity, dict(rest or {})
        props = self._rest.get("properties") or {}
        if entity is None:  # offline: a stand-in that provisioning code can call without Azure
            self.type = self._compute_type or "AmlCompute"
            self.provisioning_state = "Succeeded"
            self.location = getattr(self.workspace, "location", None)
            self.tags = {}
            self.description = None
            self.provisioning_errors = None
            self.cluster_resource_id = None
            self.is_attached = False
            self.id = None
            return
        self.type = _v1_type(entity.type)
        state = entity.provisioning_state
        self.provisioning_state = str(getattr(state, "value", state))  # the SDK gives an enum; v1 gave text
        self.location = entity.location
        self.tags = dict(entity.tags or {})
        self.description = entity.description
        self.provisioning_errors = props.get("provisioningErrors") or None
        self.cluster_resource_id = props.get("resourceId")
        self.is_attached = bool(props.get("isAttachedCompute"))
        self.id = entity.id

    # ---- v1 static members --------------------------------------------------------------------------
    @staticmethod
    def create(workspace, name, provisioning_configuration):
        """Start creating a compute; ``wait_for_completion`` waits for it. Offline: nothing is created."""
        make = getattr(provisioning_configuration, "_create", None)
        if make is None:
            raise ComputeTargetException(
                f"ComputeTarget.create(provisioning_configuration={type(provisioning_configuration).__name__}) is "
                "not supported; build it with AmlCompute.provisioning_configuration(vm_size=..., max_nodes=...) "
                "or ComputeInstance.provisioning_configuration(vm_size=...).")
        return make(workspace, name)

    @staticmethod
    def list(workspace) -> list:
        """Every compute of the workspace as v1 objects (none offline: ``ws.compute_targets[name]`` stands in)."""
        if workspace._offline:
            return []
        from acpt_estimator.backends.azureml import sdk
        from acpt_estimator.backends.azureml.client import azure_errors, ml_client

        with azure_errors(workspace, "list compute targets"):
            found = sdk.compute_resources(ml_client(workspace), workspace)
        return [_class_for(_v1_type(entity.type))._make(workspace, entity.name, entity, rest)
                for entity, rest in found]

    @staticmethod
    def deserialize(workspace, object_dict):
        """v1: a compute object from ``serialize()``'s dict (or the REST body of a compute)."""
        if not isinstance(object_dict, dict) or not object_dict.get("name"):
            raise ComputeTargetException(
                f"ComputeTarget.deserialize(object_dict={object_dict!r}) needs a dict with at least 'name' (what "
                "serialize() returns).")
        name = object_dict["name"]
        if workspace._offline:
            kind = object_dict.get("type") or (object_dict.get("properties") or {}).get("computeType")
            return _class_for(kind or "AmlCompute")._make(workspace, name)
        return ComputeTarget(workspace, name)

    attach = refused("ComputeTarget.attach", "v1 attach configurations (AKS, Databricks, remote VMs, ...) have no "
                     "v1-shaped counterpart here.", _ATTACH_V2)

    # ---- v1 instance members ------------------------------------------------------------------------
    def wait_for_completion(self, show_output=False, is_delete_operation=False):
        return self._wait(show_output, None, is_delete_operation)

    def _wait(self, show_output, timeout_seconds, deleting=False):
        """Wait for the create (or, ``deleting``: the delete) started on this object; v1's printout."""
        if self.workspace._offline:
            if show_output:
                print(f"Local runs are forced: compute target {self.name!r} is not provisioned.")
            return None
        if self._poller is not None:
            if show_output:
                print("Creating", end="", flush=True)
            self._poller.wait(timeout=timeout_seconds)
            if not self._poller.done():
                raise ComputeTargetException(
                    f"Compute target {self.name!r} was not ready within {timeout_seconds} seconds; call "
                    "wait_for_completion(timeout_in_minutes=...) again with a longer timeout.")
            self._poller.result()
            self._poller = None
        if deleting:  # v1's is_delete_operation: the compute is gone, there is no state to read
            self.provisioning_state = "Deleted"
            if show_output:
                print(f"\nDeleted\n{self.type} delete of {self.name!r} finished")
            return None
        self.refresh_state()
        if show_output:
            print(f"\n{self.provisioning_state}Provisioning operation finished, operation "
                  f'"{self.provisioning_state}"\n{self.provisioning_state}\n{self.type} wait for completion finished')
        if str(self.provisioning_state).lower() == "failed":
            raise ComputeTargetException(
                f"Compute target {self.name!r} failed to provision: {self.provisioning_errors}. Check the VM size "
                "and quota in the Azure portal, then delete and create it again.")
        return None

    def refresh_state(self) -> None:
        if not self.workspace._offline:
            self._set_entity(*_lookup(self.workspace, self.name))

    @property
    def status(self):
        """v1's status object (``serialize()``, ``provisioning_state``, ...) as of the last refresh."""
        return self._status()

    def _status(self):
        return None

    def get_status(self):
        """Refresh, then v1's status object (a plain provisioning state for compute types without one)."""
        self.refresh_state()
        status = self._status()
        return self.provisioning_state if status is None else status

    def get(self) -> dict:
        """v1: the compute's REST description (offline: the stand-in's own)."""
        self.refresh_state()
        return dict(self._rest) if self._rest else self.serialize()

    def delete(self) -> None:
        """Delete the compute in Azure (offline: nothing exists, nothing to delete)."""
        self._begin("delete", "Delete")

    def detach(self) -> None:
        """Detach an attached compute (v2 ``begin_delete(action='Detach')``); the resource itself stays."""
        self._begin("delete", "Detach")

    def _begin(self, operation: str, action: str | None = None):
        if self.workspace._offline:
            logger.info("Local runs are forced: nothing to %s for compute target %r in Azure.",
                        (action or operation).lower(), self.name)
            return None
        from acpt_estimator.backends.azureml.client import azure_errors, ml_client

        ops = ml_client(self.workspace).compute
        with azure_errors(self.workspace, f"{(action or operation).lower()} compute target {self.name!r}"):
            method = getattr(ops, f"begin_{operation}")
            self._poller = method(self.name, action=action) if action else method(self.name)
        return self._poller

    def get_active_runs(self, type=None, tags=None, properties=None, status=None):
        """v1: a generator of the runs queued or running on this compute (``status`` picks one state).

        Offline the stand-in is this machine, so its runs are the active local runs of the run store."""
        wanted = (status,) if status else ACTIVE_RUN_STATES
        if not self.workspace._offline:  # run history filters the compute's runs
            yield from _cloud_runs(self.workspace, self.name, status=wanted, run_type=type, tags=tags,
                                   properties=properties)
            return
        for run in _local_runs(self.workspace):
            if run.get_status() not in wanted or (type is not None and run.type != type):
                continue
            details = run.get_details() if tags or properties else {}
            if _has(details.get("tags"), tags) and _has(details.get("properties"), properties):
                yield run

    def serialize(self) -> dict:
        return {"id": self.id, "name": self.name, "location": self.location, "tags": self.tags,
                "properties": {"computeType": self.type, "provisioningState": self.provisioning_state,
                               "description": self.description, "isAttachedCompute": self.is_attached,
                               "status": _serialized(self._status())}}

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(workspace={getattr(self.workspace, 'name', None)!r}, name={self.name!r}, "
                f"type={self.type!r}, provisioning_state={self.provisioning_state!r})")


class ComputeTargetProvisioningConfiguration:
    """v1's base of the provisioning configurations; ``ComputeTarget.create`` turns one into a v2 compute."""

    _target_type = None  # the v1 class name the configuration creates

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def validate_configuration(self) -> None:
        raise NotImplementedError

    def _to_v2(self, name: str, subscription_id: str | None = None):
        raise NotImplementedError

    def _create(self, workspace, name):
        self.validate_configuration()
        target = _class_for(self._target_type)._make(workspace, name)
        target._config = self
        if workspace._offline:
            logger.info("Local runs are forced: compute target %r is not created in Azure.", name)
            return target
        from acpt_estimator.backends.azureml.client import azure_errors, ml_client

        with azure_errors(workspace, f"create compute target {name!r}"):
            target._poller = ml_client(workspace).compute.begin_create_or_update(
                self._to_v2(name, workspace.subscription_id))
        target.provisioning_state = "Creating"
        return target


def _has(actual: dict, wanted) -> bool:
    """v1's tag/property filter: a list of keys that must exist, or a dict of values that must match."""
    if not wanted:
        return True
    actual = actual or {}
    if isinstance(wanted, dict):
        return all(actual.get(k) == v for k, v in wanted.items())
    return all(k in actual for k in ([wanted] if isinstance(wanted, str) else wanted))


def _local_runs(workspace):
    from acpt_estimator.backends.local.run import LocalRun
    from acpt_estimator.backends.local.store import all_run_records, run_paths
    from acpt_estimator.v1.core._run_handle import wrap
    from acpt_estimator.v1.core.experiment import Experiment

    for record in all_run_records():
        experiment = Experiment(workspace, record.get("experimentName") or "local", _skip_name_validation=True)
        yield wrap(LocalRun(run_paths(record["runId"]), experiment=experiment), experiment)


def _cloud_runs(workspace, name, **filters):
    """The compute's runs from run history (``computes/{name}/runs``, filtered there)."""
    from acpt_estimator.backends.azureml.listing import compute_jobs
    from acpt_estimator.backends.azureml.run import run_for_job
    from acpt_estimator.v1.core._run_handle import wrap
    from acpt_estimator.v1.core.experiment import Experiment

    for job in compute_jobs(workspace, name, **filters):
        experiment = Experiment(workspace, job.experiment_name, _skip_name_validation=True)
        yield wrap(run_for_job(experiment, job), experiment)


def _serialized(status):
    return status.serialize() if status is not None else None


def _class_for(v1_type: str):
    """The v1 class for a compute type (ComputeTarget for types without their own class here)."""
    from acpt_estimator.v1.core.compute.amlcompute import AmlCompute
    from acpt_estimator.v1.core.compute.computeinstance import ComputeInstance

    return {"AmlCompute": AmlCompute, "ComputeInstance": ComputeInstance}.get(v1_type, ComputeTarget)


def _lookup(workspace, name):
    """(v2 entity, REST body) of a compute; the REST body keeps what v1's status shows and v2's entity drops
    (node counts, allocation state, instance state)."""
    from azure.core.exceptions import ResourceNotFoundError

    from acpt_estimator.backends.azureml import sdk
    from acpt_estimator.backends.azureml.client import azure_errors, ml_client

    try:
        with azure_errors(workspace, f"look up compute target {name!r}"):
            return sdk.compute_resource(ml_client(workspace), workspace, name)
    except ResourceNotFoundError:
        raise _not_found(name) from None


__all__ = ["ComputeTarget", "ComputeTargetException", "ComputeTargetProvisioningConfiguration"]


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["ComputeTargetAttachConfiguration", "ComputeTargetUpdateConfiguration"],
        "acpt_estimator.v1.core.compute._attach"),
    "UserErrorException": "acpt_estimator.exceptions",
})


def network_settings(vnet_name, subnet_name, vnet_resourcegroup_name, subscription_id):
    """v2 ``NetworkSettings`` for v1's vnet fields. A vnet in another resource group (``vnet_resourcegroup_name``)
    becomes the subnet's ARM id, which is how v2 names a subnet outside the workspace's resource group."""
    if not (vnet_name or subnet_name):
        if vnet_resourcegroup_name:
            raise ComputeTargetException(
                f"vnet_resourcegroup_name={vnet_resourcegroup_name!r} without vnet_name and subnet_name: pass the "
                "virtual network and subnet too, or leave vnet_resourcegroup_name out.")
        return None
    from azure.ai.ml.entities import NetworkSettings

    subnet = subnet_name
    if vnet_resourcegroup_name and subnet_name and not str(subnet_name).startswith("/subscriptions/"):
        if not vnet_name:
            raise ComputeTargetException(
                f"vnet_resourcegroup_name={vnet_resourcegroup_name!r} needs vnet_name to name the subnet "
                f"{subnet_name!r}; pass vnet_name=..., or subnet_name as the subnet's full ARM id.")
        subnet = (f"/subscriptions/{subscription_id}/resourceGroups/{vnet_resourcegroup_name}/providers/"
                  f"Microsoft.Network/virtualNetworks/{vnet_name}/subnets/{subnet_name}")
    return NetworkSettings(vnet_name=vnet_name, subnet=subnet)
