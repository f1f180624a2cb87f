"""v1 ``azureml.core.compute_target``: the legacy target classes (``LocalTarget``) and their helper functions."""

from acpt_estimator.exceptions import ComputeTargetException
from acpt_estimator.v1._refusal import refuse
from acpt_estimator._lazy import lazy_names

_LEGACY_WHY = "v1's legacy (run-configuration based) compute targets were retired; v2 jobs name their compute."
_LEGACY_V2 = ("a compute name in the job (ComputeTarget(ws, name), command(compute=...)); attach VMs with "
              "ml_client.compute.begin_attach")


class AbstractComputeTarget:
    """v1's base of the legacy targets: a ``name`` and a ``type``."""

    _TARGET_TYPE = None

    def __init__(self, compute_target_type, name):
        self.type = compute_target_type
        self.name = name

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, type={self.type!r})"


class LocalTarget(AbstractComputeTarget):
    """v1 ``LocalTarget()``: run on this machine; ``compute_target=LocalTarget()`` means a local run."""

    _TARGET_TYPE = "local"

    def __init__(self):
        super().__init__(self._TARGET_TYPE, "local")


def prepare_compute_target(experiment, source_directory, run_config):
    refuse("prepare_compute_target", _LEGACY_WHY, _LEGACY_V2)


def is_compute_target_prepared(experiment, source_directory, run_config):
    refuse("is_compute_target_prepared", _LEGACY_WHY, _LEGACY_V2)


def attach_legacy_compute_target(experiment, source_directory, compute_target):
    refuse("attach_legacy_compute_target", _LEGACY_WHY, _LEGACY_V2)


def remove_legacy_compute_target(experiment, source_directory, compute_target_name):
    refuse("remove_legacy_compute_target", _LEGACY_WHY, _LEGACY_V2)


__all__ = sorted(["AbstractComputeTarget", "ComputeTargetException", "LocalTarget", "attach_legacy_compute_target",
                  "is_compute_target_prepared", "prepare_compute_target", "remove_legacy_compute_target"])


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    "UserErrorException": "acpt_estimator.exceptions",
})
