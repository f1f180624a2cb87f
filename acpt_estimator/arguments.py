"""v1 script_params/arguments -> argv tokens plus the data inputs and outputs they reference."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping

from acpt_estimator.v1.data.datapath import DataPath
from acpt_estimator.v1.data.data_reference import DataReference
from acpt_estimator.v1.data.dataset_consumption_config import DatasetConsumptionConfig
from acpt_estimator.v1.core.datastore import Datastore
from acpt_estimator.v1.data.file_dataset import FileDataset
from acpt_estimator.datastore_paths import datastore_uri, strip_glob
from .exceptions import UserErrorException
from .names import is_valid
from .spec import DataInput, DataOutput, InputRef, Literal, OutputRef

_DATA_TYPES = (DataReference, Datastore, DataPath, DatasetConsumptionConfig, FileDataset)
_MODES = {"mount": "mount", "download": "download", "direct": "direct"}


def flatten_script_params(script_params) -> list:
    """v1's ``_get_arguments``: dict order, iterables expanded, None and '' removed, numbers kept."""
    if script_params is None:
        return []
    if isinstance(script_params, Mapping):
        pairs = []
        for key, value in script_params.items():
            pairs.append(key)
            pairs.append(value)
    elif isinstance(script_params, (list, tuple)):
        pairs = list(script_params)
    else:
        raise UserErrorException(
            f"script_params={script_params!r} is a {type(script_params).__name__}; pass a dict "
            "({'--epochs': 10}) or a list (['--epochs', 10]).")
    items = []
    for item in pairs:
        if _is_expandable(item):
            items.extend(str(x) if not isinstance(x, (int, float, str) + _DATA_TYPES) else x for x in item)
        else:
            items.append(item)
    return [x for x in items if x is not None and not (isinstance(x, str) and x == "")]


def _is_expandable(value) -> bool:
    return isinstance(value, Iterable) and not isinstance(value, (str, bytes, Mapping) + _DATA_TYPES)


class ArgumentBuilder:
    """Collects argv tokens and the inputs/outputs they reference, merging repeats of one reference."""

    def __init__(self):
        self.tokens: list = []
        self.inputs: dict[str, DataInput] = {}
        self.outputs: dict[str, DataOutput] = {}

    def add_items(self, items) -> None:
        for item in items:
            self.tokens.append(self.token_for(item))

    def token_for(self, item):
        if isinstance(item, _DATA_TYPES):
            return self.add_data(item)
        if isinstance(item, bool) or isinstance(item, (int, float, str)):
            return Literal(str(item))
        raise UserErrorException(
            f"script_params value {item!r} of type {type(item).__name__} is not supported; use str, int, float, "
            "a list of those, or a data reference (ds.as_mount(), ds.path('p').as_download(), "
            "dataset.as_named_input('x').as_mount()).")

    def add_data(self, item):
        """Register a data object as an input (or output) and return the token that references it."""
        if isinstance(item, Datastore):
            item = DataReference(item, item.name, None, "mount")
        if isinstance(item, DataPath):
            item = item.create_data_reference()
        if isinstance(item, FileDataset):
            # v1 names a bare dataset input__<8hex>; a content hash keeps translations reproducible.
            item = item.as_named_input(f"input__{hashlib.sha256(item.uri().encode()).hexdigest()[:8]}")
        if isinstance(item, DataReference):
            return self._add_reference(item)
        return self._add_dataset(item)

    def _add_reference(self, ref: DataReference):
        name = v2_input_name(ref.data_reference_name)
        if ref.mode == "upload":
            self.outputs.setdefault(name, DataOutput(
                name=name, reference_name=ref.data_reference_name,
                uri=datastore_uri(ref.datastore.name, ref.path_on_datastore or ref.data_reference_name),
                datastore=ref.datastore.name, path_on_datastore=ref.path_on_datastore or ""))
            return OutputRef(name)
        path = ref.path_on_datastore or ""
        uri_type = guess_uri_type(path)
        uri = datastore_uri(ref.datastore.name, path if uri_type == "uri_file" or not path else path.rstrip("/") + "/")
        self._merge_input(DataInput(
            name=name, reference_name=ref.data_reference_name, kind="datastore", mode=_MODES[ref.mode],
            uri_type=uri_type, uri=uri, datastore=ref.datastore.name, path_on_datastore=path))
        return InputRef(name)

    def _add_dataset(self, cfg: DatasetConsumptionConfig):
        dataset = cfg.dataset
        datastore, path = (dataset.paths[0][0].name, dataset.paths[0][1]) if len(dataset.paths) == 1 else (None, "")
        self._merge_input(DataInput(
            name=cfg.name, reference_name=cfg.name, kind="dataset",
            # v2 has no "direct" file mode for uri_folder; the job reads the mounted files instead.
            mode="mount" if cfg.mode == "direct" else cfg.mode,
            uri_type=dataset.uri_type, uri=dataset.uri(), datastore=datastore,
            path_on_datastore=strip_glob(path) if dataset.uri_type == "uri_folder" else path,
            dataset_name=dataset.name, dataset_version=dataset.version))
        return InputRef(cfg.name)

    def _merge_input(self, new: DataInput) -> None:
        old = self.inputs.get(new.name)
        if old is not None and old != new:
            raise UserErrorException(
                f"Data reference name {new.reference_name!r} is used for two different inputs ({old.uri} "
                f"[{old.mode}] and {new.uri} [{new.mode}]); give each a distinct data_reference_name.")
        self.inputs[new.name] = new


def v2_input_name(reference_name: str) -> str:
    """v2 input names are identifiers; v1 names may be uuid hex starting with a digit."""
    if is_valid("identifier", reference_name):
        return reference_name
    return "input_" + re.sub(r"\W", "_", reference_name)


def guess_uri_type(path: str) -> str:
    """A datastore path whose last part has an extension is a file; everything else a folder."""
    last = path.rstrip("/").rsplit("/", 1)[-1] if path else ""
    return "uri_file" if path and not path.endswith("/") and "." in last.strip(".") else "uri_folder"


def build_arguments(script_params, inputs=None, extra_items=()):
    """Return (tokens, inputs, outputs) for an estimator's script_params and ``inputs=`` list."""
    builder = ArgumentBuilder()
    builder.add_items(flatten_script_params(script_params))
    builder.add_items(extra_items)
    for item in inputs or ():
        if not isinstance(item, (DataReference, Datastore, DatasetConsumptionConfig, DataPath, FileDataset)):
            raise UserErrorException(
                f"Type {type(item)} is not supported for inputs. inputs= takes DataReference, Datastore or "
                "DatasetConsumptionConfig objects (e.g. ds.as_mount(), dataset.as_named_input('x').as_mount()).")
        builder.add_data(item)
    return tuple(builder.tokens), tuple(builder.inputs.values()), tuple(builder.outputs.values())


# $VAR and ${VAR} inside literal arguments are expanded by the job (v1: by the job's shell).
VAR_REFERENCE = re.compile(r"\$(?:\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)\}|(?P<bare>[A-Za-z_][A-Za-z0-9_]*))")


def expand_vars(text: str, environ: Mapping[str, str]) -> str:
    """What bash makes of "$VAR"/"${VAR}" in ``text``: unset variables become empty, nothing else changes."""
    return VAR_REFERENCE.sub(lambda m: environ.get(m["braced"] or m["bare"], ""), text)
