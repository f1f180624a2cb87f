"""v1's attach and update configurations of ``azureml.core.compute.compute`` (kept off the v1 import line)."""

from acpt_estimator.v1._no_equivalent import define

__all__ = define(globals())
