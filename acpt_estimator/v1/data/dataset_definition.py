"""v1 ``azureml.data.dataset_definition``: dataprep ``Dataflow``; refuses on use, naming mltable/pandas."""

from acpt_estimator.v1._no_equivalent import define

__all__ = define(globals())
