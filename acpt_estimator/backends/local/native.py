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

from ...cache_folder import cache_base

logger = logging.getLogger(__name__)


class NativeHelper:
    """``source`` (a C file beside this module) built with the machine's C compiler into ``<cache>/bin/<name>-<hash
    of the source>``, where this user alone could have written it. ``ready()`` never waits for a build (callers use
    their fallback meanwhile); ``build()`` is thread-safe; ``<disable_var>=0`` turns the helper off."""

    def __init__(self, name: str, source: str, disable_var: str):
        self.name, self.disable_var = name, disable_var
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
        return self.state.get("path")

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
        try:
            with open(self.source, "rb") as handle:
                digest = hashlib.sha256(handle.read() + platform.machine().encode()).hexdigest()[:16]
        except OSError:
            return None
        return os.path.join(cache_base(), "bin", f"{self.name}-{digest}")

    def _compile(self, path: str) -> str | None:
        compiler = shutil.which("cc") or shutil.which("gcc")
        if compiler is None:
            logger.debug("No C compiler: %s is not built, local jobs use its fallback.", self.name)
            return None
        os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=os.path.dirname(path), prefix=f".{self.name}.", suffix=".tmp")
        os.close(handle)
        try:
            # Static where the C library allows it: the helper then starts in about half the time.
            for flags in (["-static"], []):
                done = subprocess.run([compiler, "-O2", *flags, "-o", temporary, self.source],
                                      stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
                if done.returncode == 0:
                    break
            else:
                logger.debug("Could not build %s: %s", self.source, done.stderr.strip()[-2000:])
                return None
            os.chmod(temporary, 0o755)
            os.replace(temporary, path)  # whole or not at all, also with several drivers building at once
            return path
        except (OSError, subprocess.SubprocessError) as err:
            logger.debug("Could not build %s: %s", self.source, err)
            return None
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)


def _trusted(path: str) -> bool:
    """Whether ``path`` is an executable only this user could have put there (it runs with the driver's rights)."""
    try:
        for item in (path, os.path.dirname(path)):
            status = os.stat(item)
            if status.st_uid != os.geteuid() or status.st_mode & 0o022:
                return False
    except OSError:
        return False
    return os.access(path, os.X_OK)
