"""A whole v1 driver of a trivial 2-rank job under two (or more) checkouts, interleaved run by run with plain mpiexec.

What a driver process costs around its job (interpreter start, the v1 imports, submit, wait, metrics, download,
register, exit), with ranks too short to hide it: each round runs, in rotating order, the driver of
``samples/pytorch_mpi_local`` (its lines, a one-line training script instead of DDP) once per checkout, each a fresh
``python driver.py`` with ``PYTHONPATH=<checkout>:<checkout>/compat``, and the same ranks under plain ``mpiexec``
with the variables the job gives them. It prints each checkout's overhead over plain (median of the per-round
differences) and the median of the per-round ratios; the difference between checkouts is what a change saved.

    python benchmarks/driver_ab.py [--rounds 60] OLD_CHECKOUT NEW_CHECKOUT [...]

(make OLD_CHECKOUT with ``git worktree add /tmp/old <commit>``; bytecode is compiled first in every checkout).
"""

from __future__ import annotations

import compileall
import os
import subprocess
import sys
import tempfile
import time

from ab_rounds import interleave, parse_checkouts, report

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE_DRIVER = os.path.join(HERE, os.pardir, "samples", "pytorch_mpi_local", "driver.py")
TRAIN = '''import os
from acpt_estimator.v1.core.run import Run

rank = int(os.environ["OMPI_COMM_WORLD_RANK"])
run = Run.get_context()
run.log("loss", 0.5)
if rank == 0:
    run.log("params_in_sync", 1)
    os.makedirs("outputs", exist_ok=True)
    with open("outputs/model.pt", "wb") as handle:
        handle.write(b"weights")
print("rank", rank, flush=True)
'''


def main() -> None:
    args = parse_checkouts(__doc__.splitlines()[0], "acpt_estimator/ and compat/", rounds=60)
    checkouts = [os.path.abspath(c) for c in args.checkouts]
    for checkout in checkouts:
        for folder in ("acpt_estimator", "compat"):
            compileall.compile_dir(os.path.join(checkout, folder), quiet=2)
    with tempfile.TemporaryDirectory(prefix="acpt-driver-ab-") as scratch:
        driver = _write_job(scratch)
        runs = [_driver_run(scratch, driver, index, checkout) for index, checkout in enumerate(checkouts)]
        runs.append(_plain_run(scratch, checkouts[0]))
        for run in runs:  # warm-up: page cache, the C helpers' builds, the launcher's probe
            run(), run()
        rows = interleave(runs, args.rounds)
    report(rows, checkouts, len(runs) - 1, "plain mpiexec (same ranks)", "driver overhead over plain")


def _write_job(scratch: str) -> str:
    """The sample's driver with its script parameters cut to --rank, beside a one-line training script."""
    source = os.path.join(scratch, "src")
    os.makedirs(source)
    with open(os.path.join(source, "train.py"), "w", encoding="utf-8") as handle:
        handle.write(TRAIN)
    with open(SAMPLE_DRIVER, encoding="utf-8") as handle:
        text = handle.read().replace('"--epochs": args.epochs, "--lr": 0.05, ', "")
    path = os.path.join(scratch, "driver.py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    return path


def _environment(checkout: str, store: str) -> dict:
    env = dict(os.environ, ACPT_ESTIMATOR_TARGET="local", ACPT_ESTIMATOR_HOME=store,
               PYTHONPATH=os.pathsep.join([checkout, os.path.join(checkout, "compat")]))
    return env


def _driver_run(scratch: str, driver: str, index: int, checkout: str):
    cwd = os.path.join(scratch, f"driver-{index}")
    os.makedirs(cwd)
    env = _environment(checkout, os.path.join(scratch, f"store-{index}"))
    return lambda: _timed([sys.executable, driver], cwd, env)


def _plain_run(scratch: str, checkout: str):
    """The ranks as the job runs them (launch.job_environment's MPI-era variables), under plain mpiexec."""
    from acpt_estimator.backends.local.job import _free_port
    from acpt_estimator.backends.local.mpi import find_launcher

    mpiexec = find_launcher().path
    cwd = os.path.join(scratch, "src")
    env = _environment(checkout, os.path.join(scratch, "store-plain"))

    def run() -> float:
        argv = [mpiexec]
        for rank in range(2):
            argv += ([":"] if rank else []) + [
                "-n", "1", "-env", "OMPI_COMM_WORLD_RANK", str(rank), "-env", "OMPI_COMM_WORLD_SIZE", "2",
                "-env", "AZ_BATCH_MASTER_NODE", f"127.0.0.1:{_free_port()}", "-env", "PYTHONUNBUFFERED", "1",
                sys.executable, "train.py", "--rank", str(rank)]
        return _timed(argv, cwd, env)

    return run


def _timed(argv, cwd: str, env: dict) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{argv[:2]} failed ({done.returncode}):\n{done.stdout[-3000:]}")
    return elapsed


if __name__ == "__main__":
    main()
