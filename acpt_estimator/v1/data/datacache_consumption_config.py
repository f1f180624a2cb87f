"""v1 ``azureml.data.datacache_consumption_config``: datacache (a v1 preview); refuses on use."""

from acpt_estimator.exceptions import UserErrorException  # noqa: F401
from acpt_estimator.v1._no_equivalent import define
from acpt_estimator.v1.data.constants import MOUNT_MODE  # noqa: F401

__all__ = sorted(define(globals()) + ["MOUNT_MODE", "UserErrorException"])
