"""v1 ``azureml.core.compute.amlcompute``: training clusters (v2 ``AmlCompute``), their status and provisioning."""

from __future__ import annotations

import re

from acpt_estimator.exceptions import ComputeTargetException
from acpt_estimator.v1._refusal import refused
from acpt_estimator.v1.core.compute.compute import (ComputeTarget, ComputeTargetProvisioningConfiguration, _computes,
                                                 network_settings)
from acpt_estimator._lazy import lazy_names

_QUOTA_V2 = "ml_client.compute.list_usage() to read quotas; quota changes are made in the Azure portal (Quotas)"
_NODE_STATES = ("idle", "leaving", "preempted", "preparing", "running", "unusable")


class AmlComputeNodeStateCounts:
    """v1: how many nodes are in each state."""

    def __init__(self, idle_node_count=0, leaving_node_count=0, preempted_node_count=0, preparing_node_count=0,
                 running_node_count=0, unusable_node_count=0):
        self.idle_node_count, self.leaving_node_count = idle_node_count, leaving_node_count
        self.preempted_node_count, self.preparing_node_count = preempted_node_count, preparing_node_count
        self.running_node_count, self.unusable_node_count = running_node_count, unusable_node_count

    def serialize(self) -> dict:
        return {f"{state}NodeCount": getattr(self, f"{state}_node_count") for state in
                ("preparing", "running", "idle", "unusable", "leaving", "preempted")}

    @staticmethod
    def deserialize(object_dict):
        return AmlComputeNodeStateCounts(**{f"{s}_node_count": (object_dict or {}).get(f"{s}NodeCount") or 0
                                            for s in _NODE_STATES})


class ScaleSettings:
    """v1: the cluster's node range and idle time before scaling down."""

    def __init__(self, minimum_node_count=0, maximum_node_count=None, idle_seconds_before_scaledown=None):
        self.minimum_node_count, self.maximum_node_count = minimum_node_count, maximum_node_count
        self.idle_seconds_before_scaledown = idle_seconds_before_scaledown

    def serialize(self) -> dict:
        idle = self.idle_seconds_before_scaledown
        return {"minNodeCount": self.minimum_node_count, "maxNodeCount": self.maximum_node_count,
                "nodeIdleTimeBeforeScaleDown": None if idle is None else f"PT{int(idle)}S"}

    @staticmethod
    def deserialize(object_dict):
        object_dict = object_dict or {}
        return ScaleSettings(object_dict.get("minNodeCount", 0), object_dict.get("maxNodeCount"),
                             _iso_seconds(object_dict.get("nodeIdleTimeBeforeScaleDown")))


class AmlComputeStatus:
    """v1's ``AmlCompute.status`` / ``get_status()``: node counts, allocation and provisioning state."""

    def __init__(self, allocation_state, allocation_state_transition_time, creation_time, current_node_count, errors,
                 modified_time, node_state_counts, provisioning_state, vm_priority, vm_size, target_node_count,
                 scale_settings=None, provisioning_state_transition_time=None):
        self.allocation_state = allocation_state
        self.allocation_state_transition_time = allocation_state_transition_time
        self.creation_time, self.modified_time = creation_time, modified_time
        self.current_node_count, self.target_node_count = current_node_count, target_node_count
        self.errors = errors
        self.node_state_counts = node_state_counts
        self.provisioning_state = provisioning_state
        self.provisioning_state_transition_time = provisioning_state_transition_time
        self.vm_priority, self.vm_size = vm_priority, vm_size
        self.scale_settings = scale_settings

    def serialize(self) -> dict:
        """The dict v1 notebooks print: ``compute_target.get_status().serialize()``."""
        return {"currentNodeCount": self.current_node_count, "targetNodeCount": self.target_node_count,
                "nodeStateCounts": self.node_state_counts.serialize() if self.node_state_counts else None,
                "allocationState": self.allocation_state,
                "allocationStateTransitionTime": self.allocation_state_transition_time, "errors": self.errors,
                "creationTime": self.creation_time, "modifiedTime": self.modified_time,
                "provisioningState": self.provisioning_state,
                "provisioningStateTransitionTime": self.provisioning_state_transition_time,
                "scaleSettings": self.scale_settings.serialize() if self.scale_settings else None,
                "vmPriority": self.vm_priority, "vmSize": self.vm_size}

    @staticmethod
    def deserialize(object_dict):
        d = object_dict or {}
        return AmlComputeStatus(
            d.get("allocationState"), d.get("allocationStateTransitionTime"), d.get("creationTime"),
            d.get("currentNodeCount", 0), d.get("errors"), d.get("modifiedTime"),
            AmlComputeNodeStateCounts.deserialize(d.get("nodeStateCounts")), d.get("provisioningState"),
            d.get("vmPriority"), d.get("vmSize"), d.get("targetNodeCount", 0),
            ScaleSettings.deserialize(d.get("scaleSettings")), d.get("provisioningStateTransitionTime"))

    def __repr__(self) -> str:
        return f"AmlComputeStatus({self.serialize()!r})"


def _iso_seconds(value):
    """'PT120S' / 'PT2M' / 'PT1H' -> seconds (v2 answers ISO-8601 durations)."""
    if value is None or isinstance(value, (int, float)):
        return value
    match = re.fullmatch(r"PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?", str(value))
    if not match:
        return None
    hours, minutes, seconds = (float(g or 0) for g in match.groups())
    return int(hours * 3600 + minutes * 60 + seconds)


class AmlComputeProvisioningConfiguration(ComputeTargetProvisioningConfiguration):
    """What ``AmlCompute.provisioning_configuration`` returns; turned into a v2 ``AmlCompute`` at create."""

    _target_type = "AmlCompute"

    def validate_configuration(self) -> None:
        if self.max_nodes is None:
            raise ComputeTargetException(
                "Invalid provisioning configuration, max nodes count is mandatory. Pass max_nodes=<n> to "
                "AmlCompute.provisioning_configuration(...).")
        if not isinstance(self.max_nodes, int) or not isinstance(self.min_nodes, int) or \
                self.min_nodes < 0 or self.max_nodes < max(self.min_nodes, 1):
            raise ComputeTargetException(
                f"Invalid provisioning configuration, min_nodes={self.min_nodes!r} and max_nodes={self.max_nodes!r} "
                "must be whole numbers with 0 <= min_nodes <= max_nodes and max_nodes >= 1.")
        if self.vm_priority not in ("dedicated", "lowpriority"):
            raise ComputeTargetException(
                f"Invalid provisioning configuration, vm_priority={self.vm_priority!r}; use 'dedicated' or "
                "'lowpriority'.")

    def _to_v2(self, name: str, subscription_id: str | None = None):
        from azure.ai.ml.entities import AmlCompute as V2AmlCompute, AmlComputeSshSettings

        ssh = None
        if self.admin_username:
            ssh = AmlComputeSshSettings(admin_username=self.admin_username, admin_password=self.admin_user_password,
                                        ssh_key_value=self.admin_user_ssh_key)
        network = network_settings(self.vnet_name, self.subnet_name, self.vnet_resourcegroup_name, subscription_id)
        return V2AmlCompute(
            name=name, size=self.vm_size or None, tier="low_priority" if self.vm_priority == "lowpriority" else
            "dedicated", min_instances=self.min_nodes, max_instances=self.max_nodes,
            idle_time_before_scale_down=self.idle_seconds_before_scaledown, ssh_settings=ssh,
            ssh_public_access_enabled={"Enabled": True, "Disabled": False}.get(self.remote_login_port_public_access),
            network_settings=network, identity=_identity(self.identity_type, self.identity_id), tags=self.tags,
            description=self.description, location=self.location, enable_node_public_ip=self.enable_node_public_ip)

    def __repr__(self) -> str:  # never shows the admin password
        return (f"AmlComputeProvisioningConfiguration(vm_size={self.vm_size!r}, vm_priority={self.vm_priority!r}, "
                f"min_nodes={self.min_nodes!r}, max_nodes={self.max_nodes!r})")


def _identity(identity_type, identity_id):
    if not identity_type:
        return None
    from azure.ai.ml.entities import IdentityConfiguration, ManagedIdentityConfiguration

    ids = [ManagedIdentityConfiguration(resource_id=i) for i in (identity_id or [])] or None
    return IdentityConfiguration(type=identity_type, user_assigned_identities=ids)


class AmlCompute(ComputeTarget):
    """v1 ``AmlCompute``: a training cluster."""

    _compute_type = "AmlCompute"

    @staticmethod
    def provisioning_configuration(vm_size="", vm_priority="dedicated", min_nodes=0, max_nodes=None,
                                   idle_seconds_before_scaledown=1800, admin_username=None, admin_user_password=None,
                                   admin_user_ssh_key=None, vnet_resourcegroup_name=None, vnet_name=None,
                                   subnet_name=None, tags=None, description=None,
                                   remote_login_port_public_access="NotSpecified", identity_type=None,
                                   identity_id=None, location=None, enable_node_public_ip=True):
        config = AmlComputeProvisioningConfiguration(**{k: v for k, v in locals().items()})
        config.validate_configuration()
        return config

    def wait_for_completion(self, show_output=False, min_node_count=None, timeout_in_minutes=25,
                            is_delete_operation=False):
        return self._wait(show_output, None if timeout_in_minutes is None else timeout_in_minutes * 60,
                          is_delete_operation, min_node_count=min_node_count)

    def _props(self) -> dict:
        return ((self._rest.get("properties") or {}).get("properties") or {}) if self._rest else {}

    def _status(self) -> AmlComputeStatus:
        props, config = self._props(), getattr(self, "_config", None)
        scale = ScaleSettings.deserialize(props.get("scaleSettings")) if props else ScaleSettings(
            getattr(config, "min_nodes", 0), getattr(config, "max_nodes", None),
            getattr(config, "idle_seconds_before_scaledown", None))
        outer = (self._rest.get("properties") or {}) if self._rest else {}
        return AmlComputeStatus(
            props.get("allocationState", "Steady"), props.get("allocationStateTransitionTime"),
            outer.get("createdOn"), props.get("currentNodeCount", 0), props.get("errors"), outer.get("modifiedOn"),
            AmlComputeNodeStateCounts.deserialize(props.get("nodeStateCounts")), self.provisioning_state,
            props.get("vmPriority") or _v1_priority(getattr(config, "vm_priority", None)),
            props.get("vmSize") or getattr(config, "vm_size", None) or None, props.get("targetNodeCount", 0), scale)

    @property
    def vm_size(self):
        return self._status().vm_size

    @property
    def vm_priority(self):
        return self._status().vm_priority

    @property
    def scale_settings(self) -> ScaleSettings:
        return self._status().scale_settings

    def get_status(self) -> AmlComputeStatus:
        return super().get_status()

    def list_nodes(self) -> list:
        """v1: one dict per node (``nodeId``, ``port``, ``publicIpAddress``, ``privateIpAddress``, ``nodeState``,
        ``runId``); none offline, where no cluster exists."""
        return _computes(self.workspace).nodes(self.name)

    @staticmethod
    def supported_vmsizes(workspace, location=None) -> list:
        return supported_vmsizes(workspace, location, "AmlCompute")

    def update(self, min_nodes=None, max_nodes=None, idle_seconds_before_scaledown=None) -> None:
        """v1: change the node range or idle time (v2 ``begin_update``); offline the stand-in just records it."""
        config = getattr(self, "_config", None) or AmlCompute.provisioning_configuration(max_nodes=1)
        for field, value in (("min_nodes", min_nodes), ("max_nodes", max_nodes),
                             ("idle_seconds_before_scaledown", idle_seconds_before_scaledown)):
            if value is not None:
                setattr(config, field, value)
        record = _computes(self.workspace).update_scale(self.name, min_nodes, max_nodes, idle_seconds_before_scaledown)
        if record is None:  # a stand-in: nothing in Azure, its configuration records the change
            config.validate_configuration()
            self._config = config
            return
        self._set_record(record)

    add_identity = refused("AmlCompute.add_identity", "a cluster's identity is set when it is created or updated "
                           "in v2.", "AmlCompute(identity=IdentityConfiguration(...)) with "
                           "ml_client.compute.begin_update, or `az ml compute update --identity-type`")
    remove_identity = refused("AmlCompute.remove_identity", "a cluster's identity is set when it is created or "
                              "updated in v2.", "ml_client.compute.begin_update(AmlCompute(..., identity=None))")
    list_quotas = refused("AmlCompute.list_quotas", "v2 reports usage, not v1's quota objects.", _QUOTA_V2)
    list_usages = refused("AmlCompute.list_usages", "v2 reports usage through its own Usage objects.",
                          "ml_client.compute.list_usage(location=...)")
    update_quotas = refused("AmlCompute.update_quotas", "quotas are changed through Azure support, not the SDK.",
                            "the Azure portal: Azure Machine Learning > Quotas > Request quota")


def _v1_priority(priority):
    return {"dedicated": "Dedicated", "lowpriority": "LowPriority"}.get(priority, priority)


def supported_vmsizes(workspace, location, compute_type) -> list:
    """v1's dicts (``name``, ``vCPUs``, ``gpus``, ``memoryGB``, ``maxResourceVolumeMB``); offline: this machine,
    the only size local runs have."""
    return _computes(workspace).vm_sizes(location, compute_type)


__all__ = ["AmlCompute", "AmlComputeNodeStateCounts", "AmlComputeProvisioningConfiguration", "AmlComputeStatus",
           "ScaleSettings"]


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["ComputeTarget", "ComputeTargetProvisioningConfiguration"],
        "acpt_estimator.v1.core.compute.compute"),
    "ComputeTargetException": "acpt_estimator.exceptions",
})
