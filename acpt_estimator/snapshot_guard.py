"""Checks before a source directory becomes a job's snapshot (local copy or cloud upload): no obvious secrets
(by name and by content), no links leading outside it; for uploads also v1's size/file-count limits."""

from __future__ import annotations

import fnmatch
import json
import os
import time

from .exceptions import ExperimentExecutionException, SnapshotException
from .paths import file_identity
from .secret_content import find_in_file, read_regular
from .snapshot import DANGLING, IGNORE_FILES, ignore_spec, list_snapshot, local_store_inside

MAX_SNAPSHOT_BYTES = 300 * 1024 * 1024  # v1 SNAPSHOT_MAX_SIZE_BYTES
MAX_SNAPSHOT_FILES = 2000  # v1 SNAPSHOT_MAX_FILES
NO_FILE_LIMIT_VAR = "AML_SNAPSHOT_NO_FILE_LIMIT"
ALLOW_SECRETS_VAR = "ACPT_ESTIMATOR_ALLOW_SECRETS"

_ENV_TEMPLATES = (".example", ".sample", ".template", ".dist", ".defaults")
_SSH_KEYS = ("id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk")
_KEY_SUFFIXES = (".pem", ".key", ".ppk", ".p8")
_KEY_STORES = (".pfx", ".p12")
_CLOUD_FILES = {  # path patterns (relative, POSIX) -> what they are
    ".aws/credentials": "AWS credentials file", "*/.aws/credentials": "AWS credentials file",
    ".azure/accessTokens.json": "Azure CLI token cache", "*/.azure/accessTokens.json": "Azure CLI token cache",
    ".azure/msal_token_cache.*": "Azure CLI token cache", "*/.azure/msal_token_cache.*": "Azure CLI token cache",
    ".azure/service_principal_entries.*": "Azure CLI service principal secrets",
    "*application_default_credentials.json": "Google Cloud credentials", ".netrc": "netrc login file",
    "*/.netrc": "netrc login file", ".git-credentials": "git credentials", "*/.git-credentials": "git credentials",
    ".pypirc": "PyPI upload credentials", ".docker/config.json": "Docker registry credentials",
    ".kube/config": "Kubernetes credentials",
}
_SECRET_JSON_KEYS = {"client_secret", "clientsecret", "service_principal_password", "password", "secret",
                     "account_key", "accountkey", "access_key", "secret_access_key", "sas_token",
                     "connection_string", "private_key", "api_key", "token"}
_CONFIG_JSON = {"config.json", "project.json"}
_PRIVATE_KEY_MARK = b"PRIVATE KEY-----"
_SCAN_BYTES = 256 * 1024


def check_snapshot(source_directory: str, upload: bool = True, entry_script: str | None = None) -> list[str]:
    """The snapshot's file list (the one a local run copies and an upload sends), after refusing what it must not
    hold: files that are not regular files or folders, links leading outside, secrets, more than v1's limits,
    and (for an ``upload``) the local run store. ``entry_script`` must be one of its files."""
    listing = list_snapshot(source_directory)
    dangling = [what for _, what in listing.refused if what.startswith(DANGLING)]
    if dangling:  # as v1's snapshot failed on one: an execution error naming the link
        raise ExperimentExecutionException(
            f"source_directory holds a {'; '.join(dangling[:5])}. Remove the link, point it at an existing file, "
            f"or list it in {_ignore_file_hint(source_directory)}.")
    if listing.refused:
        named = "\n".join(f"  - {rel}: {what}" for rel, what in listing.refused[:20])
        raise SnapshotException(
            f"source_directory={source_directory!r} holds entries that are not regular files or folders, which a "
            f"snapshot never opens or copies:\n{named}\nRemove them, or list them in "
            f"{_ignore_file_hint(source_directory)}.")
    if listing.outside:
        ignore = _ignore_file_hint(source_directory)
        folders = [rel for rel in listing.outside if os.path.isdir(os.path.join(source_directory, rel))]
        fix = (f" Links to folders cannot be ignored ({folders[:10]}): the upload follows them whatever {ignore} says; "
               "remove them." if folders else "")
        raise SnapshotException(
            f"source_directory={source_directory!r} holds symbolic links that lead outside it: {listing.outside[:10]}. "
            "A job's snapshot never follows them (an upload would copy whatever they point at, keys included). "
            f"Copy the files into source_directory, or list the links in {ignore}.{fix}")
    files = listing.files
    if entry_script is not None:
        _check_entry_script(source_directory, entry_script, files)
    if os.environ.get(ALLOW_SECRETS_VAR, "").strip().lower() not in ("1", "true", "yes"):
        found = find_secrets(source_directory, files)
        if found:
            raise SnapshotException(_secrets_message(source_directory, found))
    # (Only an upload asks where the store is, and which ignore file says what: a local run's launch waits on this.)
    store = local_store_inside(source_directory) if upload else None
    if store is not None and os.path.isdir(os.path.join(source_directory, store)) and not (
            (spec := ignore_spec(source_directory)) is not None and spec.match_file(store)):
        # The SDK uploads the folder itself and would carry every earlier local run along.
        raise SnapshotException(
            f"source_directory {source_directory!r} contains the local run store {store!r} (earlier local runs, "
            f"models and datastores), which would be uploaded with the code. Add the line '{store}' to "
            f"{_ignore_file_hint(source_directory)}, or set ACPT_ESTIMATOR_HOME to a folder outside the project.")
    check_limits(source_directory, files, listing.total_bytes)
    return files


def _check_entry_script(source_directory: str, entry_script: str, files: list[str]) -> None:
    rel = os.path.normpath(entry_script).replace(os.sep, "/")
    if rel in files:
        return
    path = os.path.join(source_directory, entry_script)
    ignore = _ignore_file_hint(source_directory)
    why = (f"it is left out by {ignore}" if os.path.isfile(path) else "there is no such file")
    raise SnapshotException(
        f"entry_script={entry_script!r} is not in the snapshot of source_directory={source_directory!r} ({why}), so "
        f"the job would start and fail. Put the script there, fix the name, or remove its pattern from {ignore}.")


def check_limits(source_directory: str, files: list[str], total: int | None = None) -> None:
    """v1's limits on every snapshot, local copies included: 300 MB (apparent size) and 2000 files."""
    if total is None:
        total = sum(os.path.getsize(os.path.join(source_directory, rel)) for rel in files)
    if total > MAX_SNAPSHOT_BYTES:
        ignore = _ignore_file_hint(source_directory)
        raise SnapshotException(
            f"====================================================================\n"
            f"While attempting to take snapshot of {source_directory}\n"
            f"Your total snapshot size exceeds the limit of {MAX_SNAPSHOT_BYTES / (1024 * 1024)} MB "
            f"({total / (1024 * 1024):.1f} MB in {len(files)} files).\n"
            f"Please see http://aka.ms/aml-largefiles on how to work with large files: move data out of "
            f"source_directory (read it through a Datastore/Dataset input instead) or list it in {ignore}.\n"
            f"====================================================================")
    if len(files) > MAX_SNAPSHOT_FILES and not os.environ.get(NO_FILE_LIMIT_VAR):
        ignore = _ignore_file_hint(source_directory)
        raise SnapshotException(
            f"====================================================================\n"
            f"While attempting to take snapshot of {source_directory}\n"
            f"Your project exceeds the file limit of {MAX_SNAPSHOT_FILES} ({len(files)} files). List data and "
            f"generated files in {ignore}, or set {NO_FILE_LIMIT_VAR}=1 to upload them anyway.\n"
            f"====================================================================")


def find_secrets(source_directory: str, files: list[str]) -> list[tuple[str, str]]:
    """(relative path, what it looks like) for each file that is an obvious secret. Contents are never returned."""
    found = []
    root = os.path.abspath(source_directory)
    for rel in files:
        reason = _verdict(root, rel)
        if reason:
            found.append((rel, reason))
    return found


# Verdicts of files scanned before in this process, for resubmissions of an unchanged folder (sweeps, pipelines,
# notebooks): (folder, path) -> (identity, verdict). The identity is the file's device, inode, size, mtime and
# ctime: writing a file changes its ctime, which no one can set back (utime moves mtime only).
_verdicts: dict = {}
_MAX_VERDICTS = 50_000
# A file changed within this many seconds of its scan is scanned again next time: timestamps are taken from a clock
# that only advances every few milliseconds, so two writes close together can leave the same mtime and ctime.
RACY_SECONDS = 2.0


def _verdict(root: str, rel: str) -> str | None:
    path = os.path.join(root, rel)
    try:
        before = file_identity(path)
    except OSError:
        return _classify(root, rel)
    cached = _verdicts.get((root, rel))
    if cached is not None and cached[0] == before:
        return cached[1]
    reason = _classify(root, rel)
    try:
        after = file_identity(path)
    except OSError:
        return reason
    if after == before and time.time_ns() - max(before[3], before[4]) > RACY_SECONDS * 1e9:
        if len(_verdicts) >= _MAX_VERDICTS:
            _verdicts.clear()
        _verdicts[(root, rel)] = (before, reason)
    return reason


def _classify(root: str, rel: str) -> str | None:
    name = rel.rsplit("/", 1)[-1]
    lower = name.lower()
    if lower == ".env" or (lower.startswith(".env.") and not lower.endswith(_ENV_TEMPLATES)) or lower.endswith(".env"):
        return "environment file (.env) with settings/secrets"
    for pattern, what in _CLOUD_FILES.items():
        if fnmatch.fnmatchcase(rel, pattern):
            return what
    if lower in _SSH_KEYS:
        return "SSH private key"
    if lower.endswith(_KEY_STORES):
        return "certificate store that usually holds a private key"
    if lower.endswith(_KEY_SUFFIXES) and _head(root, rel).find(_PRIVATE_KEY_MARK) >= 0:
        return "private key"
    if lower.endswith(".json"):
        found = _json_secret(root, rel, named=lower in _CONFIG_JSON or any(
            word in lower.replace("-", "_") for word in ("cred", "secret", "service_account", "auth", "key")))
        if found:
            return found
    return find_in_file(os.path.join(root, rel))


def _head(root: str, rel: str, size: int = _SCAN_BYTES) -> bytes:
    return read_regular(os.path.join(root, rel), size)


def _json_secret(root: str, rel: str, named: bool) -> str | None:
    """Any small JSON with an embedded private key (service-account keys); secret fields in credential-ish names."""
    try:
        if os.path.getsize(os.path.join(root, rel)) > _SCAN_BYTES:
            return None  # data, not a key file
    except OSError:
        return None
    head = _head(root, rel)
    if _PRIVATE_KEY_MARK in head:
        return "credentials file with a private key"
    if not named:
        return None
    try:
        data = json.loads(head)
    except ValueError:
        return None
    keys = _secret_keys(data)
    if not keys:
        return None
    where = "Azure ML config.json" if rel.rsplit("/", 1)[-1] in _CONFIG_JSON else "credentials file"
    return f"{where} with secret fields ({', '.join(sorted(keys))})"


def _secret_keys(data, depth: int = 0) -> set:
    keys = set()
    if depth > 4:
        return keys
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, str) and value and key.lower().replace("-", "_") in _SECRET_JSON_KEYS:
                keys.add(key)
            elif isinstance(value, (dict, list)):
                keys |= _secret_keys(value, depth + 1)
    elif isinstance(data, list):
        for item in data[:50]:
            keys |= _secret_keys(item, depth + 1)
    return keys


def _ignore_file_hint(source_directory: str) -> str:
    for name in IGNORE_FILES:
        if os.path.isfile(os.path.join(source_directory, name)):
            return os.path.join(source_directory, name)
    return os.path.join(source_directory, ".amlignore")


def _secrets_message(source_directory: str, found: list[tuple[str, str]]) -> str:
    listed = "\n".join(f"  - {rel}: {what}" for rel, what in found)
    ignore = _ignore_file_hint(source_directory)
    lines = "\n".join(f"    {rel}" for rel, _ in found)
    note = ""
    if ignore.endswith(".gitignore"):
        note = " (it is used because there is no .amlignore; a new .amlignore would replace it entirely)"
    notebooks = any(rel.endswith(".ipynb") and "(line " in what for rel, what in found)
    outputs = (" A notebook's outputs hold the secret: clear them (jupyter nbconvert --clear-output --inplace "
               "NOTEBOOK.ipynb) and rotate the secret." if notebooks else "")
    return (f"Refusing to snapshot source_directory={source_directory!r}: it contains files that look like secrets, "
            f"and anything in it is copied into the run (for Azure ML, to the workspace's storage, readable by "
            f"everyone with workspace access):\n{listed}\nAdd these lines to {ignore}{note}:\n{lines}\nor move "
            f"the files out of the source directory, or remove the secret from them.{outputs} If they are safe "
            f"to upload, set {ALLOW_SECRETS_VAR}=1.")
