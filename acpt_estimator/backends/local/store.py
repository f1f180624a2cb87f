"""The local run store: ACPT_ESTIMATOR_HOME (default ./.acpt) holding runs/, models/, datastores/ and mlflow.db."""

from __future__ import annotations

import contextlib
import datetime
import errno
import functools
import getpass
import json
import os
import shutil
import stat
import time
import urllib.parse

from ...names import check as check_name, storage_key
from ...paths import contained
from . import atomic

HOME_VAR = "ACPT_ESTIMATOR_HOME"
EARLY_LOG_SUFFIX = ".mpiexec.txt"  # runs/.<run>.mpiexec.txt: RunPaths.launcher_log_beside
STALE_EARLY_LOG_SECONDS = 60.0
DEFAULT_HOME = ".acpt"


def home() -> str:
    """Absolute store folder: $ACPT_ESTIMATOR_HOME, else ./.acpt in the current directory."""
    return os.path.abspath(os.environ.get(HOME_VAR) or DEFAULT_HOME)


def user() -> str:
    """The submitting user's name, looked up once (pwd lookups cost about 1 ms each)."""
    global _user
    if _user is None:
        try:
            _user = getpass.getuser()
        except Exception:  # noqa: BLE001 - some containers have no passwd entry for the uid
            _user = "unknown"
    return _user


_user: str | None = None


def file_uri(path: str) -> str:
    """Path(path).as_uri() for an absolute path, without pathlib's parsing on the launch path."""
    return "file://" + urllib.parse.quote(path)


def utc_iso(timestamp: float | None) -> str | None:
    """v1 details use ISO-8601 UTC with a trailing Z."""
    if timestamp is None:
        return None
    moment = datetime.datetime.fromtimestamp(timestamp, tz=datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class RunPaths:
    """The folders and files of one run under ``<home>/runs/<run_id>``; immutable, equal by (home, run_id).

    A plain class: a rank's ``Run.get_context()`` makes one, and attrs would be the only reason to import it there
    (~19 ms of every rank's start).
    """

    def __init__(self, home: str, run_id: str):
        object.__setattr__(self, "home", home)
        object.__setattr__(self, "run_id", run_id)

    def __setattr__(self, name, value):
        raise AttributeError(f"RunPaths is immutable: cannot set {name!r}; make a new RunPaths(home, run_id).")

    def __delattr__(self, name):
        raise AttributeError(f"RunPaths is immutable: cannot delete {name!r}.")

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.home, self.run_id) == (other.home, other.run_id)

    def __hash__(self):
        return hash((self.home, self.run_id))

    def __repr__(self):
        return f"RunPaths(home={self.home!r}, run_id={self.run_id!r})"

    @functools.cached_property  # asked for dozens of times per launch
    def root(self) -> str:
        return os.path.join(self.home, "runs", storage_key(self.run_id))

    @property
    def run_json(self) -> str:
        return os.path.join(self.root, "run.json")

    @property
    def snapshot(self) -> str:
        """The job's working directory: a copy of source_directory."""
        return os.path.join(self.root, "snapshot")

    @functools.cached_property
    def files(self) -> str:
        """What get_file_names lists: outputs/, logs/, user_logs/, system_logs/, uploads."""
        return os.path.join(self.root, "files")

    @property
    def user_logs(self) -> str:
        return os.path.join(self.files, "user_logs")

    @property
    def system_logs(self) -> str:
        return os.path.join(self.files, "system_logs")

    @property
    def metrics(self) -> str:
        return os.path.join(self.root, "metrics")

    @property
    def status(self) -> str:
        """Empty marker files ``rank_<r>_exit_<code>`` written by each rank's launcher."""
        return os.path.join(self.root, "status")

    @property
    def cancel_flag(self) -> str:
        """Created by ``cancel()`` from another process; the supervising process polls for it."""
        return os.path.join(self.root, "cancel_requested")

    @property
    def reserve(self) -> str:
        """Room set aside for the run's final writes, released when it ends (job.reserve)."""
        return os.path.join(self.root, ".reserve")

    @property
    def launcher_log(self) -> str:
        """Where mpiexec's output goes from its start: made in the run folder itself, so that only that folder is made
        before the launch; linked as files/system_logs/mpiexec.txt behind the gate, where the early name goes
        (create_rank_folders); a run that ended before its gate gets that done as it ends (settle_launcher_log)."""
        return os.path.join(self.root, ".mpiexec.txt")

    @property
    def launcher_log_beside(self) -> str:
        """Where mpiexec's output goes from its start when the run folder itself is made only behind the gate
        (job.start: ``folder_later``): beside it in runs/, under a hidden name, linked and removed like launcher_log
        (one its driver was killed too early to remove goes with a later listing: all_run_records)."""
        folder, name = os.path.split(self.root)
        return os.path.join(folder, f".{name}{EARLY_LOG_SUFFIX}")

    @property
    def launcher_log_file(self) -> str:
        """mpiexec's log as the run's files list it."""
        return os.path.join(self.system_logs, "mpiexec.txt")

    def create(self, ranks_later: bool = False) -> None:
        """Only what must exist before launch (the snapshot and metrics/ are made by their writers). Inside a job
        whose view of this store is read-only, its driver makes the folder (store_view). ``ranks_later``: only the
        run folder; files/ and what the ranks use (user_logs/, status/) are made by ``create_rank_folders`` (a launch
        does it behind its gate, while mpiexec starts: two folders fewer before it, 0.1-0.3 ms here)."""
        if os.environ.get("ACPT_ESTIMATOR_STORE_VIEW"):
            from .store_grants import protected, request

            if protected(self.home):
                request("run", run_id=self.run_id)
                return
        try:
            os.mkdir(self.root)
        except FileNotFoundError:  # the store's first run (runs/ is made once, not checked on every launch)
            make_runs_folder(self.home)
            os.mkdir(self.root)
        if not ranks_later:
            self.create_rank_folders()

    def create_rank_folders(self, early_log: str | None = None) -> None:
        """files/ with its logs' folders and status/, and mpiexec's log (``early_log``: launcher_log, or
        launcher_log_beside) linked into system_logs/."""
        early_log = early_log or self.launcher_log
        for folder in (self.files, self.system_logs, self.user_logs, self.status):
            with contextlib.suppress(FileExistsError):  # made whole by the driver of a job with a read-only store
                os.mkdir(folder)
        try:
            os.link(early_log, self.launcher_log_file)
        except FileNotFoundError:  # no launch yet: settle_launcher_log links it if one comes
            return
        except FileExistsError:  # linked already, or another file there (then both stay)
            if not _same_file(early_log, self.launcher_log_file):
                return
        # Its one name from now on: the early one goes here, behind the gate, not while the run ends (~0.04 ms then).
        with contextlib.suppress(FileNotFoundError):
            os.unlink(early_log)

    def settle_launcher_log(self, early_log: str | None = None) -> None:
        """mpiexec's log under its one name in files/ (linked there if the run ended before its gate opened), from
        ``early_log`` where the caller knows which early name the launch used, else from either."""
        for early_name in (early_log,) if early_log else (self.launcher_log, self.launcher_log_beside):
            try:
                early = os.lstat(early_name)
            except FileNotFoundError:
                continue
            # (Only a regular file: the ranks could have put a link under the early name by now.)
            if stat.S_ISREG(early.st_mode) and not os.path.lexists(self.launcher_log_file):
                os.makedirs(self.system_logs, exist_ok=True)
                with contextlib.suppress(OSError):
                    os.link(early_name, self.launcher_log_file)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(early_name)


def make_runs_folder(store_home: str) -> None:
    """The store's runs/, at its first run. A store folder made here (or found empty) is first marked for ext4 to
    place each folder made in it, runs/ among them, in a quiet part of the disk, away from where files were just
    removed (folder_spread says why), and runs/ is placed on trial where creations are quick (make_quiet_folder); a
    run folder then goes where runs/ lies, and its files with it. A folder that holds anything else already is left
    as it is: it may be the user's."""
    from . import folder_spread  # (only at a store's first run: not on the import path of a rank's Run)

    try:
        os.makedirs(store_home)
        ours = True
    except FileExistsError:
        ours = _empty_folder(store_home)
    runs = os.path.join(store_home, "runs")
    if ours and folder_spread.spread_subfolders(store_home):
        folder_spread.make_quiet_folder(runs)
    else:
        os.makedirs(runs, exist_ok=True)


def _empty_folder(path: str) -> bool:
    try:
        with os.scandir(path) as entries:
            return next(entries, None) is None
    except OSError:
        return False


def _same_file(first: str, second: str) -> bool:
    try:
        return os.path.samestat(os.lstat(first), os.lstat(second))
    except OSError:
        return False


def within(root: str, path: str) -> bool:
    """Whether ``path`` lies in ``root`` with no link on the way. After a job, its driver moves and writes files in
    the job's run folder, where the job may have left a link to another run's folder: that link is not followed."""
    relative = os.path.relpath(path, root)
    if relative == os.curdir:
        return True
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return False
    # Only what lies below root is the job's to change: lstat those components (realpath of both paths would
    # lstat every component from / up, ~0.3 ms per collected run on a journaling file system).
    current = root
    for part in relative.split(os.sep):
        current = os.path.join(current, part)
        try:
            if stat.S_ISLNK(os.lstat(current).st_mode):
                return False
        except FileNotFoundError:
            return True  # nothing further exists, so no link either
    return True


def run_paths(run_id: str, store_home: str | None = None) -> RunPaths:
    """The folders of a run by id; an id that is no v1 run id (``../x``, a newline) is refused, not joined."""
    return RunPaths(store_home or home(), check_name("run", run_id, parameter="run_id"))


def datastore_folder(store_home: str, datastore: str, path: str = "", parameter: str = "path_on_datastore") -> str:
    """Local stand-in for ``azureml://datastores/<datastore>/paths/<path>``; never a folder outside it."""
    check_name("datastore", datastore, parameter="datastore name")
    root = os.path.join(store_home, "datastores", datastore)
    return contained(root, path or "", parameter=parameter, what=f"datastore {datastore!r}",
                     fix="Pass a path inside the datastore, e.g. 'mnist/train'.")


def mlruns_folder(store_home: str) -> str:
    """MLflow's file store of stores written before mlflow.db (read only)."""
    return os.path.join(store_home, "mlruns")


def models_folder(store_home: str) -> str:
    return os.path.join(store_home, "models")


def write_json(path: str, data) -> None:
    """Write via a temporary file and rename, so readers never see half a file."""
    # dumps, no indent: only that uses the C encoder (launch overhead)
    atomic.write_text(path, json.dumps(data, default=str))


def read_json(path: str):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def all_run_records(store_home: str | None = None) -> list[dict]:
    """run.json of every run in the store (unreadable ones skipped), newest first."""
    runs_root = os.path.join(store_home or home(), "runs")
    records = []
    try:
        names = os.listdir(runs_root)
    except FileNotFoundError:
        return []
    for name in names:
        if name.startswith(".") and name.endswith(EARLY_LOG_SUFFIX):
            _remove_if_stale(runs_root, name)
            continue
        if name.startswith(SPARE_PREFIX):
            _remove_spare_if_stale(runs_root, name)
            continue
        try:
            records.append(read_json(os.path.join(runs_root, name, "run.json")))
        except (OSError, ValueError):
            continue
    records.sort(key=lambda r: r.get("createdTime") or 0, reverse=True)
    return records


def _remove_if_stale(runs_root: str, name: str) -> None:
    """mpiexec's early log beside a run folder that was never made (RunPaths.launcher_log_beside): its driver was
    killed in the ~0.1 ms between mpiexec's start and the folder's creation, and nothing else would ever remove it. A
    driver that is alive makes the folder (or discards the run, the log with it) at once: one older than a minute
    without its folder is left over."""
    early = os.path.join(runs_root, name)
    if os.path.lexists(os.path.join(runs_root, name[1:-len(EARLY_LOG_SUFFIX)])):
        return
    with contextlib.suppress(OSError):  # (gone meanwhile, or a read-only view of the store: a job's own listing)
        if time.time() - os.lstat(early).st_mtime > STALE_EARLY_LOG_SECONDS:
            os.unlink(early)


# Spare run folders (spare_folders.py) under runs/: .spare-<layout>-<slot>, and .spare-building-<pid>-<random> while
# one is made. Named here, with the store's other names under runs/, so that a listing knows them.
SPARE_PREFIX = ".spare-"
SPARE_LAYOUT = 1  # the skeleton's version: a package whose skeleton differs never claims another's
SPARE_BUILDING_PREFIX = ".spare-building-"
STALE_SPARE_SECONDS = 60.0  # a spare still being built after this long was left by a driver killed while making it


def _remove_spare_if_stale(runs_root: str, name: str) -> None:
    """A spare left half-built (its driver was killed while making it) once it is a minute old, and the spares of an
    older skeleton's layout; the others stay, to be claimed."""
    path = os.path.join(runs_root, name)
    if name.startswith(SPARE_BUILDING_PREFIX):
        with contextlib.suppress(OSError):
            if time.time() - os.lstat(path).st_mtime > STALE_SPARE_SECONDS:
                shutil.rmtree(path)
        return
    version = name[len(SPARE_PREFIX):].split("-", 1)[0]
    if version.isdigit() and int(version) < SPARE_LAYOUT:
        shutil.rmtree(path, ignore_errors=True)


RESERVE_BYTES = 64 * 1024  # kept free for the final record, the MLflow status and the error of a full disk


def reserve(paths: "RunPaths") -> None:
    """Set aside room for the run's last writes (released when the run ends); a full disk raises ENOSPC here."""
    reserve_file(paths.reserve)


def reserve_file(path: str) -> None:
    """reserve()'s file at ``path`` (also a spare run folder's: spare_folders).

    Written, not fallocated: a write is charged against the free space at once (ext4 and xfs reserve delayed blocks
    then), and a short job's file is removed before its blocks are ever allocated, which makes the removal ~6x
    cheaper (16 us against 98 us here; fallocated blocks must be freed through the journal)."""
    zeros = memoryview(bytes(RESERVE_BYTES))
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o644)
    try:
        while zeros:
            zeros = zeros[os.write(descriptor, zeros):]
    finally:
        os.close(descriptor)


def release_reserve(paths: "RunPaths") -> None:
    """The room set aside freed for the run's last writes (other than its record: the MLflow run's status). The
    emptied file stays: the final record is written into it (write_final_json), which spares creating a file as the
    run ends (0.1-0.4 ms here)."""
    handle = atomic.writable_regular_file(paths.reserve)  # (never through a link a job left in its place)
    if handle is not None:
        try:
            os.ftruncate(handle, 0)
        finally:
            os.close(handle)


def stage_final_json(paths: "RunPaths", data) -> atomic.StagedText:
    """write_json in two steps for a run's final record: written now (into the run's reserve where it is there, released
    or not: over its first bytes, the rest cut off; else beside run.json), in place at ``commit()``. Written over the
    reserve's zeros, a record up to RESERVE_BYTES long needs no more room on the disk, and costs ~50 us less than
    emptying the reserve and writing it anew (ext4 drops the emptied pages' reserved blocks, then reserves again)."""
    return atomic.StagedText(paths.run_json, json.dumps(data, default=str), into=paths.reserve)


def write_final_json(paths: "RunPaths", data) -> None:
    """write_json of a run's final record (stage_final_json); the reserve is gone afterwards either way."""
    stage_final_json(paths, data).commit()
    with contextlib.suppress(FileNotFoundError, IsADirectoryError):
        os.unlink(paths.reserve)  # where the record could not go into it


def disk_full_note(path: str) -> str:
    """A sentence when the disk holding ``path`` is (nearly) full: often why a rank or the run failed."""
    try:
        stats = os.statvfs(path)
    except OSError:
        return ""
    free = stats.f_bavail * stats.f_frsize
    if free >= 2 * RESERVE_BYTES:
        return ""
    return (f" The disk holding {path} is full ({free // 1024} KiB free): free some space (or point "
            "ACPT_ESTIMATOR_HOME at a larger disk) and run again.")


def describe_os_error(err: BaseException) -> str:
    """``err`` as text, naming a full disk plainly (ENOSPC reads as 'No space left on device')."""
    if isinstance(err, OSError) and err.errno in (errno.ENOSPC, errno.EDQUOT):
        where = f" writing {err.filename}" if err.filename else ""
        return f"the disk is full{where} ({err.strerror})"
    return str(err)
