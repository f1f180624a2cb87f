"""v1 ``azureml.data.abstract_datastore``: the base of every datastore class, which is ``Datastore`` here."""

from acpt_estimator.v1.core.datastore import Datastore as AbstractDatastore  # noqa: F401


__all__ = ["AbstractDatastore"]
