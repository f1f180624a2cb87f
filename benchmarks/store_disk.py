"""What the disk under a benchmark's run store is, and why making files there may cost ~0.1-1 ms at times.

ext4 without a journal (this project's machines mount their root so) checks, for each new file or folder, whether
the free inode it is about to use was freed less than a minute ago (six while the inode's table block is not yet
written back), and skips every such inode, checking the next (fs/ext4/ialloc.c, ``recently_deleted``: only without a
journal). Each check looks the inode's table block up in the buffer cache; ``perf`` puts that lookup
(``find_get_block_common``), ``recently_deleted``, ``ext4_get_group_desc`` and ``find_inode_bit`` at ~45 % of a
creation's CPU. Measured on ext4 images on a loop device (1 GiB, inode tables written at mkfs):
- whatever removed thousands of files on the disk within the last minute (a test suite, a benchmark's removed store)
  makes every creation there dear: 5000 files made and removed, then each new file 0.68 ms without a journal, 11 us
  with one; 0.05 ms again 65 s later;
- even without removals a creation there grew dearer over one 301-pair run of local_launch_overhead.py (~10,000
  creations): 15-16 us before (once 122 us), 67-126 us after, the trivial job 1.12-1.20x plain (the same with the
  job's three removals a run turned into renames), where an image with a journal stayed at 16-18 us and
  1.112-1.120x.
The check is made only in the block group where the new inode goes: its folder's for a file, mostly its parent's for
a folder. A store marks its own folder for ext4 to place runs/ in a group with few folders, and checks the place it
got (backends/local/folder_spread.py); run folders then follow runs/. This script probes a new folder in such a
runs/ beside the plain one.

    python benchmarks/store_disk.py [FOLDER] [--files 5000]   # the disk under FOLDER, and what removals cost there
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time


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


def creation_cost(folder: str) -> float:
    """Seconds to make a new entry in a new folder in ``folder`` (median of 40: 20 folders, 20 files), as a job makes
    a dozen in its run folder, some of them while its ranks wait: ~10-40 us each on a local disk, 0.1-1 ms on an
    ext4 without a journal where files were removed within the last minute (this machine's /tmp: kernel CPU time,
    the module's docstring says why) or a round trip on NFS, where that alone adds milliseconds to a trivial job and the
    spare run folders take part of it off (spare_folders.py). Each entry is new: making and removing one name over
    and over reuses the same inode and reads a tenth of what a run's creations cost there."""
    probe = tempfile.mkdtemp(prefix=".creation-", dir=folder)
    times = []
    try:
        for index in range(20):
            start = time.perf_counter()
            os.mkdir(os.path.join(probe, f"folder-{index}"))
            times.append(time.perf_counter() - start)
            start = time.perf_counter()
            os.close(os.open(os.path.join(probe, f"file-{index}"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            times.append(time.perf_counter() - start)
    finally:
        shutil.rmtree(probe, ignore_errors=True)
    return statistics.median(times)


def main() -> None:
    from acpt_estimator.backends.local.folder_spread import is_spread
    from acpt_estimator.backends.local.store import make_runs_folder

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=tempfile.gettempdir())
    parser.add_argument("--files", type=int, default=5000, help="files made and removed before the second probe")
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="store-disk-", dir=args.folder)
    store = os.path.join(scratch, "store")
    make_runs_folder(store)  # (as a store's first run makes it)
    runs, spread = os.path.join(store, "runs"), is_spread(store)

    def probes() -> str:
        plain = f"{creation_cost(scratch) * 1e6:.0f} us"
        return f"{plain}; in a new run folder of a store made there: {creation_cost(runs) * 1e6:.0f} us" \
            if spread else f"{plain} (no folder can be marked for spreading here)"

    try:
        print(f"{args.folder}: {describe(args.folder) or 'unknown file system'}")
        print(f"a new folder or file: {probes()} (medians of 40)")
        names = [os.path.join(scratch, f"churn-{index}") for index in range(args.files)]
        for name in names:
            os.close(os.open(name, os.O_WRONLY | os.O_CREAT, 0o644))
        for name in names:
            os.unlink(name)
        time.sleep(1.5)  # (ext4 counts a removal from the next second on)
        print(f"after {args.files} files made and removed: {probes()}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
