"""v1 ``azureml.data``: dataset, data path and output dataset objects; names resolve on first use (PEP 562).

Importing one submodule (``azureml.data.datapath``, as the estimator does) runs this file: it must not load them all.
"""

import importlib

_LAZY = {
    "DataReference": "data_reference", "DataType": "dataset_factory", "DatacacheStore": "datacache",
    "FileDataset": "file_dataset", "HDFSOutputDatasetConfig": "output_dataset_config",
    "LinkFileOutputDatasetConfig": "output_dataset_config", "LinkTabularOutputDatasetConfig": "output_dataset_config",
    "OutputFileDatasetConfig": "output_dataset_config", "TabularDataset": "tabular_dataset",
}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'azureml.data' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


__all__ = sorted(_LAZY)
