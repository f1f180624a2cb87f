"""The files of a source directory that a job sees, for both backends: one listing, made with the uploader's own
rules (azure-ai-ml: .amlignore else .gitignore, the last matching pattern decides, negations included), holding
only regular files; links are never followed out of the folder, and nothing else is ever opened."""

from __future__ import annotations

import errno
import os
import shutil
import stat
import warnings

import attrs

from .exceptions import ExperimentExecutionException, SnapshotException
from .paths import is_inside

IGNORE_FILES = (".amlignore", ".gitignore")
DANGLING = "dangling symbolic link"
_KINDS = ((stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device"), (stat.S_ISFIFO, "FIFO (named pipe)"),
          (stat.S_ISSOCK, "socket"))


@attrs.frozen
class Listing:
    """``files`` (relative POSIX paths, sorted) with their apparent ``sizes``; what a snapshot cannot hold:
    ``outside`` (links leading out of the folder) and ``refused`` ((path, what): devices, FIFOs, sockets, dangling
    links, link loops)."""

    files: list
    sizes: dict
    outside: list
    refused: list

    @property
    def total_bytes(self) -> int:
        return sum(self.sizes.values())


def ignore_spec(source_directory: str) -> "pathspec.PathSpec | None":  # noqa: F821 - imported when needed
    """The first of .amlignore/.gitignore at the root, read as azure-ai-ml reads it (UTF-8 with an optional BOM,
    one gitwildmatch pattern per line, later lines win); None without one."""
    for name in IGNORE_FILES:
        path = os.path.join(source_directory, name)
        if os.path.isfile(path):
            try:
                with open(path, encoding="utf-8-sig") as handle:
                    lines = [line.rstrip() for line in handle if line]
            except UnicodeDecodeError as err:
                raise SnapshotException(
                    f"{path} is not a text file (byte {err.start} is not UTF-8), so nobody can tell which files it "
                    f"leaves out of the snapshot. Save it as UTF-8 text with one pattern per line (e.g. 'data/'), "
                    "or delete it.") from None
            # pathspec only here: a snapshot without an ignore file (most local runs) skips its ~15 ms import.
            import pathspec
            from pathspec.patterns.gitwildmatch import GitWildMatchPattern

            with warnings.catch_warnings():  # azure-ai-ml's own pattern class, deprecated by pathspec 1.x
                warnings.simplefilter("ignore", DeprecationWarning)
                return pathspec.PathSpec([GitWildMatchPattern(line) for line in lines])
    return None


def local_store_inside(source_directory: str) -> str | None:
    """The local run store's folder relative to ``source_directory`` ('.acpt/'), when it lies inside it.

    Running a driver from its own project folder puts ./.acpt there; a snapshot must never carry earlier runs.
    """
    store = os.path.abspath(os.environ.get("ACPT_ESTIMATOR_HOME") or ".acpt")
    rel = os.path.relpath(store, os.path.abspath(source_directory)).replace(os.sep, "/")
    return None if rel == "." or rel.startswith("../") else rel + "/"


def list_snapshot(source_directory: str) -> Listing:
    """The one listing of the snapshot: what the upload sends and a local run copies (azure-ai-ml walks linked
    folders and matches their files by their real path; so does this)."""
    spec = ignore_spec(source_directory)
    # Without negations an ignored folder holds only ignored files: skip it (node_modules, .git) unread.
    prune = spec is None or not any(p.include is False for p in spec.patterns)
    real_root = os.path.realpath(source_directory)
    walker = _Walker(source_directory, real_root, spec, prune, local_store_inside(source_directory))
    walker.walk("", real_root, (real_root,))
    return Listing(sorted(walker.files), walker.sizes, sorted(walker.outside), sorted(walker.refused))


@attrs.define
class _Walker:
    root: str
    real_root: str
    spec: "pathspec.PathSpec | None"  # noqa: F821
    prune: bool
    store: str | None
    files: list = attrs.Factory(list)
    sizes: dict = attrs.Factory(dict)
    outside: list = attrs.Factory(list)
    refused: list = attrs.Factory(list)

    def _ignored(self, real_dir: str, name: str, folder: bool = False) -> bool:
        if self.spec is None:
            return False
        rel = os.path.relpath(os.path.join(real_dir, name), self.real_root).replace(os.sep, "/")
        return self.spec.match_file(rel + ("/" if folder else ""))

    def walk(self, rel_dir: str, real_dir: str, ancestors: tuple) -> None:
        with os.scandir(os.path.join(self.root, rel_dir) if rel_dir else self.root) as entries:
            names = sorted((entry.name, entry.is_symlink()) for entry in entries)
        for name, is_link in names:
            rel = rel_dir + name
            path = os.path.join(self.root, rel)
            try:
                info = os.stat(path)  # through a link: what an upload would read
            except OSError as err:
                if not self._ignored(real_dir, name):
                    self.refused.append((rel, _unreadable(path, err, is_link)))
                continue
            if stat.S_ISDIR(info.st_mode):
                self._folder(rel, name, path, real_dir, is_link, ancestors)
            elif self._ignored(real_dir, name):
                continue
            elif is_link and not is_inside(self.real_root, path, base_is_real=True):
                self.outside.append(rel)
            elif stat.S_ISREG(info.st_mode):
                self.files.append(rel)
                self.sizes[rel] = info.st_size  # apparent size: a sparse file uploads (and copies) in full
            else:
                kind = next(what for test, what in _KINDS if test(info.st_mode))
                self.refused.append((rel, kind + (" (through a symbolic link)" if is_link else "")))

    def _folder(self, rel, name, path, real_dir, is_link, ancestors) -> None:
        if self.store is not None and rel + "/" == self.store:
            return
        if is_link and not is_inside(self.real_root, path, base_is_real=True):
            # Named even when ignored: azure-ai-ml walks linked folders and matches their files by their real
            # path (outside, so no pattern matches), uploading them whatever the ignore file says.
            self.outside.append(rel)
            return
        if not is_link and self.prune and self._ignored(real_dir, name, folder=True):
            return
        real = os.path.realpath(path)
        if real in ancestors:
            self.refused.append((rel, f"symbolic link loop (it leads back to {os.readlink(path)!r})"))
            return
        self.walk(rel + "/", real, ancestors + (real,))


def _unreadable(path: str, err: OSError, is_link: bool) -> str:
    if is_link and err.errno == errno.ELOOP:
        return "symbolic link loop"
    if is_link and err.errno == errno.ENOENT:
        return f"{DANGLING} {path} -> {os.readlink(path)!r}, which does not exist"
    return f"unreadable ({os.strerror(err.errno or 0)})"


def snapshot_files(source_directory: str) -> list[str]:
    """Relative POSIX paths of the regular files in the snapshot, sorted."""
    return list_snapshot(source_directory).files


def copy_snapshot(source_directory: str, destination: str, files: list[str] | None = None) -> list[str]:
    """Copy ``files`` (the checked listing; by default listed now) into ``destination`` (created): content and mode
    of regular files only, never through a link that now leads out; the source tree is only read."""
    files = snapshot_files(source_directory) if files is None else files
    os.makedirs(destination, exist_ok=True)
    real_root, made = os.path.realpath(source_directory), {destination}
    for rel in files:
        target = os.path.join(destination, rel)
        folder = os.path.dirname(target)
        if folder not in made:
            os.makedirs(folder, exist_ok=True)
            made.add(folder)
        path = os.path.join(source_directory, rel)
        if not is_inside(real_root, path, base_is_real=True) or not _copy_regular(path, target):
            raise ExperimentExecutionException(  # changed since it was checked: copy nothing but what was checked
                f"{path} changed while the snapshot was taken (it is no longer a regular file inside "
                f"source_directory); submit again, or list it in .amlignore.")
    return files


def _copy_regular(path: str, target: str) -> bool:
    """``path``'s content and mode into a new ``target``, if ``path`` is a regular file (opened without waiting: a
    FIFO put in its place is never read); False, with nothing made, if it is not. Descriptors and sendfile: a few
    system calls per file, where shutil.copyfile and copymode make about twice as many (a snapshot copy's cost is
    its files' count)."""
    source = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(source)
        if not stat.S_ISREG(info.st_mode):
            return False
        mode = stat.S_IMODE(info.st_mode)
        copy = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, mode)
        try:
            if stat.S_IMODE(os.fstat(copy).st_mode) != mode:  # the umask took bits away: the source's mode, as copymode
                os.fchmod(copy, mode)
            _copy_content(source, copy, info.st_size)
        finally:
            os.close(copy)
        return True
    finally:
        os.close(source)


def _copy_content(source: int, copy: int, size: int) -> None:
    try:
        while os.sendfile(copy, source, None, max(size, 1 << 20)):
            pass
    except OSError as err:
        if err.errno not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
            raise
        for descriptor in (source, copy):  # (where sendfile cannot; from the start, whatever it did copy)
            os.lseek(descriptor, 0, os.SEEK_SET)
        os.ftruncate(copy, 0)
        with os.fdopen(source, "rb", closefd=False) as reader, os.fdopen(copy, "wb", closefd=False) as writer:
            shutil.copyfileobj(reader, writer)
