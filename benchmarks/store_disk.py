"""What the disk under a benchmark's run store is, and why making files there may cost ~1 ms at times.

ext4 without a journal (this project's machines mount their root so) never reuses an inode freed less than a minute
ago (six minutes while the inode's table block is not yet written back): each new file or folder checks every such
free inode before it in its block group (fs/ext4/ialloc.c, ``recently_deleted``), ~0.15 us each. Whatever removed
thousands of files on that disk within the last minute (a test suite, a benchmark's removed store, a pip install)
then makes every creation there cost 0.1-1 ms of kernel CPU, against ~12 us with a journal after the same removals
(measured on two 512 MiB ext4 images on a loop device: 5000 files made and removed, then new files made: 0.68 ms
each without a journal, 11 us with one; 0.05 ms again 65 s later). A job's own removals (three small files a run)
do not add up to that: 600 runs' worth of creations and removals kept a creation at 17-22 us there.
"""

from __future__ import annotations

import os


def describe(path: str) -> str:
    """``path``'s file system as "ext4 without a journal (vda)", "tmpfs", ...; "" where it cannot be told."""
    try:
        device = os.stat(path).st_dev
        with open("/proc/self/mountinfo", encoding="utf-8") as handle:
            mounts = handle.read().splitlines()
    except OSError:
        return ""
    wanted = f"{os.major(device)}:{os.minor(device)}"
    for line in mounts:
        fields = line.split()
        if len(fields) < 3 or fields[2] != wanted or "-" not in fields:
            continue
        kind = fields[fields.index("-") + 1]
        if kind != "ext4":
            return kind
        name = _block_device_name(wanted)
        if name is None:
            return kind
        journaled = _has_journal(name)
        if journaled is None:
            return f"ext4 ({name})"
        return f"ext4 with a journal ({name})" if journaled else f"ext4 without a journal ({name})"
    return ""


def without_journal(description: str) -> bool:
    return description.startswith("ext4 without a journal")


def _block_device_name(major_minor: str) -> str | None:
    try:
        return os.path.basename(os.readlink(f"/sys/dev/block/{major_minor}"))
    except OSError:
        return None


def _has_journal(device: str) -> bool | None:
    """Whether the mounted ext4 on ``device`` has a journal: jbd2 lists each one it runs as "<device>-<inode>"."""
    try:
        journals = os.listdir("/proc/fs/jbd2")
    except OSError:
        return None
    return any(entry.rpartition("-")[0] == device for entry in journals)
