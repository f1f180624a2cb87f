"""``import horovod`` in jobs: the real Horovod when installed (init guarded), else the layer; environment parsing."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

from acpt_estimator.job_runtime import RUNTIME_DIR

HOROVOD_DIR = os.path.join(RUNTIME_DIR, "horovod")


def _load(name: str):
    """A runtime helper module by path: importing the ``horovod`` package here would run the selection."""
    spec = importlib.util.spec_from_file_location(f"_test_{name}", os.path.join(HOROVOD_DIR, f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


topology_mod, select_mod = _load("_topology"), _load("_select")


PROBE = """
import horovod
if getattr(horovod, "_acpt_layer", False):
    print("layer", horovod.__file__, "-")
else:
    from horovod.common.basics import HorovodBasics
    print("real", horovod.__file__, getattr(HorovodBasics.init, "_acpt_guarded", False))
"""


def _import_horovod(*flags, mode=None) -> subprocess.CompletedProcess:
    """`import horovod` in a fresh interpreter with the job runtime first on PYTHONPATH, as in a job."""
    env = {k: v for k, v in os.environ.items() if k != select_mod.MODE_VAR}
    env["PYTHONPATH"] = RUNTIME_DIR
    if mode is not None:
        env[select_mod.MODE_VAR] = mode
    return subprocess.run([sys.executable, *flags, "-c", PROBE], env=env, capture_output=True, text=True, timeout=60)


def test_installed_horovod_is_served_with_a_guarded_init():
    done = _import_horovod()
    assert done.returncode == 0, done.stderr
    kind, path, guarded = done.stdout.split()
    assert kind == "real" and not path.startswith(RUNTIME_DIR) and "site-packages" in path and guarded == "True"


def test_layer_when_no_horovod_is_installed():
    done = _import_horovod("-S")  # no site-packages: like an ACPT image, which ships no Horovod
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["layer", os.path.join(HOROVOD_DIR, "__init__.py"), "-"]


def test_layer_on_request_even_with_horovod_installed():
    done = _import_horovod(mode="layer")
    assert done.stdout.split()[0] == "layer", done.stderr


def test_real_on_request_without_horovod_says_how_to_build_it():
    done = _import_horovod("-S", mode="real")
    assert done.returncode == 1
    assert "ACPT_ESTIMATOR_HOROVOD=real but no horovod is installed" in done.stderr
    assert "acpt-estimator horovod build" in done.stderr


def test_unknown_mode_is_refused_with_the_choices():
    done = _import_horovod(mode="fast")
    assert "ACPT_ESTIMATOR_HOROVOD='fast' is not one of auto, layer, real" in done.stderr


def test_find_real_skips_its_own_folder_and_namespace_folders(tmp_path):
    (tmp_path / "bare" / "horovod").mkdir(parents=True)  # no __init__.py: not an installed package
    installed = tmp_path / "site" / "horovod"
    (installed / "torch").mkdir(parents=True)
    (installed / "__init__.py").write_text("")
    assert select_mod.find_real([RUNTIME_DIR, str(tmp_path / "bare")], RUNTIME_DIR) is None
    spec = select_mod.find_real([RUNTIME_DIR, str(tmp_path / "bare"), str(tmp_path / "site")], RUNTIME_DIR)
    assert spec.origin == str(installed / "__init__.py")
    assert not select_mod.has_torch_extension(spec)  # auto mode then keeps the layer
    (installed / "torch" / "mpi_lib_v2.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    assert select_mod.has_torch_extension(spec)


@pytest.mark.parametrize("env, expected", [
    ({}, (0, 1, 0, 1, 0, 1)),
    ({"RANK": "3", "WORLD_SIZE": "4", "LOCAL_RANK": "1", "LOCAL_WORLD_SIZE": "2", "NODE_RANK": "1"},
     (3, 4, 1, 2, 1, 2)),
    ({"OMPI_COMM_WORLD_RANK": "2", "OMPI_COMM_WORLD_SIZE": "4", "OMPI_COMM_WORLD_LOCAL_RANK": "0",
      "OMPI_COMM_WORLD_LOCAL_SIZE": "2"}, (2, 4, 0, 2, 1, 2)),
    ({"PMI_RANK": "1", "PMI_SIZE": "2", "MPI_LOCALRANKID": "1", "MPI_LOCALNRANKS": "2"}, (1, 2, 1, 2, 0, 1)),
    ({"PMI_RANK": "5", "PMI_SIZE": "6"}, (5, 6, 5, 6, 0, 1)),  # no per-node layout: one node
])
def test_topology_from_each_launchers_variables(env, expected):
    assert tuple(topology_mod.topology(env))[:6] == expected


def test_topology_errors_name_the_variable():
    with pytest.raises(ValueError, match="RANK='x' is not an integer"):
        topology_mod.topology({"RANK": "x", "WORLD_SIZE": "2"})
    with pytest.raises(ValueError, match=r"rank 2 \(from RANK\) is outside the world size 2"):
        topology_mod.topology({"RANK": "2", "WORLD_SIZE": "2"})


def test_master_address_prefers_explicit_variables():
    assert topology_mod.master_address({"MASTER_ADDR": "10.0.0.4", "MASTER_PORT": "6000",
                                        "AZ_BATCH_MASTER_NODE": "localhost:6105"}) == ("10.0.0.4", 6000)
    assert topology_mod.master_address({"AZ_BATCHAI_MPI_MASTER_NODE": "10.0.0.5",
                                        "AZ_BATCH_MASTER_NODE": "localhost:6105"}) == ("10.0.0.5", 6105)
    assert topology_mod.master_address({"AZ_BATCH_MASTER_NODE": "10.0.0.6:7000"}) == ("10.0.0.6", 7000)
    assert topology_mod.master_address({}) == (None, None)
    assert topology_mod.expected_world_size({"PMI_SIZE": "4", "WORLD_SIZE": "4"}) == 4
    assert topology_mod.expected_world_size({}) == 1
