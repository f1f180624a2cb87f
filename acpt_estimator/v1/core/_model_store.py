"""Where v1 ``Model`` records live: the workspace's models service (``acpt_estimator.services``), local or cloud.

Both give the same record (a dict of v1's fields, ``version`` an int), so ``Model`` behaves the same in both.
"""

from __future__ import annotations

from acpt_estimator.backends.azureml.model_records import model_record as from_v2  # noqa: F401
from acpt_estimator.backends.azureml.model_records import model_version as _version  # noqa: F401 - model.py uses it
from acpt_estimator.services import services_for


def store(workspace):
    """The models service of ``workspace``: the local registry, or the workspace's v2 model assets."""
    return services_for(workspace).models
