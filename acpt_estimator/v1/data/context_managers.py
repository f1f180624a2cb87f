"""v1 ``azureml.data.context_managers``: v1's job-side mounting; refuses on use, naming v2 job inputs."""

import re

from acpt_estimator.exceptions import UserErrorException  # noqa: F401
from acpt_estimator.v1._no_equivalent import define

http_pattern = re.compile("^https?://", re.IGNORECASE)  # v1: what a dataset path given as a URL starts with
__all__ = sorted(define(globals()) + ["UserErrorException", "http_pattern"])
