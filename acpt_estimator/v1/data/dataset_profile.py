"""v1 ``azureml.data.dataset_profile``: dataset profiles; refuses on use, naming the replacement."""

from acpt_estimator.v1._no_equivalent import define

__all__ = define(globals())
