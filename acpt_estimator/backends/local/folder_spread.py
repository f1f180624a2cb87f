"""ext4's top-of-hierarchy hint on a folder: each folder made in it is placed in a quiet part of the disk."""

from __future__ import annotations

import array
import contextlib
import logging
import os
import struct
import sys
import time

from . import atomic

logger = logging.getLogger(__name__)

# Why: ext4 places a new folder's inode in its parent's block group (while that group has room), and a new file's in
# its folder's group. On an ext4 without a journal, each creation in a group first looks at every inode freed there in
# the last one to six minutes (it will not reuse them yet), so a group where anything removed thousands of files (a
# cleaned /tmp, a test run, a reinstalled venv) makes each creation there cost 0.1-1 ms instead of ~15 us
# (benchmarks/store_disk.py); a store made in /tmp had its runs/ in /tmp's group. A folder marked as a top of directory
# hierarchies (FS_TOPDIR_FL, `chattr +T`, the flag ext4 documents for /home) has each folder made in it placed by
# ext4's Orlov allocator in a group with few folders and more free inodes than average, which a recent mass removal
# rarely is. The store marks its own folder (store.make_runs_folder), so runs/ is placed so once, and the run folders
# and their files follow runs/. Not runs/ itself: each run folder would then go to another group, one whose tables
# are not in memory yet (a mkdir there took 0.18 ms, p90 0.47 ms, against 0.02 ms). Measured on this machine's disk
# after 5000 files removed in /tmp: a creation in /tmp 623 us, in a run folder of a store made there 20 us.
FS_TOPDIR_FL = 0x00020000
_LONG = struct.calcsize("l")  # the ioctls are declared with a long; the kernel reads and writes an int
FS_IOC_GETFLAGS = (2 << 30) | (_LONG << 16) | (ord("f") << 8) | 1  # _IOR('f', 1, long)
FS_IOC_SETFLAGS = (1 << 30) | (_LONG << 16) | (ord("f") << 8) | 2  # _IOW('f', 2, long)


def spread_subfolders(folder: str) -> bool:
    """Mark ``folder`` so that ext4 spreads the folders made in it over the disk (its other flags kept); whether it
    carries the mark now. False, with nothing changed, where the file system has no such flag (any but ext2/3/4),
    the folder is not this user's, is a link, or is not there: the mark only chooses where folders lie."""
    return _with_flags(folder, lambda flags: flags | FS_TOPDIR_FL)


def is_spread(folder: str) -> bool:
    """Whether ``folder`` carries the mark (False where it cannot be read)."""
    return _with_flags(folder, lambda flags: flags)


def _with_flags(folder: str, change) -> bool:
    """``folder``'s inode flags read, changed to ``change(flags)`` where that differs; whether FS_TOPDIR_FL is set
    then."""
    if not sys.platform.startswith("linux"):
        return False
    import fcntl  # (Linux only, as local runs are)

    try:
        descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as err:
        logger.debug("Flags of folder %s not read: %s", folder, err)
        return False
    try:
        flags = array.array("i", [0])
        fcntl.ioctl(descriptor, FS_IOC_GETFLAGS, flags, True)
        wanted = change(flags[0])
        if wanted != flags[0]:
            fcntl.ioctl(descriptor, FS_IOC_SETFLAGS, array.array("i", [wanted]))
        return bool(wanted & FS_TOPDIR_FL)
    except OSError as err:  # ENOTTY/EOPNOTSUPP: no such flag here; EPERM/EACCES: another user's folder
        logger.debug("Flags of folder %s not read or set: %s", folder, err)
        return False
    finally:
        os.close(descriptor)


# Where ext4 places a folder made in a marked one, it starts looking at a group given by a hash of the folder's name
# and takes the group with the fewest folders; a group that a removal just emptied (a test's or a benchmark's store
# removed a moment ago) is such a group, with all its freed inodes to check for minutes. Every store's runs/, one
# name, started at the same place and landed there: after a store of 300 runs was removed, a creation in the next
# store's run folders took ~0.36 ms in each of three rounds (a benchmark run right after another read 1.20x plain
# instead of 1.11x). So a folder is placed on trial: made under a name of its own (its own starting place), a few
# creations timed in it, and made again under another name where they were slow; the quickest gets the name. With
# that, the three rounds took 13-15 us.
QUIET_CREATION_SECONDS = 100e-6  # ~15 us is usual on a local disk; a group full of freed inodes costs 0.15-1 ms
PLACEMENT_TRIES = 4
_PROBES = 3  # creations timed per trial, the fastest counting (the first in a group not yet read is slower)


def make_quiet_folder(path: str) -> None:
    """Make the folder ``path`` in a marked folder (spread_subfolders) where creations in it are quick: up to
    PLACEMENT_TRIES folders made beside it under names of their own, the quickest renamed to ``path`` and the others
    removed. Where ``path`` exists meanwhile (another process or thread made it), that one stays."""
    parent = os.path.dirname(path)
    atomic.clean_stale(parent)  # (trials a process killed while placing left: their names carry its pid)
    trials: list = []  # (seconds a creation took, folder)
    try:
        for _ in range(PLACEMENT_TRIES):
            # atomic's name for a folder being built (clean_stale knows it), unique to this call: threads of one
            # driver may place a new store's runs/ at once
            folder = os.path.join(parent, f".staging-{os.getpid()}-{os.urandom(4).hex()}")
            os.mkdir(folder)
            trials.append((_creation_seconds(folder), folder))
            if trials[-1][0] < QUIET_CREATION_SECONDS:
                break
        quickest = min(trials)
        renamed = atomic.renamed_unless_there(quickest[1], path)  # (one made meanwhile stays: it may be in use)
        if renamed is None:  # (no such rename here: where one was made meanwhile, it stays all the same)
            with contextlib.suppress(FileExistsError):
                os.mkdir(path)
        elif renamed:
            trials.remove(quickest)
    finally:
        for _, folder in trials:
            with contextlib.suppress(OSError):
                os.rmdir(folder)


def _creation_seconds(folder: str) -> float:
    """The quickest of _PROBES creations of a new file in ``folder`` (removed again)."""
    best = float("inf")
    for index in range(_PROBES):
        probe = os.path.join(folder, f".probe-{index}")
        began = time.perf_counter()
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600))
        best = min(best, time.perf_counter() - began)
        os.unlink(probe)
    return best
