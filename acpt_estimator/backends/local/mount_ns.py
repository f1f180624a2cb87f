"""A local job's mount namespace, made on the thread that spawns the launcher: unshare and binds as system calls.

A mount namespace belongs to a thread (unshare(CLONE_NEWNS) also gives the thread its own root and working
directory), and a process spawned by that thread starts in it. So the supervisor's thread enters a new namespace,
makes the job's binds (mount(2) calls, microseconds each), spawns the launcher and goes back to the driver's
namespace. The helper chain this replaces (util-linux unshare, sh, a ``mount`` per bind) cost about 5 ms of every
job's start. Dropping CAP_SYS_ADMIN for the job stays with setpriv in the launcher's argv: a thread's capability
bounding set cannot be raised again, and threads it starts inherit it.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import threading

import attrs

from ...exceptions import ExperimentExecutionException

CLONE_NEWNS = 0x00020000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 0x1, 0x2, 0x4, 0x8
MS_REMOUNT, MS_NOATIME, MS_NODIRATIME, MS_BIND, MS_REC, MS_PRIVATE = 0x20, 0x400, 0x800, 0x1000, 0x4000, 0x40000
# A read-only remount of a bind replaces the mount's own flags: these are carried over from the bind (statvfs's
# ST_* values are the same bits), so a nosuid or noexec source stays so in the job's view.
_KEPT_FLAGS = MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_NOATIME | MS_NODIRATIME


@attrs.frozen
class MountCall:
    """One mount(2) call: ``source`` None for a remount."""

    source: str | None
    target: str
    flags: int

    @property
    def description(self) -> str:
        if self.flags & MS_REMOUNT:
            return f"remount {self.target} read-only"
        kind = "recursive bind" if self.flags & MS_REC else "bind"
        return f"{kind} of {self.source} at {self.target}"


def bind_calls(mounts) -> list[MountCall]:
    """The mount(2) calls that make ``mounts`` (inputs.Mount), in their order.

    A recursive read-only bind (the store over the job's writable binds) is remounted read-only at its top only:
    the kernel changes just that mount, so the writable binds below keep showing through.
    """
    calls = []
    for mount in mounts:
        calls.append(MountCall(mount.source, mount.target, MS_BIND | (MS_REC if mount.recursive else 0)))
        if not mount.writable:
            calls.append(MountCall(None, mount.target, MS_REMOUNT | MS_BIND | MS_RDONLY))
    return calls


_libc_handle: list = []


def _libc():
    if not _libc_handle:
        _libc_handle.append(ctypes.CDLL(None, use_errno=True))
    return _libc_handle[0]


def _checked(result: int, what: str) -> None:
    if result != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"{what}: {os.strerror(code)}")


def _new_namespace(libc) -> None:
    """This thread in a new mount namespace (a copy of the current one)."""
    _checked(libc.unshare(CLONE_NEWNS), "unshare(CLONE_NEWNS)")


def _make_private(libc) -> None:
    """Mounts made in this namespace do not propagate back to the machine's."""
    _checked(libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "making / private")


def _make(libc, call: MountCall) -> None:
    flags = call.flags
    if flags & MS_REMOUNT:
        flags |= os.statvfs(call.target).f_flag & _KEPT_FLAGS
    source = os.fsencode(call.source) if call.source is not None else None
    _checked(libc.mount(source, os.fsencode(call.target), None, flags, None), call.description)


@contextlib.contextmanager
def entered(mounts):
    """On the calling thread only: a new mount namespace with ``mounts`` made, for processes spawned in the block.

    The thread's own namespace and working directory are back when the block ends (or when a bind fails: then
    an ExperimentExecutionException names the bind and the reason, and nothing was started).
    """
    if not mounts:
        yield
        return
    libc = _libc()
    own_namespace = os.open("/proc/thread-self/ns/mnt", os.O_RDONLY | os.O_CLOEXEC)
    own_cwd = os.open(".", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    moved = False
    try:
        try:
            _new_namespace(libc)
            moved = True
            _make_private(libc)
            for call in bind_calls(mounts):
                _make(libc, call)
        except OSError as err:
            raise ExperimentExecutionException(
                f"The local run's read-only view could not be made ({err.strerror}), so nothing was started. Check "
                "that the path exists and the driver can reach it; read-only views need root with CAP_SYS_ADMIN "
                "(without it, inputs are read-only copies and the driver says the store is writable to jobs)."
            ) from None
        yield
    finally:
        try:
            if moved:  # (a failed unshare left the thread where it was, and setns would need the capability)
                _checked(libc.setns(own_namespace, CLONE_NEWNS), "setns back to the driver's mount namespace")
                os.fchdir(own_cwd)
        finally:
            os.close(own_namespace)
            os.close(own_cwd)


_probed: list = []


def available() -> bool:
    """Whether this process may make mount namespaces (root with CAP_SYS_ADMIN); tried once, on a throwaway thread
    whose namespace ends with it."""
    if not _probed:
        if os.geteuid() != 0 or not os.path.exists("/proc/thread-self/ns/mnt"):
            _probed.append(False)
        else:
            outcome = []

            def probe() -> None:
                try:
                    _new_namespace(_libc())
                    _make_private(_libc())
                    outcome.append(True)
                except (OSError, AttributeError):
                    outcome.append(False)

            thread = threading.Thread(target=probe, name="acpt-mount-probe", daemon=True)
            thread.start()
            thread.join()
            _probed.append(bool(outcome and outcome[0]))
    return _probed[0]
