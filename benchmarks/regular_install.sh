#!/usr/bin/env bash
# benchmarks/local_launch_overhead.py against a regular (not editable) install of this checkout, as users have it.
#   bash benchmarks/regular_install.sh [VENV] [local_launch_overhead.py options]
# VENV (default: $TMPDIR/acpt-bench-venv) is made if missing and gets this checkout, its local extra (MPICH) and
# torch (the whole-driver sample trains with it) through constraints.txt, then the benchmark runs from outside the
# checkout, so the installed package is the one imported.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
venv=${1:-${TMPDIR:-/tmp}/acpt-bench-venv}
[ $# -gt 0 ] && shift
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -c "$repo/constraints.txt" "torch==2.13.0" \
  "$repo[local]"
cd "$venv"
exec "$venv/bin/python" "$repo/benchmarks/local_launch_overhead.py" "$@"
