"""A workspace's v2 environments (the workspace's environments service): register, resolve and list; azure imported
on use. Definitions are v1 ``Environment`` objects handed in, read through ``_to_spec()`` and copied."""

from __future__ import annotations

import copy

from ...exceptions import UserErrorException


class CloudEnvironments:
    build_note = "Azure ML v2 builds its image when the first job uses it (see the job's image build log)."

    def __init__(self, workspace):
        self.workspace = workspace

    @property
    def where(self) -> str:
        return f"workspace {self.workspace.name!r}"

    def register(self, env):
        """A copy of ``env`` with the version v2 registered (unchanged content keeps the latest version)."""
        from .assets import register_environment

        registered = copy.deepcopy(env)
        registered.version = register_environment(self.workspace, env._to_spec(), env.name, env.version)
        return registered

    def find(self, name, version, load):
        return None  # a workspace environment is a reference, resolved by ``resolve``

    def resolve(self, name, version, label):
        """(image, version) of a workspace environment; a missing one is v1's error, with the fix."""
        found = self.image(name, version, label)
        if found is None:
            shown = f"{name}:{version}" if version else f"{name}@{label or 'latest'}"
            raise UserErrorException(
                f"Environment.get(ws, {name!r}): no environment {shown} in workspace {self.workspace.name!r}. List "
                "them with Environment.list(ws) (az ml environment list), or register one with env.register(ws).")
        return found

    def names(self) -> list:
        from .assets import environment_names

        return environment_names(self.workspace)

    def image(self, name, version, label):
        """(image, version), or None when the workspace has no such environment."""
        from .assets import environment_image

        return environment_image(self.workspace, name, version, label)
