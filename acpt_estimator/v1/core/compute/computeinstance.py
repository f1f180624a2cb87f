"""v1 ``azureml.core.compute.computeinstance``: single-user VMs (v2 ``ComputeInstance``), start/stop/restart."""

from __future__ import annotations

from acpt_estimator.exceptions import ComputeTargetException
from acpt_estimator.v1._refusal import refused
from acpt_estimator.v1.core.compute.amlcompute import supported_vmsizes
from acpt_estimator.v1.core.compute.compute import (ComputeTarget, ComputeTargetProvisioningConfiguration,
                                                 network_settings)
from acpt_estimator._lazy import lazy_names

_DOCS = "https://docs.microsoft.com/azure/machine-learning/concept-compute-instance"


class ComputeInstanceStatus:
    """v1's ``ComputeInstance.status`` / ``get_status()``: the instance state (Running, Stopped, ...)."""

    def __init__(self, creation_time, created_by, errors, modified_time, state, vm_size):
        self.creation_time, self.created_by, self.errors = creation_time, created_by, errors
        self.modified_time, self.state, self.vm_size = modified_time, state, vm_size

    def serialize(self) -> dict:
        return {"errors": self.errors, "creationTime": self.creation_time, "createdBy": self.created_by,
                "modifiedTime": self.modified_time, "state": self.state, "vmSize": self.vm_size}

    @staticmethod
    def deserialize(object_dict):
        d = object_dict or {}
        return ComputeInstanceStatus(d.get("creationTime"), d.get("createdBy"), d.get("errors"),
                                     d.get("modifiedTime"), d.get("state"), d.get("vmSize"))

    def __repr__(self) -> str:
        return f"ComputeInstanceStatus({self.serialize()!r})"


class ComputeInstanceProvisioningConfiguration(ComputeTargetProvisioningConfiguration):
    """What ``ComputeInstance.provisioning_configuration`` returns; a v2 ``ComputeInstance`` at create."""

    _target_type = "ComputeInstance"

    def validate_configuration(self) -> None:
        if not self.vm_size or not isinstance(self.vm_size, str):
            raise ComputeTargetException(
                f"Invalid provisioning configuration, vm_size={self.vm_size!r}: a compute instance needs a VM size, "
                "e.g. ComputeInstance.provisioning_configuration(vm_size='STANDARD_DS3_V2').")
        if self.ssh_public_access and not self.admin_user_ssh_public_key:
            raise ComputeTargetException(
                "Invalid provisioning configuration, ssh_public_access=True needs admin_user_ssh_public_key (the "
                "public key text).")

    def _to_v2(self, name: str, subscription_id: str | None = None):
        from azure.ai.ml.entities import AssignedUserConfiguration, ComputeInstance as V2Instance, \
            ComputeInstanceSshSettings

        user = None
        if self.assigned_user_object_id:
            user = AssignedUserConfiguration(user_tenant_id=self.assigned_user_tenant_id,
                                             user_object_id=self.assigned_user_object_id)
        network = network_settings(self.vnet_name, self.subnet_name, self.vnet_resourcegroup_name, subscription_id)
        ssh = ComputeInstanceSshSettings(ssh_key_value=self.admin_user_ssh_public_key) \
            if self.admin_user_ssh_public_key else None
        return V2Instance(name=name, size=self.vm_size, description=self.description, tags=self.tags,
                          ssh_public_access_enabled=bool(self.ssh_public_access), create_on_behalf_of=user,
                          network_settings=network, ssh_settings=ssh)

    def __repr__(self) -> str:
        return f"ComputeInstanceProvisioningConfiguration(vm_size={self.vm_size!r})"


class ComputeInstance(ComputeTarget):
    """v1 ``ComputeInstance``: a single-user VM."""

    _compute_type = "ComputeInstance"

    @staticmethod
    def provisioning_configuration(vm_size="", ssh_public_access=False, admin_user_ssh_public_key=None,
                                   vnet_resourcegroup_name=None, vnet_name=None, subnet_name=None, tags=None,
                                   description=None, assigned_user_object_id=None, assigned_user_tenant_id=None):
        config = ComputeInstanceProvisioningConfiguration(**{k: v for k, v in locals().items()})
        config.validate_configuration()
        return config

    @classmethod
    def get_docs_url(cls) -> str:
        return _DOCS

    @staticmethod
    def supported_vmsizes(workspace, location=None) -> list:
        return supported_vmsizes(workspace, location, "ComputeInstance")

    def _status(self) -> ComputeInstanceStatus:
        outer = (self._rest.get("properties") or {}) if self._rest else {}
        props = outer.get("properties") or {}
        created_by = (props.get("createdBy") or {}).get("userName") if isinstance(props.get("createdBy"), dict) \
            else props.get("createdBy")
        state = props.get("state") or ("Running" if self._stands_in else None)  # a stand-in is this machine
        return ComputeInstanceStatus(outer.get("createdOn"), created_by, props.get("errors"), outer.get("modifiedOn"),
                                     state, props.get("vmSize") or getattr(getattr(self, "_config", None),
                                                                           "vm_size", None))

    @property
    def vm_size(self):
        return self._status().vm_size

    @property
    def state(self):
        return self._status().state

    def get_status(self) -> ComputeInstanceStatus:
        return super().get_status()

    def start(self, wait_for_completion=False, show_output=False):
        """Start the instance (v2 ``begin_start``); offline the stand-in is this machine, already running."""
        return self._operate("start", wait_for_completion, show_output)

    def stop(self, wait_for_completion=False, show_output=False):
        return self._operate("stop", wait_for_completion, show_output)

    def restart(self, wait_for_completion=False, show_output=False):
        return self._operate("restart", wait_for_completion, show_output)

    def delete(self, wait_for_completion=False, show_output=False):
        return self._operate("delete", wait_for_completion, show_output)

    def _operate(self, operation, wait_for_completion, show_output):
        poller = self._begin(operation)
        if poller is not None and wait_for_completion:
            poller.result()
            self._poller = None
            if operation != "delete":
                self.refresh_state()
            if show_output:
                print(f"{operation.capitalize()} of compute instance {self.name!r} finished; state: "
                      f"{self.state if operation != 'delete' else 'Deleted'}")
        return None

    update_sso_settings = refused("ComputeInstance.update_sso_settings", "single sign-on is a v2 compute setting.",
                                  "ml_client.compute.enable_sso(name=..., enable_sso=True|False)")


__all__ = ["ComputeInstance", "ComputeInstanceProvisioningConfiguration", "ComputeInstanceStatus"]


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["AuthenticationException", "ComputeTargetException"], "acpt_estimator.exceptions"),
    **dict.fromkeys(["ComputeTarget", "ComputeTargetProvisioningConfiguration"],
        "acpt_estimator.v1.core.compute.compute"),
})
