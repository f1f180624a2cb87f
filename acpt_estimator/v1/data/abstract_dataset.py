"""v1 ``azureml.data.abstract_dataset``: what file and tabular datasets share (identity, registry, row steps)."""

from __future__ import annotations

import random

import attrs

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.v1._refusal import refused
from acpt_estimator.v1.data.dataset_consumption_config import DatasetConsumptionConfig
from acpt_estimator._lazy import lazy_names

__all__ = ["AbstractDataset"]

_NO_EXPRESSIONS = ("v1 filter expressions run on the Azure ML dataprep engine, which v2 does not have.",
                   "filter the pandas DataFrame (df[df['col'] > 5]), or an MLTable's filter() (azure-ai-ml/mltable)")
_NO_CACHE = ("Datacache stores are a v1 preview that v2 dropped.",
             "a v2 Input(mode='download') or ro_mount input of the data asset")


def _check_count(member: str, count) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise UserErrorException(f"{member}(count={count!r}): pass a whole number of rows/files >= 0.")
    return count


def _check_fraction(member: str, param: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise UserErrorException(f"{member}({param}={value!r}): pass a fraction between 0 and 1, e.g. 0.8.")
    return float(value)


class _Factory:
    """``Dataset.File`` / ``Dataset.Tabular`` on the class and its instances (imported late: they make datasets)."""

    def __init__(self, index: int):
        self.index = index

    def __get__(self, instance, owner=None):
        from acpt_estimator.v1.data.dataset_factory import FileDatasetFactory, TabularDatasetFactory

        return (FileDatasetFactory, TabularDatasetFactory)[self.index]


@attrs.define(eq=False)
class AbstractDataset:
    """Paths ((Datastore, path) pairs; datastore None for a local path in a job), v2-MLTable-style steps,
    and the registration this dataset came from (name, version, id)."""

    paths: tuple = ()
    transformations: tuple = ()
    name: str | None = None
    version: str | None = None
    workspace: object = None
    id: str | None = None
    description: str | None = None
    tags: dict = attrs.Factory(dict)
    input_root: tuple = ()  # in a job: (the input's local path, its datastore folder), for partition columns

    _kind = "file"
    File = _Factory(0)
    Tabular = _Factory(1)

    # ---- identity and the registry ----------------------------------------------------------------------
    @classmethod
    def get_by_name(cls, workspace, name, version="latest", **kwargs):
        from acpt_estimator.v1.data import _registry

        return _registry.get_by_name(workspace, name, version)

    @classmethod
    def get_by_id(cls, workspace, id, **kwargs):
        from acpt_estimator.v1.data import _registry

        return _registry.get_by_id(workspace, id)

    @classmethod
    def get_all(cls, workspace) -> dict:
        """{name: latest version} of every registered dataset, as v1's ``Dataset.get_all(ws)``."""
        from acpt_estimator.v1.data import _registry

        return _registry.get_all(workspace)

    def register(self, workspace, name, description=None, tags=None, create_new_version=False):
        """Register under ``name`` (a new version only with ``create_new_version=True`` when the definition differs)."""
        from acpt_estimator.v1.data import _registry

        return _registry.register(self, workspace, name, description, tags, create_new_version)

    def _registered(self, member: str):
        if not self.name or self.workspace is None:
            raise UserErrorException(f"dataset.{member}() works on registered datasets; register it first "
                                     "(dataset.register(ws, 'name')).")

    def update(self, description=None, tags=None):
        """Change the description and/or tags of this registered version; returns the updated dataset."""
        from acpt_estimator.v1.data import _registry

        self._registered("update")
        return _registry.update(self, description, tags)

    def add_tags(self, tags=None):
        return self.update(tags={**self.tags, **dict(tags or {})})

    def remove_tags(self, tags=None):
        drop = set(tags or ())
        return self.update(tags={k: v for k, v in self.tags.items() if k not in drop})

    def unregister_all_versions(self) -> None:
        from acpt_estimator.v1.data import _registry

        self._registered("unregister_all_versions")
        _registry.unregister(self)

    @property
    def data_changed_time(self):
        """When a file of the dataset last changed (UTC), from the files themselves."""
        import datetime
        import os

        from acpt_estimator.v1.data._files import fetch, list_files

        entries = list_files(self.paths)
        if not all(source[0] == "local" for source, _ in entries):
            from acpt_estimator.backends.azureml import data_ops

            datastore = next(source[1] for source, _ in entries if source[0] == "blob")
            return data_ops.last_modified(datastore.workspace, datastore.name, [s[2] for s, _ in entries])
        stamps = [os.path.getmtime(path) for path, _ in fetch(entries)]
        return datetime.datetime.fromtimestamp(max(stamps), tz=datetime.timezone.utc) if stamps else None

    def _partition_format(self):
        from acpt_estimator.job_runtime.acpt_datasets import partition_format_of

        return partition_format_of({"transformations": list(self.transformations)})

    @property
    def partition_keys(self) -> list:
        """The columns partition_format takes from the files' paths."""
        from acpt_estimator.job_runtime.acpt_datasets import partition_pattern

        found = self._partition_format()
        return list(partition_pattern(found)[1]) if found else []

    def get_partition_key_values(self, partition_keys=None) -> list:
        """The distinct values of the partition columns over the dataset's files, as v1: [{key: value}, ...]."""
        from acpt_estimator.job_runtime.acpt_datasets import partition_values, typed_partition_values
        from acpt_estimator.v1.data._files import full_path, list_files

        found = self._partition_format()
        keys = list(partition_keys or self.partition_keys)
        unknown = [k for k in keys if k not in self.partition_keys]
        if not found or unknown:
            raise UserErrorException(f"get_partition_key_values(partition_keys={partition_keys!r}): the dataset's "
                                     f"partition keys are {self.partition_keys} (from partition_format).")
        values = []
        for source, _ in list_files(self.paths):
            found_values = typed_partition_values(self._definition(), partition_values(
                found, full_path(source, self.input_root)))
            row = {k: v for k, v in found_values.items() if k in keys}
            if row not in values:
                values.append(row)
        return values

    # ---- consumption ------------------------------------------------------------------------------------
    def to_input_spec(self):
        """The engine's DataInput of the dataset consumed directly under a content-derived name."""
        from acpt_estimator.v1.data._specs import bare_dataset_input

        return bare_dataset_input(self)

    def as_named_input(self, name) -> DatasetConsumptionConfig:
        return DatasetConsumptionConfig(name, self)

    def _has_row_steps(self) -> bool:
        """Whether rows/files are selected (take, skip, samples, splits): v2 inputs are whole folders."""
        from acpt_estimator.job_runtime.acpt_datasets import ROW_STEPS

        return any(next(iter(step)) in ROW_STEPS for step in self.transformations)

    def _step(self, step: dict):
        return attrs.evolve(self, transformations=self.transformations + (step,), name=None, version=None, id=None)

    def take(self, count):
        return self._step({"take": _check_count("take", count)})

    def skip(self, count):
        return self._step({"skip": _check_count("skip", count)})

    def take_sample(self, probability, seed=None):
        probability = _check_fraction("take_sample", "probability", probability)
        return self._step({"take_random_sample": {"probability": probability,
                                                  "seed": seed if seed is not None else random.randrange(2 ** 31)}})

    def random_split(self, percentage, seed=None):
        """Two datasets: about ``percentage`` of the rows/files, and the rest (the same seed: the same split)."""
        percentage = _check_fraction("random_split", "percentage", percentage)
        seed = seed if seed is not None else random.randrange(2 ** 31)
        return tuple(self._step({"random_split": {"percentage": percentage, "seed": seed, "part": part}})
                     for part in (0, 1))

    def __getitem__(self, key):
        """``dataset['column']``: a column to compare in ``filter`` (v1's dataset column indexer)."""
        from acpt_estimator.v1.data._expressions import ColumnExpression

        if not isinstance(key, str):
            raise UserErrorException(f"dataset[{key!r}]: index a dataset by a column name.")
        return ColumnExpression(key)

    def filter(self, expression):
        """Keep the rows (tabular) or files (file datasets: partition columns) the expression matches, e.g.
        ``ds.filter((ds['Store'] == 2) & (ds['Brand'] != 'dominicks'))``."""
        from acpt_estimator.v1.data._expressions import check

        return self._step({"filter": check(expression)})

    # ---- how a job sees it ------------------------------------------------------------------------------
    def _url(self) -> str | None:
        """The web file this dataset reads, if it reads one (v2: a uri_file input or asset of that URL)."""
        from acpt_estimator.datastore_paths import is_url

        urls = [p for d, p in self.paths if d is None and is_url(p)]
        if urls and (len(urls) > 1 or len(self.paths) > 1):
            raise UserErrorException(
                f"A dataset of {len(self.paths)} paths with web URLs cannot be one job input or data asset; make "
                "one dataset per URL, or upload the files to a datastore.")
        return urls[0] if urls else None

    def _base(self) -> tuple:
        """(datastore, folder) all paths share, and the paths relative to it: one v2 input for the job."""
        if not self.paths:
            raise UserErrorException("This dataset has no paths; make it with Dataset.File.from_files or "
                                     "Dataset.Tabular.from_delimited_files(path=(ds, 'folder/*.csv')).")
        stores = {id(d) if d is not None else None for d, _ in self.paths}
        names = {getattr(d, "name", None) for d, _ in self.paths}
        if len(names) != 1 or (None in names and len(stores) != 1):
            raise UserErrorException(
                "A dataset whose paths are on different datastores cannot be one job input; pass one dataset per "
                "datastore.")
        folders = [_folder_of(p.lstrip("/")) for _, p in self.paths]
        common = folders[0]
        for folder in folders[1:]:
            while not folder.startswith(common):
                common = common.rstrip("/").rsplit("/", 1)[0] + "/" if "/" in common.rstrip("/") else ""
        return self.paths[0][0], common, [p.lstrip("/")[len(common):] for _, p in self.paths]

    def _definition(self, relative=None) -> dict:
        """The definition a job gets (paths relative to its input folder)."""
        return {"type": self._kind, "paths": list(relative if relative is not None else [p for _, p in self.paths]),
                "transformations": list(self.transformations)}

    def __repr__(self) -> str:
        import json

        shown = {"source": [f"('{d.name}', '{p}')" if d is not None else p for d, p in self.paths],
                 "definition": [next(iter(s)) for s in self.transformations]}
        if self.name:
            shown["registration"] = {"id": self.id, "name": self.name, "version": self.version,
                                     "description": self.description, "tags": self.tags}
        return f"{type(self).__name__}\n{json.dumps(shown, indent=2)}"

    __str__ = __repr__


def _folder_of(path: str) -> str:
    """The folder a v1 path lives in: a glob's base, a folder itself, or a file's parent."""
    from acpt_estimator.arguments import guess_uri_type
    from acpt_estimator.job_runtime.acpt_datasets import split_glob

    base, pattern = split_glob(path)
    if pattern is not None or guess_uri_type(path) == "uri_folder":
        return base.rstrip("/") + "/" if base.strip("/") else ""
    return path.rsplit("/", 1)[0] + "/" if "/" in path else ""


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["RunEnvironmentException", "UserErrorException"], "acpt_estimator.exceptions"),
    **dict.fromkeys(["FileDatasetFactory", "TabularDatasetFactory"], "acpt_estimator.v1.data.dataset_factory"),
    "DatasetConsumptionConfig": "acpt_estimator.v1.data.dataset_consumption_config",
})
