"""Local runs against plain ``mpiexec``: a trivial 2-rank job, and the whole v1 sample driver, timed side by side.

1. ``exp.submit(...)`` + ``wait_for_completion()`` of a trivial 2-rank script vs plain ``mpiexec -n 2 python
   script.py``, alternating in this process (target <= 1.10x).
2. The trivial job's process chain alone, without any of the driver's Python work: plain ``mpiexec -n 2`` against
   the same ranks started as a job starts them (a fresh cgroup, the driver's spawn server, the job's mount namespace,
   the C rank launcher at an open gate, logs and exit markers), so the ratio says what the process structure a job
   keeps costs on this machine before the driver plans or records anything (no target: a floor for the first).
3. The whole ``samples/pytorch_mpi_local/driver.py`` (interpreter start, v1 imports, submit, streamed output,
   metrics, download, register) vs the same training run under plain ``mpiexec`` with the environment the job
   gives its ranks, each a fresh process, alternating; wall and CPU (target: wall <= 1.05x). The training's own
   wall time is bimodal on either side: when rank 1 asks for torch's TCPStore before rank 0 has opened it, its
   client backs off for ~0.5 s (rank 1 started 0.3 s late never does). Which runs do is chance, so the section
   prints how many runs of each side took that long; the median of pairwise ratios is fair where the shares match,
   and needs many pairs (31 by default) to settle.

Each pair runs in turn plain-first and local-first (a drifting load then favours neither), and the targets are judged
on the median of the pairwise ratios. The package's bytecode is compiled first, as an installed package has it: with
PYTHONDONTWRITEBYTECODE set, every fresh driver would otherwise compile the whole package from source (~0.1 s of
CPU that a pip install never pays). Run it on an idle machine; the load average is printed before and after.

Run it with a regular install of the package, as users have it: ``bash benchmarks/regular_install.sh`` makes one
in a throwaway venv and runs this script there. Under the project's own venv (``pip install -e``), every Python
start, each rank's included, first imports setuptools' editable-install finder (about 14 ms here); both sides pay
it, which makes the trivial job's ratio read lower than a user's (the script says so when it sees that finder).

    python benchmarks/local_launch_overhead.py [--repeats 41] [--chain-repeats 41] [--driver-repeats 31]
                                               [--script trivial|torch]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import store_disk
from compiled_package import compile_package

SCRIPTS = {
    "trivial": "import os\nprint('rank', os.environ.get('RANK', os.environ.get('PMI_RANK')))\n",
    "torch": "import torch\nprint('rank', torch.ones(1).sum().item())\n",
}
HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, os.pardir, "samples", "pytorch_mpi_local")
TARGET_TRIVIAL, TARGET_DRIVER = 1.10, 1.05
STALL_SECONDS = 0.3  # section 3: a training this much slower than the fastest one waited for torch's rendezvous


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=41, help="pairs for the trivial job (0: skip)")
    parser.add_argument("--chain-repeats", type=int, default=41, help="pairs for the process chain (0: skip)")
    parser.add_argument("--driver-repeats", type=int, default=31, help="pairs for the whole driver (0: skip)")
    parser.add_argument("--script", choices=sorted(SCRIPTS), default="trivial")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    print(f"load average before: {load_before:.2f}, {os.cpu_count()} cores")
    _say_if_editable()
    compile_package()
    with tempfile.TemporaryDirectory(prefix="acpt-bench-") as scratch:
        os.environ["ACPT_ESTIMATOR_HOME"] = os.path.join(scratch, "store")
        runs = _store_runs(os.environ["ACPT_ESTIMATOR_HOME"])
        disk = store_disk.describe(scratch)
        print(f"store: {scratch} (TMPDIR{', ' + disk if disk else ''}), where making a new folder or file takes "
              f"{store_disk.creation_cost(scratch) * 1e6:.0f} us, and in a new run folder "
              f"{store_disk.creation_cost(runs) * 1e6:.0f} us (medians of 40)")
        if store_disk.without_journal(disk):
            print("(ext4 without a journal: each creation checks the inodes freed in its part of the disk in the "
                  "last minute, by anything, up to ~1 ms each where thousands were; a job makes ~19, in its run "
                  "folder, in runs/' part, which ext4 chose away from such parts where the store's folder could be "
                  "marked (folder_spread.py); TMPDIR=/dev/shm measures the launcher alone; store_disk.py says more)")
        if args.repeats:
            trivial_job(scratch, args.repeats, args.script)
        if args.chain_repeats:
            process_chain(scratch, args.chain_repeats, args.script)
        if args.driver_repeats:
            whole_driver(scratch, args.driver_repeats)
    # The load after includes this script's own ranks: only the load it started on says whether others shared it.
    print(f"load average after: {os.getloadavg()[0]:.2f} (this script's own work included)")
    if load_before > 1.0:
        print("(a loaded machine: every extra process and thread hand-off of a local run waits for a core, so the "
              "ratios above read high; quote figures from an idle machine)")


def _store_runs(store_home: str) -> str:
    """The store's runs/, made as its first run makes it (store.make_runs_folder: the store's folder marked)."""
    from acpt_estimator.backends.local.store import make_runs_folder

    make_runs_folder(store_home)
    return os.path.join(store_home, "runs")


def _say_if_editable() -> None:
    """An editable install's finder, imported by a .pth file at every interpreter start, slows each rank's start."""
    finders = sorted(name for name in sys.modules if name.startswith("__editable__"))
    if finders:
        print(f"NOTE: this interpreter imports {finders[0]} at every start (an editable install): each rank's Python "
              "starts slower on both sides, so the trivial job's ratio reads lower than for a regular install; "
              "`bash benchmarks/regular_install.sh` measures one.")


def _pairs(repeats: int, plain, local) -> tuple[list, list]:
    """``repeats`` (plain, local) measurements, the order inside each pair alternating."""
    plain_times, local_times = [], []
    for index in range(repeats):
        if index % 2:
            local_times.append(local())
            plain_times.append(plain())
        else:
            plain_times.append(plain())
            local_times.append(local())
    return plain_times, local_times


def trivial_job(scratch: str, repeats: int, script: str) -> None:
    source = os.path.join(scratch, "src")
    os.makedirs(source)
    with open(os.path.join(source, "script.py"), "w", encoding="utf-8") as handle:
        handle.write(SCRIPTS[script])

    from acpt_estimator import Mpi, PyTorch
    from acpt_estimator.backends.local.mpi import find_launcher
    from acpt_estimator.v1.core.experiment import Experiment
    from acpt_estimator.v1.core.workspace import Workspace

    mpiexec = find_launcher()
    experiment = Experiment(Workspace._local(), "launch-overhead")
    estimator = PyTorch(source, entry_script="script.py", compute_target="local",
                        distributed_training=Mpi(process_count_per_node=2))
    plain = _plain_mpiexec(mpiexec, source)

    def local() -> float:
        start = time.perf_counter()
        run = experiment.submit(estimator)
        details = run.wait_for_completion()
        elapsed = time.perf_counter() - start
        assert details["status"] == "Completed", details
        return elapsed

    plain(), local()  # warm-up: page cache, launcher probe, first imports
    plain_times, local_times = _pairs(repeats, plain, local)
    print(f"\n1. trivial job; launcher: {mpiexec.description} ({mpiexec.path})")
    print(f"script: {script}, 2 ranks, {repeats} repetitions each, alternating")
    for label, times in (("plain mpiexec -n 2 python script.py", plain_times),
                         ("exp.submit + wait_for_completion   ", local_times)):
        print(f"{label} : median {statistics.median(times) * 1000:7.1f} ms   min {min(times) * 1000:7.1f} ms")
    _verdict("trivial 2-rank job", plain_times, local_times, TARGET_TRIVIAL)
    runs = os.path.join(os.environ["ACPT_ESTIMATOR_HOME"], "runs")
    print(f"making a new folder or file in a new run folder afterwards: {store_disk.creation_cost(runs) * 1e6:.0f} us")


def _plain_mpiexec(mpiexec, source: str):
    """The baseline of sections 1 and 2: ``mpiexec -n 2 python script.py`` in ``source``, timed."""
    argv = [mpiexec.path, "-n", "2", sys.executable, "script.py"]

    def plain() -> float:
        start = time.perf_counter()
        subprocess.run(argv, cwd=source, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=True)
        return time.perf_counter() - start

    return plain


def _verdict(what, plain_times, local_times, target, unit="wall") -> None:
    # On a shared machine the load drifts during the run; the ratio of each adjacent pair is less
    # sensitive to that than the ratio of the two medians, so both are shown; the target is judged on the pairs.
    medians = statistics.median(local_times) / statistics.median(plain_times)
    pairs = statistics.median(b / a for a, b in zip(plain_times, local_times))
    print(f"ratio of medians (local / plain)    : {medians:.3f}x")
    print(f"median of pairwise ratios           : {pairs:.3f}x   target {what} {unit} <= {target:.2f}x: "
          f"{'met' if pairs <= target else 'NOT MET'}")


def process_chain(scratch: str, repeats: int, script: str) -> None:
    """What section 1's job runs through, without the driver's planning and records: per run a fresh cgroup, the
    launch through the spawn server (with the job's namespace where mount namespaces are possible), the rank
    launcher with its plan ready and its gate open, each rank's log and exit marker; then the cgroup removed."""
    from acpt_estimator.backends.local import cgroup_spawn, mount_ns, rank_exec
    from acpt_estimator.backends.local.cgroup import driver_group, job_cgroups_usable
    from acpt_estimator.backends.local.launch import (READY_NAME, RANK_PLAN_NAME, LaunchContext, RankPlan,
                                                      mpiexec_argv, rank_environment, render_rank_plan)
    from acpt_estimator.backends.local.mpi import find_launcher

    base, helper, rank_launcher = job_cgroups_usable(), cgroup_spawn.build(), rank_exec.build()
    if base is None or helper is None or rank_launcher is None:
        print("\n2. process chain: skipped (needs a writable cgroup v2 hierarchy and a C compiler)")
        return
    mpiexec = find_launcher()
    folder = os.path.join(scratch, "chain")
    source, status, logs = (os.path.join(folder, name) for name in ("src", "status", "logs"))
    for path in (source, status, logs):
        os.makedirs(path)
    with open(os.path.join(source, "script.py"), "w", encoding="utf-8") as handle:
        handle.write(SCRIPTS[script])
    ctx = LaunchContext(run_id="chain_1_00000000", experiment_name="chain", run_dir=folder, workdir=source,
                        user_logs=logs, status_dir=status, store_home=scratch, python=sys.executable,
                        launcher=mpiexec, master_port=0)
    ranks = [RankPlan(rank=r, node_rank=0, local_rank=r, env=rank_environment(r, 2),
                      argv=(sys.executable, "script.py"), log_file=os.path.join(logs, f"rank_{r}.txt"))
             for r in range(2)]
    with open(os.path.join(folder, RANK_PLAN_NAME), "wb") as handle:
        handle.write(render_rank_plan(ranks, mpiexec.flavour, ctx))
    open(os.path.join(folder, READY_NAME), "w").close()  # the gate is open from the start
    argv = mpiexec_argv(mpiexec, 2, (rank_launcher, os.path.join(folder, RANK_PLAN_NAME), str(os.getpid())),
                        is_root=os.geteuid() == 0, cores=os.cpu_count() or 1)
    group, namespace, counter = driver_group(base), mount_ns.available(), [0]
    plain = _plain_mpiexec(mpiexec, source)

    def chain() -> float:
        counter[0] += 1
        cgroup = os.path.join(group, f"chain-{counter[0]}")
        start = time.perf_counter()
        os.mkdir(cgroup)
        spawning = cgroup_spawn.launch(helper, cgroup, argv, dict(os.environ), os.path.join(folder, "mpiexec.txt"),
                                       namespace)
        pid = spawning.finish()
        if spawning.namespace is not None:
            os.close(spawning.namespace)
        _, code = os.waitpid(pid, 0)
        os.rmdir(cgroup)
        elapsed = time.perf_counter() - start
        assert code == 0 and sorted(os.listdir(status)) == ["rank_0_exit_0", "rank_1_exit_0"], (code, status)
        for path in [*(os.path.join(status, n) for n in os.listdir(status)), *(r.log_file for r in ranks)]:
            os.unlink(path)  # (outside the timing: each run makes them afresh, as a job does)
        return elapsed

    plain(), chain()  # warm-up: the spawn server starts here
    plain_times, chain_times = _pairs(repeats, plain, chain)
    print(f"\n2. process chain of section 1's job, no driver work ({repeats} pairs, alternating; job namespace: "
          f"{'yes' if namespace else 'no'})")
    for label, times in (("plain mpiexec -n 2 python script.py", plain_times),
                         ("cgroup + spawn server + rank launcher", chain_times)):
        print(f"{label} : median {statistics.median(times) * 1000:7.1f} ms   min {min(times) * 1000:7.1f} ms")
    ratio = statistics.median(b / a for a, b in zip(plain_times, chain_times))
    print(f"median of pairwise ratios           : {ratio:.3f}x   (no target: what the job's processes cost before the "
          "driver plans or records anything; section 1 minus this is the driver's part)")


def whole_driver(scratch: str, repeats: int) -> None:
    """The sample driver as a user runs it, against its training under plain mpiexec (same ranks' environment)."""
    from acpt_estimator.backends.local.mpi import find_launcher

    mpiexec = find_launcher()
    cwd = os.path.join(scratch, "driver")
    os.makedirs(cwd)
    env = dict(os.environ, ACPT_ESTIMATOR_TARGET="local")
    driver = [sys.executable, os.path.abspath(os.path.join(SAMPLE, "driver.py")), "--epochs", "20"]
    train = os.path.abspath(os.path.join(SAMPLE, "src", "train.py"))
    plain_cwd = os.path.join(scratch, "plain")
    os.makedirs(plain_cwd)

    def plain_argv(port: int) -> list:
        # What the job gives its ranks (launch.job_environment): the MPI-era variables train.py reads, per rank.
        argv = [mpiexec.path]
        for rank in range(2):
            argv += ([":"] if rank else []) + [
                "-n", "1", "-env", "OMPI_COMM_WORLD_RANK", str(rank), "-env", "OMPI_COMM_WORLD_SIZE", "2",
                "-env", "AZ_BATCH_MASTER_NODE", f"127.0.0.1:{port}", "-env", "PYTHONUNBUFFERED", "1",
                sys.executable, train, "--epochs", "20", "--lr", "0.05", "--rank", str(rank)]
        return argv

    def timed(argv, cwd_) -> tuple:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(argv, cwd=cwd_, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(f"{argv[:3]} failed ({done.returncode}):\n{done.stdout[-3000:]}")
        return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    def plain() -> tuple:
        from acpt_estimator.backends.local.job import _free_port

        return timed(plain_argv(_free_port()), plain_cwd)

    plain(), timed(driver, cwd)  # warm-up
    pairs = _pairs(repeats, plain, lambda: timed(driver, cwd))
    results = {"plain": pairs[0], "driver": pairs[1]}
    print(f"\n3. whole driver: samples/pytorch_mpi_local/driver.py (20 epochs, 2 ranks, gloo) vs its training under "
          f"plain {os.path.basename(mpiexec.path)} -n 1 ... : -n 1 ..., {repeats} pairs, alternating")
    for label, key in (("plain mpiexec (same training)  ", "plain"), ("python driver.py (v1 driver)   ", "driver")):
        walls = [w for w, _ in results[key]]
        cpus = [c for _, c in results[key]]
        print(f"{label} : wall median {statistics.median(walls):6.3f} s  min {min(walls):6.3f} s   "
              f"CPU median {statistics.median(cpus):6.3f} s")
    _verdict("whole driver", [w for w, _ in results["plain"]], [w for w, _ in results["driver"]], TARGET_DRIVER)
    cpu_ratio = statistics.median(b[1] / a[1] for a, b in zip(results["plain"], results["driver"]))
    print(f"median of pairwise CPU ratios       : {cpu_ratio:.3f}x")
    # The rendezvous back-off (docstring): a run counts as slowed by it at 0.3 s over its own side's fastest.
    slow = {key: sum(w > min(w for w, _ in runs) + STALL_SECONDS for w, _ in runs) for key, runs in results.items()}
    print(f"runs slowed by the rendezvous back-off (> that side's fastest + {STALL_SECONDS} s): plain {slow['plain']} "
          f"of {repeats}, driver {slow['driver']} of {repeats}")


if __name__ == "__main__":
    main()
