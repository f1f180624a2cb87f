"""v1 ``azureml.train.hyperdrive.error_strings``: internal message templates; refuses on use."""

from acpt_estimator.v1._no_equivalent import define

__all__ = define(globals())
