"""v1 ``azureml.data.dataset_action_run``: dataset actions; refuses on use, naming the replacement."""

from acpt_estimator.v1._no_equivalent import define

__all__ = define(globals())
