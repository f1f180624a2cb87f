#!/usr/bin/env bash
# Create .venv/ (if missing) with the package and its dev/test dependencies; re-runs only when setup inputs change.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
# musl-gcc (Debian: musl-tools) builds the per-rank launcher without glibc's start-up CPU probe, which traps to the
# hypervisor on a VM (native.py): ~0.3 ms sooner per rank. Optional (the system's cc builds it otherwise): installed
# here only where this runs as root with apt.
if ! command -v musl-gcc >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq musl-tools; } >/dev/null 2>&1 ||
    echo "setup: musl-tools could not be installed; the rank launcher is built with cc" >&2
fi
stamp=.venv/.acpt-setup-stamp
want=$(cat setup.cfg pyproject.toml constraints.txt scripts/setup.sh | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  pip() { .venv/bin/python -m pip --disable-pip-version-check -q "$@"; }
  # constraints.txt pins torch==2.13.0 (the local CPU build); every install that could pull torch passes it.
  pip install -c constraints.txt --upgrade "pip>=24"   # pip 23.2's resolver fails on azure-ai-ml's tree
  pip install -c constraints.txt "torch==2.13.0" wheel
  pip install -c constraints.txt -e ".[azure,data,local,onnx,sweep,test]"
  echo "$want" > "$stamp"
fi
# Horovod 0.28.1 built against this torch (C++17 fix; runtime.md §2): compiled once per torch + MPI + Python
# (3-5 min on 2 cores), the wheel cached in ~/.cache/acpt-estimator/wheels (ACPT_ESTIMATOR_CACHE) and only
# reinstalled afterwards. Own stamp, so setup.cfg edits do not redo it; rerun if horovod went missing.
hstamp=.venv/.acpt-horovod-stamp
hwant=$(cat acpt_estimator/horovod_build.py constraints.txt | sha256sum | cut -d' ' -f1)
if [ "$(cat "$hstamp" 2>/dev/null)" != "$hwant" ] || [ ! -d "$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')/horovod" ]; then
  .venv/bin/python -m acpt_estimator.horovod_build horovod build -c constraints.txt
  echo "$hwant" > "$hstamp"
fi
