"""v1 ``azureml.train.sklearn``: the scikit-learn estimator; refuses on use, naming the replacement."""

from acpt_estimator.v1._no_equivalent import define

__all__ = define(globals())
