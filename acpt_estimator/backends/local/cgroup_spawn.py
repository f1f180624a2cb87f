"""The launcher born inside its job's cgroup (clone3 CLONE_INTO_CGROUP), by a small C helper built once per machine.

Moving a running process into a cgroup waits for an RCU grace period in the kernel: 6-13 ms here, longer while
processes are being started, which is exactly when a job starts. Python's posix_spawn cannot start a process inside
a cgroup (glibc's POSIX_SPAWN_SETCGROUP arrives in 2.39), so ``cgroup_spawn.c`` does it: it clones the launcher into
the cgroup as a sibling of itself (CLONE_PARENT, so the driver is its parent and waits for it) and exits. The helper
is compiled from the package's source with the machine's C compiler into the cache folder (once; a background
thread does it on a driver's first job). Where there is no compiler, or the kernel lacks clone3 (Linux < 5.7), jobs
start as before: moved in after their start, their ranks held until they are inside.
"""

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

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cgroup_spawn.c")
DISABLE_VAR = "ACPT_ESTIMATOR_CGROUP_SPAWN"  # "0": never use the helper (then jobs are moved in after their start)
logger = logging.getLogger(__name__)
_state: dict = {}  # "path": the built helper, or None once known unusable
_lock = threading.Lock()


def ready() -> str | None:
    """The helper's path if it is built and usable now; never waits for a build (the job then starts as before)."""
    if os.environ.get(DISABLE_VAR) == "0":
        return None
    if "path" not in _state:
        path = _helper_path()
        if path is not None and _trusted(path):
            _state["path"] = path
    return _state.get("path")


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


def build() -> str | None:
    """Build the helper if it is not there yet (thread-safe); its path, or None where it cannot be built."""
    if os.environ.get(DISABLE_VAR) == "0":
        return None
    with _lock:
        if "path" in _state:
            return _state["path"]
        path = _helper_path()
        if path is not None and not _trusted(path):
            path = _compile(path)
        _state["path"] = path
        return path


def unusable(why: str) -> None:
    """The kernel refused the helper's clone3 (too old, or no cgroup v2 here): later jobs start as before."""
    logger.debug("Starting jobs inside their cgroup is not possible here (%s); they are moved in after their start.",
                 why)
    _state["path"] = None


def _helper_path() -> str | None:
    try:
        with open(SOURCE, "rb") as handle:
            digest = hashlib.sha256(handle.read() + platform.machine().encode()).hexdigest()[:16]
    except OSError:
        return None
    return os.path.join(cache_base(), "bin", f"acpt-cgroup-spawn-{digest}")


def _compile(path: str) -> str | None:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        logger.debug("No C compiler: local jobs are moved into their cgroup after their start.")
        return None
    os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".acpt-cgroup-spawn.", suffix=".tmp")
    os.close(handle)
    try:
        # Static where the C library allows it: the helper then starts in about half the time.
        for flags in (["-static"], []):
            done = subprocess.run([compiler, "-O2", *flags, "-o", temporary, SOURCE], stdin=subprocess.DEVNULL,
                                  capture_output=True, text=True, timeout=120)
            if done.returncode == 0:
                break
        else:
            logger.debug("Could not build %s: %s", SOURCE, done.stderr.strip()[-2000:])
            return None
        os.chmod(temporary, 0o755)
        os.replace(temporary, path)  # whole or not at all, also with several drivers building at once
        return path
    except (OSError, subprocess.SubprocessError) as err:
        logger.debug("Could not build %s: %s", SOURCE, err)
        return None
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def spawn(helper: str, cgroup_dir: str, argv, env, file_actions) -> int | None:
    """Start ``argv`` inside ``cgroup_dir`` in a new session, with ``file_actions`` for its descriptors 0-2; its pid
    (a child of this process). None when the helper could not (then nothing was started: the caller spawns the
    usual way). Raises OSError as posix_spawn would when the command itself cannot be executed."""
    report_r, report_w = os.pipe()  # both close-on-exec; the helper gets the write end as its descriptor 3
    try:
        helper_pid = os.posix_spawn(helper, [helper, cgroup_dir, *argv], env,
                                    file_actions=[*file_actions, (os.POSIX_SPAWN_DUP2, report_w, 3)])
    except OSError as err:
        os.close(report_r)
        os.close(report_w)
        unusable(f"the helper did not start: {err}")
        return None
    os.close(report_w)
    chunks = []
    try:
        while chunk := os.read(report_r, 256):
            chunks.append(chunk)
    finally:
        os.close(report_r)
        os.waitpid(helper_pid, 0)
    words = b"".join(chunks).decode("ascii", "replace").split()
    if len(words) == 1 and words[0].isdigit():
        return int(words[0])
    if len(words) == 4 and words[:2] == ["error", "exec"]:
        os.waitpid(int(words[3]), 0)  # the command's process, which could not execute it: our child, reaped here
        code = int(words[2])
        raise OSError(code, os.strerror(code), argv[0])
    unusable(" ".join(words) or "the helper reported nothing")
    return None
