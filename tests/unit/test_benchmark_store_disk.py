"""benchmarks/store_disk.py: how the local-launch benchmark names the disk under its run store."""

from __future__ import annotations

import importlib.util
import os

import pytest

_PATH = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "benchmarks", "store_disk.py")
_spec = importlib.util.spec_from_file_location("store_disk", _PATH)
store_disk = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(store_disk)


@pytest.mark.skipif(not os.path.isdir("/dev/shm"), reason="needs /dev/shm")
def test_a_store_in_dev_shm_is_on_tmpfs():
    assert store_disk.describe("/dev/shm") == "tmpfs"


def test_a_path_that_is_not_there_is_not_described(tmp_path):
    assert store_disk.describe(str(tmp_path / "gone")) == ""


@pytest.mark.parametrize("journals, expected", [
    (["vda-8"], True),  # an internal journal: jbd2 names it by device and inode
    (["loop1-8", "vdb-8"], False),  # other devices' journals
    (["vda1-8"], False),  # a partition of the same disk is another device
    ([], False),
])
def test_an_ext4_has_a_journal_where_jbd2_runs_one_for_its_device(monkeypatch, journals, expected):
    monkeypatch.setattr(store_disk.os, "listdir", lambda path: journals)
    assert store_disk._has_journal("vda") is expected


def test_without_a_journal_is_told_only_of_ext4_without_one():
    assert store_disk.without_journal("ext4 without a journal (vda)")
    assert not store_disk.without_journal("ext4 with a journal (vda)")
    assert not store_disk.without_journal("tmpfs")
