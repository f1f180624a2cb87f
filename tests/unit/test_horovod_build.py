"""`acpt-estimator horovod build`: the C++17 patch, the cache key, the cached wheel and what is installed."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig

import pytest

from acpt_estimator import horovod_build as hb

MAIN_LISTS = "cmake_minimum_required(VERSION 3.13)\nset(CMAKE_CXX_STANDARD 14)\nset(CMAKE_CXX_STANDARD_REQUIRED ON)\n"
TORCH_LISTS = "if(HAVE_PYTORCH)\n    set(CMAKE_CXX_STANDARD 14)\nendif()\n"


def _sdist(root, torch_lists=TORCH_LISTS):
    (root / "horovod" / "torch").mkdir(parents=True)
    (root / "CMakeLists.txt").write_text(MAIN_LISTS)
    (root / "horovod" / "torch" / "CMakeLists.txt").write_text(torch_lists)


def test_patch_switches_both_cmake_files_to_cxx17(tmp_path):
    _sdist(tmp_path)
    assert hb.patch_sources(str(tmp_path)) == list(hb.PATCHED_FILES)
    assert "set(CMAKE_CXX_STANDARD 17)" in (tmp_path / "CMakeLists.txt").read_text()
    assert "set(CMAKE_CXX_STANDARD 14)" not in (tmp_path / "horovod" / "torch" / "CMakeLists.txt").read_text()
    assert hb.patch_sources(str(tmp_path)) == []  # already patched: nothing to do, no error


def test_patch_fails_loudly_when_the_sdist_changed(tmp_path):
    _sdist(tmp_path, torch_lists="# no standard here\n")
    with pytest.raises(hb.BuildError, match=r"horovod.torch.CMakeLists.txt .* has no 'set\(CMAKE_CXX_STANDARD 14\)'"):
        hb.patch_sources(str(tmp_path))


def test_cache_key_separates_everything_the_binary_links():
    keys = {hb.cache_key(t, m, "cp311", "x86_64") for t in ("2.13.0+cpu", "2.14.1") for m in ("mpich5.0.2", "nompi")}
    assert len(keys) == 4
    assert hb.cache_key("2.13.0+cpu", "mpich5.0.2", "cp311", "x86_64") == \
        "horovod-0.28.1-torch2.13.0+cpu-mpich5.0.2-cp311-x86_64"


def test_build_tools_found_here():
    cmake, extra = hb.find_cmake()
    assert extra == {} and (3, 13) <= hb._version_of(cmake) < (4, 0)  # a pip cmake 4 would break gloo
    mpicxx = hb.find_mpicxx(sys.executable)
    assert mpicxx == os.path.join(os.path.dirname(sys.executable), "mpicxx")  # the venv's MPICH, not the system's
    assert hb.mpi_identity(mpicxx).startswith("mpich")


def test_setup_built_cached_and_installed_the_wheel():
    """scripts/setup.sh ran the build: the cached wheel is the installed Horovod, and a second call only reuses it."""
    done = subprocess.run([sys.executable, "-m", "acpt_estimator.horovod_build", "horovod", "build", "--no-install"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    wheel = done.stdout.strip().splitlines()[-1]
    assert "using the cached Horovod wheel" in done.stdout and wheel.startswith(hb.cache_root())
    assert os.path.basename(os.path.dirname(wheel)).startswith("horovod-0.28.1-torch2.13.0")
    assert hb.installed_matches(sysconfig.get_paths()["platlib"], wheel)
    assert {r.split()[0].split(">")[0].split("=")[0] for r in hb.wheel_requirements(wheel)} >= {"cloudpickle", "psutil"}
