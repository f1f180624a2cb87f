"""Launch overhead of a local run: exp.submit(...) + wait_for_completion() vs plain ``mpiexec -n 2 python script.py``.

Both are timed side by side in this process, alternating, on the same trivial 2-rank script and with the
same mpiexec the local backend picks; the script prints the medians and their ratio (target: <= 1.15x).

    python benchmarks/local_launch_overhead.py [--repeats 15] [--script trivial|torch]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

SCRIPTS = {
    "trivial": "import os\nprint('rank', os.environ.get('RANK', os.environ.get('PMI_RANK')))\n",
    "torch": "import torch\nprint('rank', torch.ones(1).sum().item())\n",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=31)
    parser.add_argument("--script", choices=sorted(SCRIPTS), default="trivial")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="acpt-bench-") as scratch:
        source = os.path.join(scratch, "src")
        os.makedirs(source)
        with open(os.path.join(source, "script.py"), "w", encoding="utf-8") as handle:
            handle.write(SCRIPTS[args.script])
        os.environ["ACPT_ESTIMATOR_HOME"] = os.path.join(scratch, "store")

        from acpt_estimator import Mpi, PyTorch
        from acpt_estimator.backends.local.mpi import find_launcher
        from acpt_estimator.v1.core.experiment import Experiment
        from acpt_estimator.v1.core.workspace import Workspace

        mpiexec = find_launcher()
        experiment = Experiment(Workspace._local(), "launch-overhead")
        estimator = PyTorch(source, entry_script="script.py", compute_target="local",
                            distributed_training=Mpi(process_count_per_node=2))
        plain_argv = [mpiexec.path, "-n", "2", sys.executable, "script.py"]

        def plain() -> float:
            start = time.perf_counter()
            subprocess.run(plain_argv, cwd=source, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=True)
            return time.perf_counter() - start

        def local() -> float:
            start = time.perf_counter()
            run = experiment.submit(estimator)
            details = run.wait_for_completion()
            elapsed = time.perf_counter() - start
            assert details["status"] == "Completed", details
            return elapsed

        plain(), local()  # warm-up: page cache, launcher probe, first imports
        plain_times, local_times = [], []
        for _ in range(args.repeats):
            plain_times.append(plain())
            local_times.append(local())
        p, q = statistics.median(plain_times), statistics.median(local_times)
        # On a shared machine the load drifts during the run; the ratio of each adjacent pair is less
        # sensitive to that than the ratio of the two medians, so both are shown.
        pairs = statistics.median(b / a for a, b in zip(plain_times, local_times))
        print(f"launcher: {mpiexec.description} ({mpiexec.path})")
        print(f"script: {args.script}, 2 ranks, {args.repeats} repetitions each, alternating")
        for label, times in (("plain mpiexec -n 2 python script.py", plain_times),
                             ("exp.submit + wait_for_completion   ", local_times)):
            print(f"{label} : median {statistics.median(times) * 1000:7.1f} ms   min {min(times) * 1000:7.1f} ms")
        print(f"ratio of medians (local / plain)    : {q / p:.3f}x   (target <= 1.15x)")
        print(f"median of pairwise ratios           : {pairs:.3f}x")


if __name__ == "__main__":
    main()
