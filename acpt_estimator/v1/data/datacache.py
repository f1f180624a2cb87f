"""v1 ``azureml.data.datacache``: datacache stores, a v1 preview that v2 dropped (refused)."""

from acpt_estimator.v1._refusal import refused
from acpt_estimator.v1.data.abstract_dataset import _NO_CACHE

__all__ = ["DatacacheStore"]


class DatacacheStore:
    """v1 ``DatacacheStore``: refused on use."""

    __init__ = refused("DatacacheStore", *_NO_CACHE)
    register = refused("DatacacheStore.register", *_NO_CACHE)
    get_by_name = refused("DatacacheStore.get_by_name", *_NO_CACHE)
    list = refused("DatacacheStore.list", *_NO_CACHE)
