"""A local job's mount namespace, made on the thread that spawns the launcher: unshare and binds as system calls.

A mount namespace belongs to a thread (unshare(CLONE_NEWNS) also gives the thread its own root and working
directory), and a process spawned by that thread starts in it. So the supervisor's thread enters a new namespace,
makes the job's binds (mount(2) calls, microseconds each), spawns the launcher and goes back to the driver's
namespace. The helper chain this replaces (util-linux unshare, sh, a ``mount`` per bind) cost about 5 ms of every
job's start. The same thread drops CAP_SYS_ADMIN and CAP_SYS_PTRACE for the job (drop_job_capabilities) instead
of util-linux setpriv in the launcher's argv (about 1.5 ms per launch): a thread's capability bounding set cannot be
raised again, so that thread must be one that lives for one job only (the supervisor's watcher).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import threading

import attrs

from ...exceptions import ExperimentExecutionException

CLONE_NEWNS, CLONE_FS = 0x00020000, 0x00000200
PR_CAPBSET_DROP = 24
CAP_SYS_PTRACE, CAP_SYS_ADMIN = 19, 21
_JOB_DROPS = (CAP_SYS_ADMIN, CAP_SYS_PTRACE)  # remounting an input writable; reaching the driver's view via /proc
_CAPABILITY_VERSION_3 = 0x20080522
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
def entered(mounts=(), *, namespace: bool | None = None):
    """On the calling thread only: a new mount namespace (``namespace``; by default when there are ``mounts``) with
    ``mounts`` made, for processes spawned in the block; bind() makes more there later in the block, which processes
    spawned earlier see too (they share the namespace).

    The thread's own namespace and working directory are back when the block ends (or when a bind fails: then
    an ExperimentExecutionException names the bind and the reason, and nothing was started).
    """
    if not (mounts or namespace):
        yield
        return
    with _away(lambda libc: (_new_namespace(libc), _make_private(libc))):
        bind(mounts)
        yield


@contextlib.contextmanager
def joined(namespace: int):
    """On the calling thread only: inside the mount namespace ``namespace`` (a descriptor of one cgroup_spawn's
    helper made for a job) for the block, to make its binds (bind()); back in its own namespace and working
    directory after. The thread's root and working directory stay its own from then on (setns needs that): a
    thread serving one job."""
    def join(libc) -> None:
        _checked(libc.unshare(CLONE_FS), "unshare(CLONE_FS)")
        _checked(libc.setns(namespace, CLONE_NEWNS), "setns into the job's mount namespace")

    with _away(join):
        yield


@contextlib.contextmanager
def _away(move):
    """The calling thread in another mount namespace, ``move(libc)``'s, for the block; then back in its own
    namespace and working directory. A move that fails raises _refused, with the thread back where it was."""
    libc = _libc()
    own_namespace = os.open("/proc/thread-self/ns/mnt", os.O_RDONLY | os.O_CLOEXEC)
    own_cwd = os.open(".", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        try:
            move(libc)
        except OSError as err:
            raise _refused(err) from None
        yield
    finally:
        try:
            # Back only where it moved: a failed unshare or setns left the thread in its own namespace (and setns
            # would need the capability).
            if os.readlink("/proc/thread-self/ns/mnt") != os.readlink(f"/proc/self/fd/{own_namespace}"):
                _checked(libc.setns(own_namespace, CLONE_NEWNS), "setns back to the driver's mount namespace")
                os.fchdir(own_cwd)
        finally:
            os.close(own_namespace)
            os.close(own_cwd)


def bind(mounts) -> None:
    """Make ``mounts`` in the calling thread's mount namespace (inside an entered() block): an
    ExperimentExecutionException names the first that fails and why."""
    if not mounts:
        return
    libc = _libc()
    try:
        for call in bind_calls(mounts):
            _make(libc, call)
    except OSError as err:
        raise _refused(err) from None


def _refused(err: OSError) -> ExperimentExecutionException:
    return ExperimentExecutionException(
        f"The local run's read-only view could not be made ({err.strerror}), so nothing was started. Check "
        "that the path exists and the driver can reach it; read-only views need root with CAP_SYS_ADMIN "
        "(without it, inputs are read-only copies and the driver says the store is writable to jobs).")


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def drop_job_capabilities() -> None:
    """Processes this thread starts from now on run without CAP_SYS_ADMIN and CAP_SYS_PTRACE, root or not.

    Both leave the thread's bounding set (no exec can grant them again) and its inheritable set (so no ambient
    capability keeps them either), as ``setpriv --inh-caps=-sys_admin,-sys_ptrace --bounding-set=...`` would;
    the thread's own effective set is untouched. Irreversible for this thread: call it only on a thread that serves
    one job. Raises ExperimentExecutionException when the thread may not (no CAP_SETPCAP): then start nothing.
    """
    libc = _libc()
    try:
        for capability in _JOB_DROPS:
            _checked(libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0), f"prctl(PR_CAPBSET_DROP, {capability})")
        header, data = _CapHeader(_CAPABILITY_VERSION_3, 0), (_CapData * 2)()
        _checked(libc.capget(ctypes.byref(header), data), "capget")
        for capability in _JOB_DROPS:
            data[capability // 32].inheritable &= ~(1 << (capability % 32))
        _checked(libc.capset(ctypes.byref(header), data), "capset")
    except OSError as err:
        raise capabilities_refused(err) from None


def capabilities_refused(err: OSError) -> ExperimentExecutionException:
    return ExperimentExecutionException(
        f"The local run's launcher could not be made to run without CAP_SYS_ADMIN and CAP_SYS_PTRACE ({err}), so "
        "nothing was started: its read-only views would not hold. Run the driver as root with CAP_SETPCAP, or "
        "where mount namespaces are not offered (then inputs are read-only copies).")


def namespace_refused(where: str, err: OSError) -> ExperimentExecutionException:
    """What a launcher's helper that could not make the job's namespace (cgroup_spawn.NamespaceRefused) means."""
    return capabilities_refused(err) if where == "capabilities" else _refused(err)


_probed: list = []


def available() -> bool:
    """Whether this process may make mount namespaces (root with CAP_SYS_ADMIN) and start a job without the
    capabilities to undo them (CAP_SETPCAP); tried once, on a throwaway thread whose namespace and capability sets
    end with it."""
    if not _probed:
        if os.geteuid() != 0 or not os.path.exists("/proc/thread-self/ns/mnt"):
            _probed.append(False)
        else:
            outcome = []

            def probe() -> None:
                try:
                    _new_namespace(_libc())
                    _make_private(_libc())
                    drop_job_capabilities()
                    outcome.append(True)
                except (OSError, AttributeError, ExperimentExecutionException):
                    outcome.append(False)

            thread = threading.Thread(target=probe, name="acpt-mount-probe", daemon=True)
            thread.start()
            thread.join()
            _probed.append(bool(outcome and outcome[0]))
    return _probed[0]
