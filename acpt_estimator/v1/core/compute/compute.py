"""v1 ``azureml.core.compute.compute``: ``ComputeTarget``, mapped to v2 compute operations; stand-ins offline."""

from __future__ import annotations

from acpt_estimator.exceptions import ComputeTargetException
from acpt_estimator.v1._refusal import refused
from acpt_estimator._lazy import lazy_names

_V1_TYPES = {"amlcompute": "AmlCompute", "computeinstance": "ComputeInstance", "kubernetes": "Kubernetes",
             "virtualmachine": "VirtualMachine", "databricks": "Databricks", "hdinsight": "HDInsight",
             "synapsespark": "SynapseSpark"}
ACTIVE_RUN_STATES = ("NotStarted", "Queued", "Preparing", "Provisioning", "Starting", "Running", "Finalizing")
_ATTACH_V2 = ("ml_client.compute.begin_attach(KubernetesCompute(...)|VirtualMachineCompute(...)) or "
              "`az ml compute attach`")


def _computes(workspace):
    """The workspace's compute service (``acpt_estimator.services``): v2 computes, or stand-ins locally."""
    from acpt_estimator.services import services_for

    return services_for(workspace).compute


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
        record = _computes(workspace).get(name)  # None: a stand-in for this machine
        target = super().__new__(_class_for(_v1_type(record["type"]) if record else "AmlCompute"))
        target._record = record
        return target

    def __init__(self, workspace=None, name=None):
        if workspace is None or name is None:
            return  # made by create()/list()/deserialize(), which fill the fields
        if not isinstance(name, str) or not name:
            raise ComputeTargetException(f"ComputeTarget name={name!r} must be a non-empty string.")
        self.workspace = workspace
        self.name = name
        self._poller = None
        if "_record" in self.__dict__:  # looked up by __new__ (ComputeTarget(ws, name))
            record = self.__dict__.pop("_record")
        else:
            record = _computes(workspace).get(name)
            if record is not None and self._compute_type and _v1_type(record["type"]) != self._compute_type:
                raise ComputeTargetException(
                    f"Compute target {name!r} is a {record['type']}, not {self._compute_type}; use "
                    f"ComputeTarget(ws, {name!r}) to get it whatever its type.")
        self._set_record(record)

    @classmethod
    def _make(cls, workspace, name, record=None):
        target = cls.__new__(cls)
        target.workspace, target.name, target._poller = workspace, name, None
        target._set_record(record)
        return target

    @property
    def _stands_in(self) -> bool:
        """A stand-in for this machine (the compute service says: a local workspace has no computes)."""
        return _computes(self.workspace).stand_ins

    def _set_record(self, record) -> None:
        self._rest = dict((record or {}).get("rest") or {})
        props = self._rest.get("properties") or {}
        if record is None:  # offline: a stand-in that provisioning code can call without Azure
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
        self.type = _v1_type(record["type"])
        self.provisioning_state = record["provisioning_state"]
        self.location = record["location"]
        self.tags = dict(record["tags"])
        self.description = record["description"]
        self.provisioning_errors = props.get("provisioningErrors") or None
        self.cluster_resource_id = props.get("resourceId")
        self.is_attached = bool(props.get("isAttachedCompute"))
        self.id = record["id"]

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
        return [_class_for(_v1_type(record["type"]))._make(workspace, record["name"], record)
                for record in _computes(workspace).list()]

    @staticmethod
    def deserialize(workspace, object_dict):
        """v1: a compute object from ``serialize()``'s dict (or the REST body of a compute)."""
        if not isinstance(object_dict, dict) or not object_dict.get("name"):
            raise ComputeTargetException(
                f"ComputeTarget.deserialize(object_dict={object_dict!r}) needs a dict with at least 'name' (what "
                "serialize() returns).")
        name = object_dict["name"]
        record = _computes(workspace).get(name)
        if record is None:  # a stand-in of the serialized type
            kind = object_dict.get("type") or (object_dict.get("properties") or {}).get("computeType")
            return _class_for(kind or "AmlCompute")._make(workspace, name)
        return _class_for(_v1_type(record["type"]))._make(workspace, name, record)

    attach = refused("ComputeTarget.attach", "v1 attach configurations (AKS, Databricks, remote VMs, ...) have no "
                     "v1-shaped counterpart here.", _ATTACH_V2)

    # ---- v1 instance members ------------------------------------------------------------------------
    def wait_for_completion(self, show_output=False, is_delete_operation=False):
        return self._wait(show_output, None, is_delete_operation)

    def _wait(self, show_output, timeout_seconds, deleting=False, min_node_count=None):
        """Wait for the create (or, ``deleting``: the delete) started on this object; v1's printout."""
        if not _computes(self.workspace).wait(self.name, self._poller, timeout_seconds, show_output, min_node_count):
            return None  # a stand-in: nothing was provisioned
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
        record = _computes(self.workspace).get(self.name)
        if record is not None:  # a stand-in's state is its own
            self._set_record(record)

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
        poller = _computes(self.workspace).begin(self.name, operation, action)  # None for a stand-in
        if poller is not None:
            self._poller = poller
        return poller

    def get_active_runs(self, type=None, tags=None, properties=None, status=None):
        """v1: a generator of the runs queued or running on this compute (``status`` picks one state).

        Offline the stand-in is this machine, so its runs are the active local runs of the run store."""
        from acpt_estimator.v1.core._run_handle import wrap
        from acpt_estimator.v1.core.experiment import Experiment

        def experiment_for(name):
            return Experiment(self.workspace, name, _skip_name_validation=True)

        wanted = (status,) if status else ACTIVE_RUN_STATES
        for handle, experiment in _computes(self.workspace).active_runs(self.name, experiment_for, wanted, type,
                                                                         tags, properties):
            yield wrap(handle, experiment)

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
        target._poller = _computes(workspace).begin_create(name, lambda subscription_id: self._to_v2(name,
                                                                                                  subscription_id))
        if target._poller is not None:
            target.provisioning_state = "Creating"
        return target


def _serialized(status):
    return status.serialize() if status is not None else None


def _class_for(v1_type: str):
    """The v1 class for a compute type (ComputeTarget for types without their own class here)."""
    from acpt_estimator.v1.core.compute.amlcompute import AmlCompute
    from acpt_estimator.v1.core.compute.computeinstance import ComputeInstance

    return {"AmlCompute": AmlCompute, "ComputeInstance": ComputeInstance}.get(v1_type, ComputeTarget)


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
