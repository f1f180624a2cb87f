"""v1's own name rules (what v1 accepted and refused, and with which exception), storage keys, v2 names, run ids."""

from __future__ import annotations

import os
import re
import time

from .exceptions import UserErrorException, WebserviceException

_DOTTED = "1-255 characters: letters, digits, '-', '_' and '.', starting with a letter or digit"
_WORD = "1-255 characters: letters, digits and '_'"
_ANY = "any text without control characters (a newline, a tab, NUL)"
# kind -> (rule, what it allows, an example, v1's exception class). Rules are v1's: azureml-core's own checks
# (experiment: _base_sdk_common.common._valid_experiment_name, `\w` being Unicode there; model:
# _model_management._util.model_name_validation, raising WebserviceException), the documented service rule where the
# SDK checked nothing (datastore: "alphanumeric characters and _"), and no rule where neither had one (dataset,
# environment: v1 sent any string; we refuse only control characters, which no name shown in a list can hold).
# Containment never comes from these rules: names become folder names through storage_key().
RULES = {
    "experiment": (r"[a-zA-Z0-9][\w\-]{0,254}", "1-255 characters: letters, digits, '-' and '_', starting with "
                   "a letter or digit; no whitespace", "my-experiment", UserErrorException),
    "datastore": (r"[a-zA-Z0-9_]{1,255}", _WORD, "my_datastore", UserErrorException),
    # data_reference_name: scripts read $AZUREML_DATAREFERENCE_<name>, so it must extend a shell identifier.
    "reference": (r"[a-zA-Z0-9_]{1,255}", _WORD, "train_data", UserErrorException),
    "dataset": (r"[^\x00-\x1f\x7f-\x9f]+", _ANY, "my dataset", UserErrorException),
    "environment": (r"[^\x00-\x1f\x7f-\x9f]+", _ANY, "my-environment", UserErrorException),
    "model": (r"[a-zA-Z0-9][a-zA-Z0-9\-_.]{0,254}", _DOTTED, "my-model", WebserviceException),
    "run": (r"[a-zA-Z0-9][\w\-.]{0,254}", _DOTTED, "my-experiment_1700000000_0123abcd", UserErrorException),
    # v2 input/output names: ${{inputs.<name>}} and AZURE_ML_INPUT_<name> want identifiers.
    "identifier": (r"[A-Za-z_][A-Za-z0-9_]{0,254}", "letters, digits and '_', not starting with a digit", "train",
                   UserErrorException),
}
_ASCII = {"datastore", "reference", "model", "run", "identifier"}
_COMPILED = {kind: re.compile(rule[0], re.ASCII if kind in _ASCII else 0) for kind, rule in RULES.items()}
_UNDERSCORED = ("datastore", "reference", "identifier")
_EXPERIMENT_IN_RUN_ID = 230  # <experiment>_<10 digits>_<8 hex> stays within a 255-byte file name


def is_valid(kind: str, name) -> bool:
    return isinstance(name, str) and _COMPILED[kind].fullmatch(name) is not None


def check(kind: str, name, *, parameter: str) -> str:
    """``name`` if v1 accepted it for ``kind``; else v1's exception class naming parameter, value and fix."""
    if not is_valid(kind, name):
        raise RULES[kind][3](
            f"{parameter}={name!r} is not a valid {kind} name: use {RULES[kind][1]}. For example "
            f"{parameter}={suggest(kind, name)!r}.")
    return name


def suggest(kind: str, name) -> str:
    """A valid name close to ``name`` (invalid characters replaced), else the rule's example."""
    if kind in ("dataset", "environment"):
        text = re.sub(r"[\x00-\x1f\x7f-\x9f]+", " ", str(name or "")).strip()
        return text if is_valid(kind, text) else RULES[kind][2]
    dotted = kind in ("model", "run")
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


# ---- names as folder names ----------------------------------------------------------------------------------
# A name that is already a plain file name (every name the older, stricter rules allowed) is its own key, so
# stores written before read unchanged. Any other name is percent-encoded (UTF-8), which can never give '/', '.'
# or '..', nor collide with a plain name (plain names hold no '%'); one too long for a file name is cut and
# ends in '~' and a hash of the whole name (plain and encoded keys hold no '~').
_PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_\-.]*", re.ASCII)
_KEEP = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_MAX_KEY = 255  # bytes in a file name on Linux file systems


def check_workspace(subscription_id, resource_group, workspace_name) -> None:
    """A workspace's three identifying fields, each a non-empty string (before anything is sent to Azure)."""
    for param, value in (("subscription_id", subscription_id), ("resource_group", resource_group),
                         ("workspace_name", workspace_name)):
        if not value or not isinstance(value, str):
            raise UserErrorException(f"Workspace {param}={value!r} is missing; pass the value shown in the "
                                     "Azure ML studio's workspace overview (or use Workspace.from_config()).")


def storage_key(name: str, room: int = _MAX_KEY) -> str:
    """The file name that stands for ``name`` (``room``: bytes it may take, less for 'x.json' files)."""
    if _PLAIN.fullmatch(name) and len(name) <= room:
        return name
    key = "".join(ch if ch in _KEEP else "".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass"))
                  for ch in name)
    if len(key) > room:
        import hashlib  # imported where used, as below: every rank imports this module (Run), few need it

        digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:20]
        cut = key[:room - len(digest) - 1]
        if "%" in cut[-2:]:  # never half a %XX
            cut = cut[:cut.rindex("%")]
        key = f"{cut}~{digest}"
    return key


def name_of_key(key: str) -> str:
    """The name a key stands for (a cut, hashed key gives its readable start: read the record for the name)."""
    import urllib.parse  # (here: with ipaddress it costs every importer ~1.5 ms, ranks included)

    return urllib.parse.unquote(key.split("~", 1)[0], errors="surrogatepass")


# ---- v1 names as v2 asset names -----------------------------------------------------------------------------
V1_NAME_TAG = "azureml.v1_name"  # a property of a v2 asset registered under a mapped name: its v1 name
_V2 = re.compile(r"[a-zA-Z0-9][a-zA-Z0-9\-_.]{0,254}", re.ASCII)
_warned: set = set()


def v2_name(name: str) -> str:
    """The v2 asset name for a v1 name: itself when v2 allows it, else a readable form with a hash of the v1
    name (deterministic, so the asset is found again by its v1 name, and two v1 names never share one)."""
    if _V2.fullmatch(name):
        return name
    import hashlib

    readable = re.sub(r"[^a-zA-Z0-9\-_.]+", "-", name).strip("-_.")[:200] or "asset"
    return f"{readable}-{hashlib.sha256(name.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"


def announce_v2_name(kind: str, name: str) -> str:
    """``v2_name(name)``, warning once per name when it differs (v2 shows the asset under that name)."""
    mapped = v2_name(name)
    if mapped != name and (kind, name) not in _warned:
        _warned.add((kind, name))
        import warnings

        warnings.warn(f"{kind} name {name!r} is not a valid Azure ML v2 asset name; it is registered as {mapped!r} "
                      f"(property {V1_NAME_TAG!r} holds the v1 name) and found again by its v1 name.", stacklevel=3)
    return mapped


_NOT_IN_RUN_ID = re.compile(r"[^A-Za-z0-9_\-]")


def new_run_id(experiment_name: str) -> str:
    """v1's run id, ``<experiment>_<unix time>_<8 hex>``; a long experiment name is cut so the id stays a
    valid file name and v2 job name (at most 255 characters, ASCII)."""
    # v1 experiment names may hold non-ASCII letters; v2 job names may not, so those become '_' here. The 8 hex
    # digits are uuid4's first 32 random bits without the UUID object (~20 us of each local launch, cold).
    prefix = _NOT_IN_RUN_ID.sub("_", experiment_name[:_EXPERIMENT_IN_RUN_ID])
    return f"{prefix}_{int(time.time())}_{os.urandom(4).hex()}"
