"""v1 ``azureml.data.datacache``: datacache stores, a v1 preview that v2 dropped (refused)."""

from acpt_estimator.v1._refusal import refused, refused_class
from acpt_estimator.v1.data.abstract_dataset import _NO_CACHE
from acpt_estimator._lazy import lazy_names

__all__ = ["DatacacheHydrationTracker", "DatacacheStore"]
DatacacheHydrationTracker = refused_class("DatacacheHydrationTracker", *_NO_CACHE, module=__name__)


class DatacacheStore:
    """v1 ``DatacacheStore``: refused on use."""

    __init__ = refused("DatacacheStore", *_NO_CACHE)
    register = refused("DatacacheStore.register", *_NO_CACHE)
    get_by_name = refused("DatacacheStore.get_by_name", *_NO_CACHE)
    list = refused("DatacacheStore.list", *_NO_CACHE)


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["AzureMLException", "UserErrorException"], "acpt_estimator.exceptions"),
    "Datastore": "acpt_estimator.v1.core.datastore",
    "Run": "acpt_estimator.v1.core.run",
})
