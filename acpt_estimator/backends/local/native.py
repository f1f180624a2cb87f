"""Small C helpers of the local launcher, compiled once per machine from the package's sources into the cache folder."""

from __future__ import annotations

import hashlib
import logging
import os
import platform
import shutil
import subprocess
import tempfile
import threading
import time

from ...cache_folder import cache_base, only_mine

logger = logging.getLogger(__name__)
# Each version of a helper's source (and each toolchain) gets its own build; one no driver has used for this long
# belongs to a package version no longer run here and is removed when another build is made.
STALE_SECONDS = 14 * 24 * 3600
USE_MARK_SECONDS = 24 * 3600  # a build's modification time is refreshed at most this often (it marks use)


class NativeHelper:
    """``source`` (a C file beside this module) built with the machine's C compiler into ``<cache>/bin/<name>-<hash
    of the source>``, where this user alone could have written it. ``ready()`` never waits for a build (callers use
    their fallback meanwhile); ``build()`` is thread-safe; ``<disable_var>=0`` turns the helper off.

    ``prefer_musl``: built against musl (``musl-gcc``, Debian's musl-tools) where that is installed, for a helper
    started once per rank. Before ``main``, glibc probes the CPU's features with ``cpuid``, which on a virtual machine
    traps to the hypervisor (~5 us each here): an empty static glibc program took 0.46-0.63 ms to spawn and reap,
    a musl one 0.25-0.29 ms, and the rank launcher 1.0-1.2 ms against 0.77 ms."""

    def __init__(self, name: str, source: str, disable_var: str, prefer_musl: bool = False):
        self.name, self.disable_var, self.prefer_musl = name, disable_var, prefer_musl
        self.source = os.path.join(os.path.dirname(os.path.abspath(__file__)), source)
        self.state: dict = {}  # "path": the built helper, or None once known unusable
        self._lock = threading.Lock()

    def ready(self) -> str | None:
        """The helper's path if it is built and usable now."""
        if os.environ.get(self.disable_var) == "0":
            return None
        if "path" not in self.state:
            path = self._path()
            if path is not None and _trusted(path):
                self.state["path"] = path
        path = self.state.get("path")
        if path is not None and time.monotonic() >= self.state.get("mark_due", 0.0):
            # also in a driver that runs for weeks: its build must not look unused to another version's build
            _mark_used(path)
            self.state["mark_due"] = time.monotonic() + USE_MARK_SECONDS
        return path

    def build(self) -> str | None:
        """Build the helper if it is not there yet; its path, or None where it cannot be built."""
        if os.environ.get(self.disable_var) == "0":
            return None
        with self._lock:
            if "path" in self.state:
                return self.state["path"]
            path = self._path()
            if path is not None and not _trusted(path):
                path = self._compile(path)
            self.state["path"] = path
            return path

    def unusable(self) -> None:
        """The helper cannot work on this machine (its caller says why): later calls use the fallback."""
        self.state["path"] = None

    def _path(self) -> str | None:
        # The toolchain is part of the name: a musl-tools installed later gets its build, not the older one.
        toolchain = b"musl" if self._musl() else b""
        try:
            with open(self.source, "rb") as handle:
                digest = hashlib.sha256(handle.read() + platform.machine().encode() + toolchain).hexdigest()[:16]
        except OSError:
            return None
        return os.path.join(cache_base(), "bin", f"{self.name}-{digest}")

    def _musl(self) -> str | None:
        return shutil.which("musl-gcc") if self.prefer_musl else None

    def _builds(self) -> list:
        """(compiler, flags) to try in turn: static where the C library allows it (the helper then starts in about
        half the time), with musl first where preferred and installed."""
        builds = []
        musl = self._musl()
        if musl:
            builds.append((musl, ["-static"]))
        compiler = shutil.which("cc") or shutil.which("gcc")
        if compiler:
            builds += [(compiler, ["-static"]), (compiler, [])]
        return builds

    def _compile(self, path: str) -> str | None:
        builds = self._builds()
        if not builds:
            logger.debug("No C compiler: %s is not built, local jobs use its fallback.", self.name)
            return None
        os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=os.path.dirname(path), prefix=f".{self.name}.", suffix=".tmp")
        os.close(handle)
        try:
            for compiler, flags in builds:
                done = subprocess.run([compiler, "-O2", *flags, "-o", temporary, self.source],
                                      stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
                if done.returncode == 0:
                    break
            else:
                logger.debug("Could not build %s: %s", self.source, done.stderr.strip()[-2000:])
                return None
            os.chmod(temporary, 0o755)
            os.replace(temporary, path)  # whole or not at all, also with several drivers building at once
            self._remove_stale(path)
            return path
        except (OSError, subprocess.SubprocessError) as err:
            logger.debug("Could not build %s: %s", self.source, err)
            return None
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)

    def _remove_stale(self, built: str) -> None:
        """Remove this helper's other builds that no driver has used for STALE_SECONDS (a package version still run
        here refreshes its build's time at each use, and one removed by mistake is only built again)."""
        folder, now = os.path.dirname(built), time.time()
        try:
            entries = [entry for entry in os.scandir(folder) if entry.name.startswith(self.name + "-")
                       and entry.path != built and entry.is_file(follow_symlinks=False)]
            stale = [entry.path for entry in entries
                     if now - entry.stat(follow_symlinks=False).st_mtime > STALE_SECONDS]
        except OSError as err:
            logger.debug("Could not look for stale builds in %s: %s", folder, err)
            return
        for path in stale:
            try:
                os.unlink(path)
            except OSError as err:  # removed meanwhile by another driver's build
                logger.debug("Could not remove the stale build %s: %s", path, err)


def _mark_used(path: str) -> None:
    """Refresh the build's modification time (at most once a day) so that _remove_stale keeps it."""
    try:
        if time.time() - os.stat(path).st_mtime > USE_MARK_SECONDS:
            os.utime(path)
    except OSError:
        pass  # a read-only cache: the build is then never removed as stale, which is harmless


def _trusted(path: str) -> bool:
    """Whether ``path`` is an executable only this user could have put there (it runs with the driver's rights)."""
    return only_mine(path) and os.access(path, os.X_OK)
