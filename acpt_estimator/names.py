"""v1's name rules, checked with ``fullmatch`` (``re.match(...$)`` accepts a trailing newline), and run ids."""

from __future__ import annotations

import re
import time
import uuid

from .exceptions import UserErrorException

_DOTTED = "1-255 characters: letters, digits, '-', '_' and '.', starting with a letter or digit"
_WORD = "1-255 characters: letters, digits and '_'"
# kind -> (rule, what it allows, an example). Every name here becomes a folder, a REST path segment or a shell word.
RULES = {
    "experiment": (r"[a-zA-Z0-9][\w\-]{0,254}", "1-255 characters: letters, digits, '-' and '_', starting with "
                   "a letter or digit; no whitespace", "my-experiment"),
    "datastore": (r"[a-zA-Z0-9_]{1,255}", _WORD, "my_datastore"),
    # data_reference_name: scripts read $AZUREML_DATAREFERENCE_<name>, so it must extend a shell identifier.
    "reference": (r"[a-zA-Z0-9_]{1,255}", _WORD, "train_data"),
    "dataset": (r"[a-zA-Z0-9][\w\-.]{0,254}", _DOTTED, "my-dataset"),
    "model": (r"[a-zA-Z0-9][a-zA-Z0-9\-_.]{0,254}", _DOTTED, "my-model"),
    "run": (r"[a-zA-Z0-9][\w\-.]{0,254}", _DOTTED, "my-experiment_1700000000_0123abcd"),
    # v2 input/output names: ${{inputs.<name>}} and AZURE_ML_INPUT_<name> want identifiers.
    "identifier": (r"[A-Za-z_][A-Za-z0-9_]{0,254}", "letters, digits and '_', not starting with a digit", "train"),
}
_COMPILED = {kind: re.compile(rule[0], re.ASCII) for kind, rule in RULES.items()}
_UNDERSCORED = ("datastore", "reference", "identifier")
_EXPERIMENT_IN_RUN_ID = 230  # <experiment>_<10 digits>_<8 hex> stays within a 255-byte file name


def is_valid(kind: str, name) -> bool:
    return isinstance(name, str) and _COMPILED[kind].fullmatch(name) is not None


def check(kind: str, name, *, parameter: str) -> str:
    """``name`` if it follows the ``kind`` rule; else a UserErrorException naming parameter, value and fix."""
    if not is_valid(kind, name):
        raise UserErrorException(
            f"{parameter}={name!r} is not a valid {kind} name: use {RULES[kind][1]}. For example "
            f"{parameter}={suggest(kind, name)!r}.")
    return name


def suggest(kind: str, name) -> str:
    """A valid name close to ``name`` (invalid characters replaced), else the rule's example."""
    dotted = kind in ("dataset", "model", "run")
    text = re.sub(r"[^A-Za-z0-9_\-.]" if dotted else r"[^A-Za-z0-9_\-]", "_" if kind in _UNDERSCORED else "-",
                  str(name or ""))
    if kind in _UNDERSCORED:
        text = text.replace("-", "_")
    else:
        text = text.lstrip("-_.")
    if kind == "identifier" and text[:1].isdigit():
        text = "_" + text
    text = text[:255]
    return text if is_valid(kind, text) else RULES[kind][2]


def new_run_id(experiment_name: str) -> str:
    """v1's run id, ``<experiment>_<unix time>_<8 hex>``; a long experiment name is cut so the id stays a
    valid file name and v2 job name (at most 255 characters)."""
    return f"{experiment_name[:_EXPERIMENT_IN_RUN_ID]}_{int(time.time())}_{uuid.uuid4().hex[:8]}"
