"""v1 ``ComputeTarget``/``AmlCompute`` mapped to v2 compute operations; offline no-ops when local runs are forced."""

from __future__ import annotations

import logging

from acpt_estimator.exceptions import ComputeTargetException

logger = logging.getLogger(__name__)

_V1_TYPES = {"amlcompute": "AmlCompute", "computeinstance": "ComputeInstance", "kubernetes": "Kubernetes",
             "virtualmachine": "VirtualMachine", "databricks": "Databricks", "hdinsight": "HDInsight"}


def _not_found(name) -> ComputeTargetException:
    return ComputeTargetException(
        f"ComputeTargetNotFound: Compute Target with name {name} not found in provided workspace. "
        "Create it with ComputeTarget.create(ws, name, AmlCompute.provisioning_configuration(vm_size=..., "
        "max_nodes=...)), or pick an existing name from ws.compute_targets.")


class ComputeTarget:
    """``ComputeTarget(ws, name)`` returns the matching subclass, or raises ComputeTargetException if missing."""

    _compute_type = None

    def __new__(cls, workspace=None, name=None):
        if workspace is None or name is None or cls is not ComputeTarget:
            return super().__new__(cls)
        if workspace._offline:
            return super().__new__(AmlCompute)
        entity = _get_entity(workspace, name)
        target_cls = {"AmlCompute": AmlCompute, "ComputeInstance": ComputeInstance}.get(
            _V1_TYPES.get(str(entity.type).lower(), ""), ComputeTarget)
        target = super().__new__(target_cls)
        target._entity = entity
        return target

    def __init__(self, workspace=None, name=None):
        if workspace is None or name is None:
            return  # made by create()/list(), which fill the fields
        if not isinstance(name, str) or not name:
            raise ComputeTargetException(f"ComputeTarget name={name!r} must be a non-empty string.")
        self.workspace = workspace
        self.name = name
        self._poller = None
        entity = getattr(self, "_entity", None)
        if entity is None and not workspace._offline:
            entity = _get_entity(workspace, name)
            if self._compute_type and _V1_TYPES.get(str(entity.type).lower()) != self._compute_type:
                raise ComputeTargetException(
                    f"Compute target {name!r} is a {entity.type}, not {self._compute_type}; use ComputeTarget(ws, "
                    f"{name!r}) to get it whatever its type.")
        self._set_entity(entity)

    def _set_entity(self, entity) -> None:
        self._entity = entity
        if entity is None:  # offline: a stand-in that provisioning code can call without Azure
            self.type = self._compute_type or "AmlCompute"
            self.provisioning_state = "Succeeded"
            self.location = None
            self.tags = {}
            return
        self.type = _V1_TYPES.get(str(entity.type).lower(), str(entity.type))
        state = entity.provisioning_state
        self.provisioning_state = str(getattr(state, "value", state))  # the SDK gives an enum; v1 gave text
        self.location = entity.location
        self.tags = dict(entity.tags or {})

    # ---- v1 static members --------------------------------------------------------------------------
    @staticmethod
    def create(workspace, name, provisioning_configuration):
        """Start creating a cluster; ``wait_for_completion`` waits for it. Offline: nothing is created."""
        if not isinstance(provisioning_configuration, AmlComputeProvisioningConfiguration):
            raise ComputeTargetException(
                f"ComputeTarget.create(provisioning_configuration={type(provisioning_configuration).__name__}) is "
                "not supported; build it with AmlCompute.provisioning_configuration(vm_size=..., max_nodes=...).")
        provisioning_configuration.validate_configuration()
        target = AmlCompute.__new__(AmlCompute)
        target.workspace, target.name, target._poller = workspace, name, None
        target._set_entity(None)
        if workspace._offline:
            logger.info("Local runs are forced: compute target %r is not created in Azure.", name)
            return target
        from acpt_estimator.backends.azureml.client import azure_errors, ml_client

        with azure_errors(workspace, f"create compute target {name!r}"):
            target._poller = ml_client(workspace).compute.begin_create_or_update(
                provisioning_configuration._to_v2(name))
        target.provisioning_state = "Creating"
        return target

    @staticmethod
    def list(workspace) -> list:
        if workspace._offline:
            return []
        from acpt_estimator.backends.azureml.client import azure_errors, ml_client

        with azure_errors(workspace, "list compute targets"):
            entities = list(ml_client(workspace).compute.list())
        targets = []
        for entity in entities:
            cls = AmlCompute if str(entity.type).lower() == "amlcompute" else ComputeTarget
            target = cls.__new__(cls)
            target.workspace, target.name, target._poller = workspace, entity.name, None
            target._set_entity(entity)
            targets.append(target)
        return targets

    # ---- v1 instance members ------------------------------------------------------------------------
    def wait_for_completion(self, show_output=False, is_delete_operation=False):
        return self._wait(show_output, None)

    def _wait(self, show_output, timeout_seconds):
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
        self.refresh_state()
        if show_output:
            print(f"\n{self.provisioning_state}Provisioning operation finished, operation "
                  f'"{self.provisioning_state}"\n{self.provisioning_state}\n{self.type} wait for completion finished')
        if str(self.provisioning_state).lower() == "failed":
            errors = getattr(self._entity, "provisioning_errors", None)
            raise ComputeTargetException(f"Compute target {self.name!r} failed to provision: {errors}. Check the "
                                         "VM size and quota in the Azure portal, then delete and create it again.")
        return None

    def refresh_state(self) -> None:
        if not self.workspace._offline:
            self._set_entity(_get_entity(self.workspace, self.name))

    def get_status(self):
        self.refresh_state()
        return self.provisioning_state

    def delete(self) -> None:
        if self.workspace._offline:
            return
        from acpt_estimator.backends.azureml.client import azure_errors, ml_client

        with azure_errors(self.workspace, f"delete compute target {self.name!r}"):
            ml_client(self.workspace).compute.begin_delete(self.name)

    def serialize(self) -> dict:
        return {"name": self.name, "type": self.type, "provisioningState": self.provisioning_state,
                "location": self.location, "tags": self.tags}

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(workspace={getattr(self.workspace, 'name', None)!r}, name={self.name!r}, "
                f"type={self.type!r}, provisioning_state={self.provisioning_state!r})")


class AmlComputeProvisioningConfiguration:
    """What ``AmlCompute.provisioning_configuration`` returns; turned into a v2 ``AmlCompute`` at create."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

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

    def _to_v2(self, name: str):
        from azure.ai.ml.entities import AmlCompute as V2AmlCompute, AmlComputeSshSettings, NetworkSettings

        ssh = None
        if self.admin_username:
            ssh = AmlComputeSshSettings(admin_username=self.admin_username, admin_password=self.admin_user_password,
                                        ssh_key_value=self.admin_user_ssh_key)
        network = None
        if self.vnet_name or self.subnet_name:
            network = NetworkSettings(vnet_name=self.vnet_name, subnet=self.subnet_name)
        identity = None
        if self.identity_type:
            from azure.ai.ml.entities import IdentityConfiguration, ManagedIdentityConfiguration

            ids = [ManagedIdentityConfiguration(resource_id=i) for i in (self.identity_id or [])] or None
            identity = IdentityConfiguration(type=self.identity_type, user_assigned_identities=ids)
        return V2AmlCompute(
            name=name, size=self.vm_size or None, tier="low_priority" if self.vm_priority == "lowpriority" else
            "dedicated", min_instances=self.min_nodes, max_instances=self.max_nodes,
            idle_time_before_scale_down=self.idle_seconds_before_scaledown, ssh_settings=ssh,
            ssh_public_access_enabled={"Enabled": True, "Disabled": False}.get(self.remote_login_port_public_access),
            network_settings=network, identity=identity, tags=self.tags, description=self.description,
            location=self.location, enable_node_public_ip=self.enable_node_public_ip)

    def __repr__(self) -> str:  # never shows the admin password
        return (f"AmlComputeProvisioningConfiguration(vm_size={self.vm_size!r}, vm_priority={self.vm_priority!r}, "
                f"min_nodes={self.min_nodes!r}, max_nodes={self.max_nodes!r})")


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
        if min_node_count and not self.workspace._offline:
            logger.warning("wait_for_completion(min_node_count=%s) is not awaited: v2 clusters scale up when a job "
                           "is submitted.", min_node_count)
        return self._wait(show_output, None if timeout_in_minutes is None else timeout_in_minutes * 60)

    @property
    def vm_size(self):
        return getattr(self._entity, "size", None)

    @property
    def scale_settings(self) -> dict:
        entity = self._entity
        return {"minimum_node_count": getattr(entity, "min_instances", None),
                "maximum_node_count": getattr(entity, "max_instances", None),
                "node_idle_time_before_scale_down": getattr(entity, "idle_time_before_scale_down", None)}


class ComputeInstance(ComputeTarget):
    """v1 ``ComputeInstance``: a single-user VM (found with ``ComputeTarget(ws, name)``)."""

    _compute_type = "ComputeInstance"


def _get_entity(workspace, name):
    from azure.core.exceptions import ResourceNotFoundError

    from acpt_estimator.backends.azureml.client import azure_errors, ml_client

    try:
        with azure_errors(workspace, f"look up compute target {name!r}"):
            return ml_client(workspace).compute.get(name)
    except ResourceNotFoundError:
        raise _not_found(name) from None


__all__ = sorted(["AmlCompute", "AmlComputeProvisioningConfiguration", "ComputeInstance", "ComputeTarget",
                  "ComputeTargetException"])
