"""Step time of the Horovod layer's DistributedOptimizer vs real Horovod's and vs DDP, on 2 ranks, same models.

    python benchmarks/horovod_step_time.py [--steps 20] [--rounds 7] [--batch 32] [--layer-transport auto|mpi|gloo]

The driver starts ``mpiexec -n 2`` on this file. Every rank builds two models with the same weights for each
implementation: a ~10M-parameter MLP and a model with ~200 small parameter tensors. Round after round it times
``steps`` SGD steps (zero_grad, forward, backward, step) with real Horovod (MPI controller), the layer (loaded
from acpt_estimator/job_runtime under another module name, so both live in one process) and
torch.nn.parallel.DistributedDataParallel over gloo, in a rotating order: load from other processes hits all
three alike. Rank 0 prints the median step times and the layer's ratios (target: <= 1.1x the faster of the other two).
"""

from __future__ import annotations

import argparse
import copy
import importlib
import importlib.util
import os
import socket
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAYER_DIR = os.path.join(ROOT, "acpt_estimator", "job_runtime", "horovod")


def driver(argv, layer_transport: str) -> int:
    from acpt_estimator.backends.local.mpi import find_launcher

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = dict(os.environ, MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), OMP_NUM_THREADS="1",
               ACPT_ESTIMATOR_HOROVOD_CPU_TRANSPORT=layer_transport)
    env.pop("PYTHONPATH", None)  # `import horovod` must be the real one; the layer is loaded by path
    launcher = find_launcher()
    extra = ["--allow-run-as-root"] if launcher.flavour == "openmpi" and os.geteuid() == 0 else []
    return subprocess.run([launcher.path, *extra, "-n", "2", sys.executable, __file__, "--worker", *argv],
                          env=env).returncode


def load_layer():
    """The layer as module ``acpt_layer_horovod`` (its imports are relative), next to the real ``horovod``."""
    os.environ["ACPT_ESTIMATOR_HOROVOD"] = "layer"
    spec = importlib.util.spec_from_file_location("acpt_layer_horovod", os.path.join(LAYER_DIR, "__init__.py"),
                                                  submodule_search_locations=[LAYER_DIR])
    package = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = package
    spec.loader.exec_module(package)
    return importlib.import_module("acpt_layer_horovod.torch")


def models(torch):
    nn = torch.nn
    mlp = nn.Sequential(nn.Linear(1024, 2048), nn.ReLU(), nn.Linear(2048, 2048), nn.ReLU(),
                        nn.Linear(2048, 1536), nn.ReLU(), nn.Linear(1536, 10))
    small = nn.Sequential(*[layer for _ in range(100) for layer in (nn.Linear(64, 64), nn.Tanh())])
    return {"mlp_10M": (mlp, 1024), "small_x200": (small, 64)}


def worker(args) -> None:
    import torch
    import torch.distributed as dist
    import horovod.torch as real

    torch.set_num_threads(1)
    real.init()
    layer = load_layer()
    layer.init()  # creates the gloo process group that DDP uses too
    assert real.size() == layer.size() == dist.get_world_size() == 2, "needs 2 ranks"
    rank = layer.rank()
    torch.manual_seed(0)
    results = {}
    for name, (template, width) in models(torch).items():
        data = torch.randn(args.batch, width)
        target = torch.randn(args.batch, 10 if name == "mlp_10M" else width)

        def fresh():
            return copy.deepcopy(template)  # the same initial weights for every implementation

        setups = {}
        m = fresh()
        setups["horovod"] = (m, real.DistributedOptimizer(torch.optim.SGD(m.parameters(), lr=1e-3),
                                                          named_parameters=m.named_parameters()))
        m = fresh()
        setups["layer"] = (m, layer.DistributedOptimizer(torch.optim.SGD(m.parameters(), lr=1e-3),
                                                         named_parameters=m.named_parameters()))
        m = torch.nn.parallel.DistributedDataParallel(fresh())
        setups["ddp"] = (m, torch.optim.SGD(m.parameters(), lr=1e-3))

        def run(impl, steps):
            model, opt = setups[impl]
            for _ in range(steps):
                opt.zero_grad()
                torch.nn.functional.mse_loss(model(data), target).backward()
                opt.step()

        for impl in setups:  # warm-up: allocations, Horovod's response cache, DDP's bucket rebuild
            run(impl, 3)
        times = {impl: [] for impl in setups}
        order = list(setups)
        for round_index in range(args.rounds):
            for impl in order[round_index % 3:] + order[:round_index % 3]:
                dist.barrier()
                start = time.perf_counter()
                run(impl, args.steps)
                dist.barrier()
                times[impl].append((time.perf_counter() - start) / args.steps)
        params = sum(p.numel() for p in template.parameters())
        tensors = len(list(template.parameters()))
        results[name] = (params, tensors, {impl: statistics.median(v) for impl, v in times.items()})
    if rank == 0:
        print(f"layer CPU transport: {layer.mpi_ops.transport().name}")
        print(f"{'model':<12} {'params':>9} {'tensors':>7} {'layer ms':>9} {'horovod ms':>10} {'DDP ms':>8} "
              f"{'layer/hvd':>9} {'layer/DDP':>9} {'layer/faster':>12}")
        for name, (params, tensors, med) in results.items():
            faster = min(med["horovod"], med["ddp"])
            print(f"{name:<12} {params / 1e6:>8.2f}M {tensors:>7} {med['layer'] * 1e3:>9.2f} "
                  f"{med['horovod'] * 1e3:>10.2f} {med['ddp'] * 1e3:>8.2f} {med['layer'] / med['horovod']:>9.2f} "
                  f"{med['layer'] / med['ddp']:>9.2f} {med['layer'] / faster:>12.2f}")
        worst = max(med["layer"] / min(med["horovod"], med["ddp"]) for _, _, med in results.values())
        print(f"target (issue 24): layer/faster <= 1.00 for every model: worst {worst:.2f}  "
              f"{'met' if worst <= 1.0 else 'NOT MET'}")
    layer.shutdown()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--layer-transport", choices=("auto", "mpi", "gloo"), default="auto",
                        help="the layer's CPU transport (auto: MPI under an MPI launcher with mpi4py, else gloo)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args()
    if not args.worker:
        return driver(sys.argv[1:], args.layer_transport)
    worker(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
