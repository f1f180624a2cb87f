"""v1 ``azureml.core.container_registry``: where a custom base image is pulled from."""

from __future__ import annotations


class RegistryIdentity:
    """v1 ``RegistryIdentity``: a user-assigned identity (``resource_id``/``client_id``) that pulls the image."""

    def __init__(self):
        self.resource_id = None
        self.client_id = None

    def _to_dict(self) -> dict:
        return {"resourceId": self.resource_id, "clientId": self.client_id}


class ContainerRegistry:
    """v1 ``ContainerRegistry``: ``address`` (e.g. ``myacr.azurecr.io``) plus credentials or an identity.

    v2 jobs pull with the workspace's identity, so the credentials are never sent (nor written by ``save``); the
    address is used to complete an image name that lacks a registry host.
    """

    def __init__(self):
        self.address = None
        self.username = None
        self.password = None
        self.registry_identity = None

    def _to_dict(self) -> dict:
        """Without the password: it is never written to files."""
        data = {"address": self.address, "username": self.username}
        if self.registry_identity is not None:
            data["registryIdentity"] = self.registry_identity._to_dict()
        return data

    @classmethod
    def _from_dict(cls, data: dict | None) -> "ContainerRegistry | None":
        if not data:
            return None
        registry = cls()
        registry.address, registry.username = data.get("address"), data.get("username")
        registry.password = data.get("password")
        return registry

    def __repr__(self) -> str:
        shown = "***" if self.password else None
        return f"ContainerRegistry(address={self.address!r}, username={self.username!r}, password={shown!r})"
