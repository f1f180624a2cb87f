"""Atomic writes of the local store: a staged text is invisible until committed, and leaves nothing when dropped."""

from __future__ import annotations

import os

from acpt_estimator.backends.local import atomic


def test_a_staged_text_replaces_the_file_only_at_commit(tmp_path):
    dest = tmp_path / "run.json"
    dest.write_text("old")
    staged = atomic.StagedText(str(dest), "new")
    assert dest.read_text() == "old"  # readers still see the old version
    assert os.path.basename(staged.tmp).startswith(f".run.json.{os.getpid()}.")  # clean_stale knows a dead writer's
    staged.commit()
    assert dest.read_text() == "new"
    assert os.listdir(tmp_path) == ["run.json"]  # the swapped-out version is gone


def test_a_commit_holding_the_old_version_leaves_only_the_new_name_and_a_descriptor_of_the_old(tmp_path):
    """hold_old: the old version's name goes at the commit (a caller may remove the folder right after), its file
    stays readable through the descriptor until the caller closes it."""
    dest = tmp_path / "run.json"
    dest.write_text("old")
    held = atomic.StagedText(str(dest), "new").commit(hold_old=True)
    try:
        assert os.listdir(tmp_path) == ["run.json"] and dest.read_text() == "new"
        assert os.pread(held, 16, 0) == b"old" and os.fstat(held).st_nlink == 0
    finally:
        os.close(held)
    assert atomic.StagedText(str(tmp_path / "new.json"), "first").commit(hold_old=True) is None  # nothing swapped


def test_a_commit_over_a_folder_in_the_files_place_stands_and_leaves_the_folder_unfollowed(tmp_path):
    """A job with write access put a folder where its record was: the record is committed all the same (the
    waiting driver's in-memory record must follow it), the folder stays under the temporary name, untouched."""
    dest = tmp_path / "run.json"
    dest.mkdir()
    (dest / "inside.txt").write_text("kept")
    staged = atomic.StagedText(str(dest), "new")
    held = staged.commit(hold_old=True)
    try:
        assert dest.read_text() == "new"
        assert (tmp_path / os.path.basename(staged.tmp) / "inside.txt").read_text() == "kept"
    finally:
        if held is not None:
            os.close(held)


def test_a_staged_text_commits_where_there_was_no_file_and_a_dropped_one_leaves_nothing(tmp_path):
    first = atomic.StagedText(str(tmp_path / "a.json"), "a")
    first.commit()
    assert (tmp_path / "a.json").read_text() == "a"
    dropped = atomic.StagedText(str(tmp_path / "a.json"), "b")
    dropped.discard()
    assert (tmp_path / "a.json").read_text() == "a"
    assert os.listdir(tmp_path) == ["a.json"]


def test_write_text_is_a_staged_text_committed_at_once(tmp_path):
    dest = tmp_path / "record.json"
    for text in ("one", "two"):
        atomic.write_text(str(dest), text)
        assert dest.read_text() == text
    assert os.listdir(tmp_path) == ["record.json"]


def test_a_staged_text_goes_into_a_given_regular_file_and_leaves_no_temporary(tmp_path):
    dest, slot = tmp_path / "run.json", tmp_path / ".reserve"
    dest.write_text("old")
    slot.write_bytes(bytes(65536))  # the run's reserve, released (emptied) by the write
    staged = atomic.StagedText(str(dest), "new", into=str(slot))
    assert staged.tmp == str(slot) and slot.read_text() == "new" and dest.read_text() == "old"
    staged.commit()
    assert dest.read_text() == "new" and sorted(os.listdir(tmp_path)) == ["run.json"]


def test_a_given_file_that_is_no_regular_file_is_left_alone_and_a_temporary_used(tmp_path):
    """What a job may have left in its run folder in the reserve's place: never followed, opened or blocked on."""
    other = tmp_path / "other.json"
    other.write_text("someone else's")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "folder").mkdir()
    os.symlink(other, tmp_path / "link")
    os.link(other, tmp_path / "hardlink")  # a second name of a file: writing into it would change that file
    for name in ("fifo", "folder", "link", "hardlink", "missing"):
        dest = tmp_path / f"{name}.json"
        staged = atomic.StagedText(str(dest), name, into=str(tmp_path / name))
        assert staged.tmp != str(tmp_path / name) and os.path.basename(staged.tmp).startswith(f".{name}.json.")
        staged.commit()
        assert dest.read_text() == name
    assert other.read_text() == "someone else's"


def test_a_rename_unless_there_never_replaces_even_an_empty_folder(tmp_path):
    source, dest = tmp_path / "made", tmp_path / "runs"
    source.mkdir()
    dest.mkdir()
    assert atomic.renamed_unless_there(str(source), str(dest)) is False  # (None only without renameat2)
    assert source.is_dir() and dest.is_dir()
    dest.rmdir()
    assert atomic.renamed_unless_there(str(source), str(dest)) is True
    assert dest.is_dir() and not source.exists()
