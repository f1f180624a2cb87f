"""v1 ``azureml.data.datacache_singularity_settings``: datacache settings (refused) and v1's enums."""

from enum import Enum

from acpt_estimator.v1._no_equivalent import define


class SingularitySlaTier(Enum):
    """v1's Singularity SLA tiers (values kept)."""

    basic = "Basic"
    standard = "Standard"
    premium = "Premium"


class SingularityPriority(Enum):
    """v1's Singularity job priorities (values kept)."""

    low = "Low"
    medium = "Medium"
    high = "High"


__all__ = sorted(define(globals()) + ["SingularityPriority", "SingularitySlaTier"])
