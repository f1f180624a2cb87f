"""v1 ``azureml.core.profile``: model profiling for deployment; refuses on use (v1's limits kept as constants)."""

from acpt_estimator.exceptions import UserErrorException, WebserviceException  # noqa: F401
from acpt_estimator.v1._no_equivalent import define

# v1's limits of profiled CPU cores and memory (GB), values kept.
MIN_PROFILE_CPU, MAX_PROFILE_CPU, MIN_PROFILE_MEMORY, MAX_PROFILE_MEMORY = 0.1, 3.5, 0.1, 15.0
__all__ = sorted(define(globals()) + ["MAX_PROFILE_CPU", "MAX_PROFILE_MEMORY", "MIN_PROFILE_CPU", "MIN_PROFILE_MEMORY",
                                      "UserErrorException", "WebserviceException"])
