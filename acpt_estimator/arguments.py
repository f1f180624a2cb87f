"""v1 script_params/arguments -> argv tokens plus the data inputs and outputs they reference."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping

from .exceptions import UserErrorException
from .names import is_valid
from .spec import DataInput, DataOutput, InputRef, Literal, OutputRef

logger = logging.getLogger(__name__)



def is_data(item) -> bool:
    """A data object describes itself: ``to_input_spec()`` -> DataInput, ``to_output_spec()`` -> DataOutput
    (or None when the object is an input this time, e.g. a DataReference not in upload mode)."""
    return callable(getattr(item, "to_input_spec", None)) or callable(getattr(item, "to_output_spec", None))


def is_input(item) -> bool:
    return callable(getattr(item, "to_input_spec", None))


def data_spec(item) -> DataInput | DataOutput:
    """The neutral input or output spec a data object turns itself into."""
    to_output = getattr(item, "to_output_spec", None)
    spec = to_output() if callable(to_output) else None
    return spec if spec is not None else item.to_input_spec()


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
            items.extend(x if isinstance(x, (int, float, str)) or is_data(x) else str(x) for x in item)
        else:
            items.append(item)
    return [x for x in items if x is not None and not (isinstance(x, str) and x == "")]


def _is_expandable(value) -> bool:
    return isinstance(value, Iterable) and not isinstance(value, (str, bytes, Mapping)) and not is_data(value)


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
        if is_data(item):
            return self.add_data(item)
        if isinstance(item, bool) or isinstance(item, (int, float, str)):
            return Literal(str(item))
        raise UserErrorException(
            f"script_params value {item!r} of type {type(item).__name__} is not supported; use str, int, float, "
            "a list of those, or a data reference (ds.as_mount(), ds.path('p').as_download(), "
            "dataset.as_named_input('x').as_mount()).")

    def add_data(self, item):
        """Register a data object as an input (or output) and return the token that references it."""
        spec = data_spec(item)
        if isinstance(spec, DataOutput):
            self.outputs.setdefault(spec.name, spec)
            return OutputRef(spec.name)
        self._merge_input(spec)
        return InputRef(spec.name)

    def _merge_input(self, new: DataInput) -> None:
        old = self.inputs.get(new.name)
        if old is not None and old != new:
            raise UserErrorException(
                f"Data reference name {new.reference_name!r} is used for two different inputs ({old.uri} "
                f"[{old.mode}] and {new.uri} [{new.mode}]); give each a distinct data_reference_name.")
        self.inputs[new.name] = new


def warn_path_on_compute(name: str, path_on_compute) -> None:
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
        if not is_input(item):
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
