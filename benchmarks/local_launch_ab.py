"""A trivial 2-rank local job under two (or more) checkouts of the package, interleaved job by job with plain mpiexec.

The machine's speed drifts by a third within minutes, so comparing two versions run one after the other says
little. Here worker processes (``PYTHONPATH=<checkout>``) wait for a command; the script asks each in turn for one
``exp.submit + wait_for_completion`` and one of them for a plain ``mpiexec -n 2 python script.py`` (each worker in
turn), the order rotating every round, and prints each checkout's overhead over plain (median of the per-round
differences) and the median of the per-round ratios.

Each checkout runs in ``--copies`` workers (2 by default), each with a run store of its own, and the script prints
each copy's overhead and how far copies of one checkout lie apart: a difference between checkouts smaller than that
says nothing. Two workers running the same code differed by 0.05-0.12 ms a job here over 800-4000 rounds, on tmpfs
too, while every plain run went through the first worker (as this script did until stop 50), as much as most changes
save; with the plain runs going through every worker in turn, copies lay 0.01-0.02 ms apart (600 rounds). Where a
change can be switched on and off in one process, timing both there is finer still.

    python benchmarks/local_launch_ab.py [--rounds 90] [--copies 2] OLD_CHECKOUT NEW_CHECKOUT [...]

(make OLD_CHECKOUT with ``git worktree add /tmp/old <commit>``).
"""

from __future__ import annotations

import functools
import itertools
import os
import subprocess
import sys
import tempfile
import time

from ab_rounds import interleave, parse_checkouts, report

WORKER = r'''
import os, shutil, subprocess, sys, tempfile, time
sys.path.insert(0, sys.argv[1])
scratch = tempfile.mkdtemp(prefix="acpt-ab-")
os.environ["ACPT_ESTIMATOR_HOME"] = os.path.join(scratch, "store")
source = os.path.join(scratch, "src")
os.makedirs(source)
with open(os.path.join(source, "script.py"), "w") as handle:
    handle.write("import os\nprint('rank', os.environ.get('RANK', os.environ.get('PMI_RANK')))\n")
from acpt_estimator import Mpi, PyTorch
from acpt_estimator.backends.local.mpi import find_launcher
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.workspace import Workspace
experiment = Experiment(Workspace._local(), "launch-ab")
estimator = PyTorch(source, entry_script="script.py", compute_target="local",
                    distributed_training=Mpi(process_count_per_node=2))
plain = [find_launcher().path, "-n", "2", sys.executable, "script.py"]
for line in sys.stdin:
    start = time.perf_counter()
    if line.strip() == "plain":
        subprocess.run(plain, cwd=source, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=True)
    else:
        assert experiment.submit(estimator).wait_for_completion()["status"] == "Completed"
    print(time.perf_counter() - start, flush=True)
shutil.rmtree(scratch)  # (its store holds every round's run)
'''


def main() -> None:
    args = parse_checkouts(__doc__.splitlines()[0], "an acpt_estimator package", rounds=90, settle=True, copies=2)
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as handle:
        handle.write(WORKER)
    workers = [subprocess.Popen([sys.executable, handle.name, os.path.abspath(c)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True)
               for c in args.checkouts for _ in range(args.copies)]
    try:
        def ask(index: int, what: str) -> float:
            workers[index].stdin.write(what + "\n")
            workers[index].stdin.flush()
            seconds = float(workers[index].stdout.readline())
            time.sleep(args.settle_ms / 1000)  # (untimed: what a job leaves to do after its end, done before the next)
            return seconds

        for index in range(len(workers)):  # warm-up: imports, probes, the helpers' builds
            for _ in range(3):
                ask(index, "job")
            time.sleep(1)  # a first job builds the C helpers on a thread; later ones use them
            ask(index, "job")
        ask(0, "plain")
        runs = [functools.partial(ask, index, "job") for index in range(len(workers))]
        plain_by = itertools.cycle(range(len(workers)))  # (no worker's process is the plain runs' alone)
        rows = interleave(runs + [lambda: ask(next(plain_by), "plain")], args.rounds)
    finally:
        for worker in workers:
            worker.stdin.close()
            worker.wait()
        os.unlink(handle.name)
    report(rows, args.checkouts, len(workers), "plain mpiexec -n 2", "overhead over plain", copies=args.copies)


if __name__ == "__main__":
    main()
