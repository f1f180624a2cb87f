"""Spare run folders: a run's skeleton made while a driver submits a job, renamed into place by a later launch."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import stat
import threading
import time

from . import driver_priority
from .launch import GATE_NAME
from .store import SPARE_BUILDING_PREFIX, SPARE_LAYOUT, SPARE_PREFIX, RunPaths, reserve_file

logger = logging.getLogger(__name__)

# Making a folder or a file costs what the store's file system makes it cost: ~10-40 us on a local disk, 0.1-1 ms on
# an ext4 without a journal where files were removed within the last minute (it reuses no inode freed since, and
# checks each of them before every new one: benchmarks/store_disk.py), a round trip to the server on NFS; a rename
# costs ~5-10 us on all of them. A launch that claims a spare renames one folder instead of making seven entries, the
# mpiexec log's among them before mpiexec's command, and its ranks rename the files made ahead for their logs and exit
# markers (rank_exec.c, adopt) instead of making them. The names are the store's (store.SPARE_*): a listing removes
# spares left half-built and those of an older layout.
PREFIX = f"{SPARE_PREFIX}{SPARE_LAYOUT}-"
SLOTS = 2  # spares kept per store: one being claimed while the next is made

_DIRECTORY, _FIFO, _FILE = stat.S_IFDIR, stat.S_IFIFO, stat.S_IFREG


def _layout() -> list:
    """(path relative to the run folder, kind) of what a spare holds, in the order it is made: what a launch makes
    itself otherwise (RunPaths' run folder, files/ with its logs' folders, status/, the gate's FIFO, the reserve and
    mpiexec's log), named as RunPaths names them."""
    template = RunPaths(os.sep, "run")
    entries = [(template.root, _DIRECTORY), (template.files, _DIRECTORY), (template.system_logs, _DIRECTORY),
               (template.user_logs, _DIRECTORY), (template.status, _DIRECTORY),
               (os.path.join(template.root, GATE_NAME), _FIFO), (template.reserve, _FILE),
               (template.launcher_log, _FILE)]
    return [(os.path.relpath(path, template.root), kind) for path, kind in entries]


_LAYOUT = _layout()  # (once: a claim checks it before mpiexec's command)


def _skeleton(root: str) -> list:
    """(path, kind) of each entry of the spare whose run folder is ``root`` (_layout)."""
    return [(root if relative == os.curdir else os.path.join(root, relative), kind) for relative, kind in _LAYOUT]


def _slots(runs_root: str) -> list:
    return [os.path.join(runs_root, f"{PREFIX}{slot}") for slot in range(SLOTS)]


def claim(paths: RunPaths) -> bool:
    """Rename a spare into ``paths.root`` (which must not exist yet); whether one was there to take. A spare that is
    not as this driver made it (a job's code can write in the store) is removed instead of used. Not looked for in
    a store known to make creations fast (none is made there)."""
    if _slow.get(paths.home) is False:
        return False
    runs_root = os.path.dirname(paths.root)
    for slot in _slots(runs_root):
        try:
            os.rename(slot, paths.root)
        except OSError:  # none in this slot, or another driver took it first
            continue
        if _intact(paths):
            return True
        shutil.rmtree(paths.root, ignore_errors=True)
        with contextlib.suppress(OSError):  # (not even a folder: a link or a file under the spare's name)
            os.unlink(paths.root)
    return False


def _intact(paths: RunPaths) -> bool:
    """Each entry of the skeleton of its kind, this user's, a file with no other name (never a link to elsewhere)."""
    own = os.geteuid()
    for path, kind in _skeleton(paths.root):
        try:
            found = os.lstat(path)
        except OSError:
            return False
        if stat.S_IFMT(found.st_mode) != kind or found.st_uid != own or (kind == _FILE and found.st_nlink != 1):
            return False
    return True


def _rank_files(status_dir: str, ranks: int) -> list:
    """What rank_exec.c's adopt() takes: status/.log-<rank> and status/.exit-<rank>."""
    return [os.path.join(status_dir, f".{kind}-{rank}") for rank in range(ranks) for kind in ("log", "exit")]


def _is_rank_file(name: str) -> bool:
    kind, _, rank = name[1:].partition("-")
    return name.startswith(".") and kind in ("log", "exit") and rank.isdigit()


def make(paths: RunPaths, ranks: int) -> int:
    """A spare beside ``paths``' run folder, where a slot is free, with files made ahead for ``ranks`` ranks: built
    under a name of its own, then renamed into the slot whole (a launch never claims half a skeleton). Nothing is
    left where it cannot be made. Returns how many entries were made (0: none)."""
    runs_root = os.path.dirname(paths.root)
    if all(os.path.lexists(slot) for slot in _slots(runs_root)):
        return 0
    root = os.path.join(runs_root, f"{SPARE_BUILDING_PREFIX}{os.getpid()}-{os.urandom(4).hex()}")
    reserve = os.path.join(root, os.path.basename(paths.reserve))
    try:
        for path, kind in _skeleton(root):
            if kind == _DIRECTORY:
                os.mkdir(path)
            elif kind == _FIFO:
                os.mkfifo(path, 0o600)
            elif path == reserve:
                reserve_file(path)
            else:  # (as cgroup_spawn._open_log makes mpiexec's log)
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644))
        rank_files = _rank_files(os.path.join(root, os.path.relpath(paths.status, paths.root)), ranks)
        for path in rank_files:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666))  # (as rank_exec.c's)
        for slot in _slots(runs_root):
            try:
                os.rename(root, slot)  # (a slot taken meanwhile holds a skeleton: not empty, so not replaced)
                return len(_skeleton(root)) + len(rank_files)
            except OSError:
                continue
    except OSError as err:  # (a full disk, the store removed meanwhile: the next launch makes its own folder)
        logger.debug("No spare run folder made in %s: %s", runs_root, err)
    shutil.rmtree(root, ignore_errors=True)
    return 0


def check_rank_files(paths: RunPaths, ranks: int) -> None:
    """Behind the gate of a launch that claimed a spare: anything in status/ but this user's plain files made ahead
    for its ``ranks`` ranks (a link there would have a rank's log written through it; a spare made for more ranks
    has some no rank takes) is removed before any rank runs."""
    own = os.geteuid()
    with os.scandir(paths.status) as entries:
        for entry in entries:
            found = entry.stat(follow_symlinks=False)
            if (_is_rank_file(entry.name) and int(entry.name.partition("-")[2]) < ranks
                    and stat.S_ISREG(found.st_mode) and found.st_uid == own and found.st_nlink == 1):
                continue
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)


def remove_rank_files(paths: RunPaths) -> None:
    """As a job that claimed a spare ends other than with every rank's success: the files made ahead that a rank
    did not take (it never started, or never ended by itself)."""
    with contextlib.suppress(FileNotFoundError), os.scandir(paths.status) as entries:
        for entry in entries:
            if _is_rank_file(entry.name):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)


# ---- when spares are made: by a thread of the driver's while it submits its next job ----------------------------------
# Not after a job's end, when the driver is often idle: a caller that removes its store once its job is done (a
# temporary one) would find entries appearing in it (made then, a spare saved ~4.7 ms a job where a creation took
# ~0.3 ms, against ~1.1 ms as made now). From mpiexec's command on, while the submission prepares the run behind the
# gate: busy work before the command delays a job about ten times as much. The spare made then is claimed by the
# submission after; a driver that submits one job makes none. Only in a store whose file system makes creations slow:
# making a spare costs the submission a thread's wake-up and ~0.2 ms of Python besides the creations, which only
# creations of a tenth of a millisecond and more outweigh (measured: +0.24 ms a job on tmpfs at 3 us a creation, +0.23
# ms on ext4 at 16-50 us, -0.2 to -1.4 ms at 0.2-0.4 ms).
SLOW_CREATION_SECONDS = 150e-6

_slow: dict = {}  # store home -> whether a creation there took SLOW_CREATION_SECONDS or more, as last measured
_wanted: tuple | None = None  # (paths, ranks) of the last ended job that could have used a spare (want)
_lock = threading.Lock()
_go = threading.Event()  # a spare is to be made (build_wanted)
_idle = threading.Event()  # none is being made
_idle.set()
_builder_pid: int | None = None  # the process whose builder thread runs (a forked driver starts its own)


def _forked() -> None:
    """In a forked driver: none of the parent's builder (its thread is not there), nothing half-told of it."""
    global _wanted, _lock, _builder_pid
    _wanted, _lock, _builder_pid = None, threading.Lock(), None
    _go.clear()
    _idle.set()


os.register_at_fork(after_in_child=_forked)


def note_creation(store_home: str, seconds: float) -> None:
    """What making one entry in ``store_home`` took (a launch's run folder, a spare's entries on average)."""
    _slow[store_home] = seconds >= SLOW_CREATION_SECONDS


def want(paths: RunPaths, ranks: int) -> None:
    """At the end of a job that could have claimed a spare: the next submission to the same store makes one, where
    creations are slow there."""
    global _wanted
    if not _slow.get(paths.home):
        return
    with _lock:
        _wanted = (paths, ranks)


def build_wanted(store_home: str) -> None:
    """At the start of a submission to ``store_home``: the spare wanted there is made on the builder thread."""
    global _builder_pid
    with _lock:
        if _wanted is None or _wanted[0].home != store_home:
            return
        if _builder_pid != os.getpid():
            # daemon: one cut short at exit leaves a spare half-built, which a listing removes (store)
            try:
                threading.Thread(target=_serve, name="acpt-spare-folders", daemon=True).start()
            except RuntimeError:  # no thread to be had: no spare, the launches make their folders
                return
            _builder_pid = os.getpid()
        _idle.clear()
        _go.set()


def wait_idle(timeout: float = 5.0) -> None:
    """Before a job's end is told: no spare is still being made (nothing changes in the store after that)."""
    _idle.wait(timeout)


def _serve() -> None:
    global _wanted
    driver_priority.yield_to_jobs()  # it wakes while the job starts: never preempting it
    while True:
        _go.wait()
        with _lock:
            _go.clear()
            wanted, _wanted = _wanted, None
        try:
            if wanted is not None:
                began = time.perf_counter()
                entries = make(*wanted)
                if entries:
                    note_creation(wanted[0].home, (time.perf_counter() - began) / entries)
        except Exception:  # noqa: BLE001 - only a head start for a later launch: never the end of this thread
            logger.debug("Making a spare run folder failed", exc_info=True)
        finally:
            with _lock:
                if not _go.is_set():
                    _idle.set()
