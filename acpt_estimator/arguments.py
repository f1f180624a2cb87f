"""v1 script_params/arguments -> argv tokens plus the data inputs and outputs they reference."""

from __future__ import annotations

import hashlib
import json
import logging
import re
import urllib.parse
from collections.abc import Iterable, Mapping

from acpt_estimator.v1.data.datapath import DataPath
from acpt_estimator.v1.data.data_reference import DataReference
from acpt_estimator.v1.data.dataset_consumption_config import DatasetConsumptionConfig
from acpt_estimator.v1.core.datastore import Datastore
from acpt_estimator.v1.data.abstract_dataset import AbstractDataset
from acpt_estimator.v1.data.output_dataset_config import OutputDatasetConfig
from acpt_estimator.datastore_paths import datastore_uri
from .exceptions import UserErrorException
from .names import is_valid, v2_name
from .spec import DataInput, DataOutput, InputRef, Literal, OutputRef

logger = logging.getLogger(__name__)

DATA_TYPES = (DataReference, Datastore, DataPath, DatasetConsumptionConfig, AbstractDataset, OutputDatasetConfig)
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
            items.extend(str(x) if not isinstance(x, (int, float, str) + DATA_TYPES) else x for x in item)
        else:
            items.append(item)
    return [x for x in items if x is not None and not (isinstance(x, str) and x == "")]


def _is_expandable(value) -> bool:
    return isinstance(value, Iterable) and not isinstance(value, (str, bytes, Mapping) + DATA_TYPES)


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
        if isinstance(item, DATA_TYPES):
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
        if isinstance(item, AbstractDataset):
            # v1 names a bare dataset input__<8hex>; a content hash keeps translations reproducible.
            key = json.dumps([item._definition(), item.name, item.version, [getattr(d, "name", None) for d, _ in
                                                                          item.paths]], sort_keys=True)
            item = item.as_named_input(f"input__{hashlib.sha256(key.encode()).hexdigest()[:8]}")
        if isinstance(item, DataReference):
            return self._add_reference(item)
        if isinstance(item, OutputDatasetConfig):
            return self._add_output(item)
        return self._add_dataset(item)

    def _add_reference(self, ref: DataReference):
        name = v2_input_name(ref.data_reference_name)
        _warn_path_on_compute(ref.data_reference_name, ref.path_on_compute)
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
        """One v2 input: the folder the dataset's paths share (or its data asset); the job gets the definition."""
        dataset = cfg.dataset
        if cfg.source_output is not None and "{run-id}" in cfg.source_output.destination[1]:
            raise UserErrorException(
                f"as_input: the destination {cfg.source_output.destination[1]!r} depends on the run id, which a later "
                "job cannot know; give OutputFileDatasetConfig a destination without {run-id}, or pass the output "
                "to the next step of a Pipeline (steps read the output their producer wrote).")
        mode = "direct" if dataset._kind == "tabular" else cfg.mode
        _warn_path_on_compute(cfg.name, cfg.path_on_compute)
        if dataset._kind == "file" and dataset._has_row_steps() and mode != "direct":
            raise UserErrorException(
                f"Input {cfg.name!r}: a file dataset with take/skip/sample steps cannot be mounted or downloaded "
                "(v2 inputs are whole folders). Pass dataset.as_named_input(name) (direct: the job gets the dataset "
                "and its steps), or the dataset without steps.")
        url = dataset._url()
        if url is not None:  # a web file: downloaded for the job (v2: a uri_file input of the URL)
            fields = {"mode": "download", "uri_type": "uri_file", "uri": url}
            relative, folder = [url.rsplit("/", 1)[-1]], urllib.parse.urlsplit(url).path.rsplit("/", 1)[0] + "/"
        else:
            datastore, folder, relative = dataset._base()
            # v2 has no "direct" mode for folders: the job reads mounted files (and the definition for datasets).
            fields = {"mode": "mount" if mode == "direct" else mode, "uri_type": "uri_folder",
                      "uri": f"azureml:{v2_name(dataset.name)}:{dataset.version}" if dataset.name else
                      datastore_uri(datastore.name, folder), "datastore": datastore.name, "path_on_datastore": folder}
        definition = dict(dataset._definition(relative), mode=mode, name=dataset.name, version=dataset.version,
                          id=dataset.id, root=folder)
        self._merge_input(DataInput(
            name=cfg.name, reference_name=cfg.name, kind="dataset", dataset_name=dataset.name,
            dataset_version=dataset.version, definition=json.dumps(definition, sort_keys=True), **fields))
        return InputRef(cfg.name)

    def _add_output(self, output: OutputDatasetConfig):
        datastore, path = output.destination
        registration = ""
        if output._registration is not None:
            reg = output._registration
            registration = json.dumps({"name": reg.name, "description": reg.description, "tags": reg.tags,
                                       "type": "tabular" if getattr(output, "transformations", ()) else "file",
                                       "transformations": list(getattr(output, "transformations", ())),
                                       "path_glob": getattr(output, "path_glob", "**")},
                                      sort_keys=True)
        store = datastore.name if datastore is not None else "workspaceblobstore"
        self.outputs.setdefault(output.name, DataOutput(
            name=output.name, reference_name=output.name, uri=datastore_uri(store, path), datastore=store,
            path_on_datastore=path, mode=output.mode, registration=registration,
            overwrite=getattr(output.options, "overwrite", False)))
        return OutputRef(output.name)

    def _merge_input(self, new: DataInput) -> None:
        old = self.inputs.get(new.name)
        if old is not None and old != new:
            raise UserErrorException(
                f"Data reference name {new.reference_name!r} is used for two different inputs ({old.uri} "
                f"[{old.mode}] and {new.uri} [{new.mode}]); give each a distinct data_reference_name.")
        self.inputs[new.name] = new


def _warn_path_on_compute(name: str, path_on_compute) -> None:
    if path_on_compute:
        logger.warning(
            "Input %r: path_on_compute=%r is not used: v2 jobs and local runs choose where an input is mounted or "
            "downloaded; the script gets that path in its argument and in $AZUREML_DATAREFERENCE_%s.",
            name, path_on_compute, name)


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
        if not isinstance(item, (DataReference, Datastore, DatasetConsumptionConfig, DataPath, AbstractDataset)):
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
