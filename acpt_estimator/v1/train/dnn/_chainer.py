"""v1's ``Chainer`` estimator of ``azureml.train.dnn`` (kept off the v1 import line): refuses naming the replacement."""

from acpt_estimator.v1._no_equivalent import define

__all__ = define(globals())
