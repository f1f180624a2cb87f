"""The local store under concurrent writers from several processes (issue 15): no torn files, no lost versions."""

from __future__ import annotations

import multiprocessing
import os

import pytest

pytestmark = pytest.mark.integration
_FORK = multiprocessing.get_context("fork")


@pytest.fixture()
def store(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / ".acpt"))
    monkeypatch.setenv("ACPT_ESTIMATOR_TARGET", "local")
    return tmp_path


def _in_processes(target, count: int, *args) -> list:
    """Run ``target(index, barrier, queue, *args)`` in ``count`` processes started together; their results."""
    barrier, queue = _FORK.Barrier(count), _FORK.Queue()
    procs = [_FORK.Process(target=target, args=(i, barrier, queue) + args) for i in range(count)]
    for proc in procs:
        proc.start()
    results = [queue.get(timeout=60) for _ in procs]
    for proc in procs:
        proc.join(60)
    return sorted(results, key=str)


def _register(index, barrier, queue):
    from acpt_estimator.v1.core.dataset import Dataset
    from acpt_estimator.v1.core.workspace import Workspace

    ws = Workspace.from_config()
    dataset = Dataset.File.from_files(path=(ws.get_default_datastore(), f"part{index}/**"))
    barrier.wait()
    try:
        queue.put(("ok", dataset.register(ws, "shared", create_new_version=True).version))
    except Exception as err:  # noqa: BLE001 - reported to the test
        queue.put(("error", repr(err)))


def test_concurrent_registrations_of_new_versions_all_succeed_with_distinct_versions(store):
    from acpt_estimator.v1.core.dataset import Dataset
    from acpt_estimator.v1.core.workspace import Workspace

    ws = Workspace.from_config()
    for index in range(4):
        (store / f"p{index}").mkdir()
        (store / f"p{index}" / "x.txt").write_text(str(index))
        ws.get_default_datastore().upload(str(store / f"p{index}"), target_path=f"part{index}", show_progress=False)
    results = _in_processes(_register, 4)
    assert [status for status, _ in results] == ["ok"] * 4, results
    assert sorted(int(version) for _, version in results) == [1, 2, 3, 4]
    assert Dataset.get_by_name(ws, "shared").version == "4"


def _upload(index, barrier, queue, store):
    from acpt_estimator.v1.core.workspace import Workspace

    ds = Workspace.from_config().get_default_datastore()
    barrier.wait()
    for _ in range(5):
        ds.upload(os.path.join(store, f"src{index}"), target_path="same", overwrite=True, show_progress=False)
    queue.put(index)


def _read_uploads(index, barrier, queue, path):
    """Read the uploaded file over and over: every read must be one whole upload."""
    barrier.wait()
    torn = 0
    for _ in range(400):
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except FileNotFoundError:
            continue
        torn += data not in (b"\0" * _SIZE, b"\1" * _SIZE)
    queue.put(("torn reads", torn))


_SIZE = 8 * 1024 * 1024


def test_concurrent_overwriting_uploads_leave_one_whole_file_and_readers_never_see_a_torn_one(store):
    for index in range(2):
        (store / f"src{index}").mkdir()
        (store / f"src{index}" / "big.bin").write_bytes(bytes([index]) * _SIZE)
    target = store / ".acpt/datastores/workspaceblobstore/same/big.bin"
    target.parent.mkdir(parents=True)
    target.write_bytes(b"\0" * _SIZE)
    barrier, queue = _FORK.Barrier(3), _FORK.Queue()
    procs = [_FORK.Process(target=_upload, args=(i, barrier, queue, str(store))) for i in range(2)]
    procs.append(_FORK.Process(target=_read_uploads, args=(2, barrier, queue, str(target))))
    for proc in procs:
        proc.start()
    results = sorted((queue.get(timeout=120) for _ in procs), key=str)
    for proc in procs:
        proc.join(60)
    assert results == [("torn reads", 0), 0, 1]
    assert target.read_bytes() in (b"\0" * _SIZE, b"\1" * _SIZE)
    assert os.listdir(target.parent) == ["big.bin"]  # no temporary file left


def _register_models(index, barrier, queue, files_dir):
    from acpt_estimator.backends.local import models

    barrier.wait()
    for _ in range(5):
        models.register(store_home=os.environ["ACPT_ESTIMATOR_HOME"], run_id="r_1_abcdef01", experiment_name="e",
                        files_dir=files_dir, file_names=[], model_name="m", model_path="outputs")
    queue.put(index)


def _watch(index, barrier, queue, folder):
    barrier.wait()
    torn = set()
    for _ in range(3000):
        for version in os.listdir(folder) if os.path.isdir(folder) else ():
            if version.isdigit() and not os.path.isfile(os.path.join(folder, version, "model.json")):
                torn.add(version)
    queue.put(("watcher", sorted(torn)))


def test_a_reader_never_sees_a_model_version_without_model_json(store):
    files = store / "files" / "outputs"
    files.mkdir(parents=True)
    for i in range(200):
        (files / f"shard{i}.bin").write_bytes(b"x" * 4096)
    folder = str(store / ".acpt" / "models" / "m")
    barrier, queue = _FORK.Barrier(3), _FORK.Queue()
    procs = [_FORK.Process(target=_register_models, args=(i, barrier, queue, str(store / "files"))) for i in range(2)]
    procs.append(_FORK.Process(target=_watch, args=(2, barrier, queue, folder)))
    for proc in procs:
        proc.start()
    results = sorted((queue.get(timeout=120) for _ in procs), key=str)
    for proc in procs:
        proc.join(60)
    assert results == [("watcher", []), 0, 1]  # both registered everything; no torn version seen
    assert sorted(int(v) for v in os.listdir(folder) if v.isdigit()) == list(range(1, 11))
