"""v1 ``azureml.data``: dataset, data path and output dataset objects; names resolve on first use (PEP 562).

Each data object turns itself into the engine's DataInput/DataOutput (``to_input_spec()``/``to_output_spec()``,
built in ``_specs.py``). May import the engine and backends; never imported by them.

Importing one submodule (``azureml.data.datapath``, as the estimator does) runs this file: it must not load them all.
"""

from acpt_estimator._lazy import lazy_names

_LAZY = {
    "DataReference": "data_reference", "DataType": "dataset_factory", "DatacacheStore": "datacache",
    "FileDataset": "file_dataset", "HDFSOutputDatasetConfig": "output_dataset_config",
    "LinkFileOutputDatasetConfig": "output_dataset_config", "LinkTabularOutputDatasetConfig": "output_dataset_config",
    "OutputFileDatasetConfig": "output_dataset_config", "TabularDataset": "tabular_dataset",
}


__getattr__, __dir__ = lazy_names(__name__, _LAZY, shown_as="azureml.data")
__all__ = sorted(_LAZY)
