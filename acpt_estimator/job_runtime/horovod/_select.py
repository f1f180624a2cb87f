"""Serve a real Horovod found elsewhere on sys.path (guarding its init) or fall back to the torch.distributed layer.

Loaded by file path from ``horovod/__init__.py`` under a private module name, so it stays usable after
``sys.modules['horovod']`` has been replaced by the real package.
"""

from __future__ import annotations

import functools
import glob
import importlib.machinery
import importlib.util
import os
import socket
import sys
import threading
import time

MODE_VAR = "ACPT_ESTIMATOR_HOROVOD"  # auto | layer | real
GLOO_RENDEZVOUS_VAR = "ACPT_ESTIMATOR_HOROVOD_GLOO_RENDEZVOUS"  # on | off: start Horovod's Gloo rendezvous for it
MODES = ("auto", "layer", "real")
BUILD_HINT = "acpt-estimator horovod build"
_server = None  # rank 0's rendezvous server; lives as long as the process


def _load_private(name: str):
    """A sibling module of this folder, loaded by path: the ``horovod`` package may already be the real one."""
    if name in sys.modules:
        return sys.modules[name]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_" + name.rsplit("_", 1)[-1] + ".py")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def topology_module():
    return _load_private("_acpt_horovod_topology")


def mode(env=os.environ) -> str:
    value = (env.get(MODE_VAR) or "auto").strip().lower()
    if value not in MODES:
        raise ImportError(f"{MODE_VAR}={env.get(MODE_VAR)!r} is not one of {', '.join(MODES)}: 'auto' uses a real "
                          "Horovod when one is installed, 'layer' always uses acpt-estimator's torch.distributed "
                          "layer, 'real' requires a real Horovod.")
    return value


def find_real(search_path, own_root: str):
    """The spec of a ``horovod`` package on ``search_path`` outside ``own_root`` (this layer's folder), or None."""
    own = os.path.realpath(own_root)
    entries = [p for p in search_path if os.path.realpath(p or os.getcwd()) != own]
    spec = importlib.machinery.PathFinder.find_spec("horovod", entries)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None  # nothing, or a namespace folder without __init__.py: not an installed Horovod
    return spec


def has_torch_extension(spec) -> bool:
    """Real Horovod built with PyTorch support carries horovod/torch/mpi_lib_v2*.so."""
    return bool(glob.glob(os.path.join(os.path.dirname(spec.origin), "torch", "mpi_lib_v2*")))


def use_real(name: str, init_file: str) -> bool:
    """Decide; when real, load it into ``sys.modules[name]`` with its init() guarded, and return True."""
    chosen = mode()
    if chosen == "layer":
        return False
    spec = find_real(sys.path, os.path.dirname(os.path.dirname(os.path.abspath(init_file))))
    if spec is None or (chosen == "auto" and not has_torch_extension(spec)):
        if chosen == "real":
            found = f"the horovod at {spec.origin} has no PyTorch extension" if spec else "no horovod is installed"
            raise ImportError(f"{MODE_VAR}=real but {found}. Build one against this torch with `{BUILD_HINT}`; or "
                              f"unset {MODE_VAR} to use acpt-estimator's Horovod layer over torch.distributed.")
        return False
    shim = sys.modules[name]
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
        from horovod.common.basics import HorovodBasics  # the real one now
    except BaseException:
        sys.modules[name] = shim
        raise
    guard_init(HorovodBasics)
    return True


def guard_init(basics_cls) -> None:
    """Wrap HorovodBasics.init (every framework's hvd.init() ends there) to set up Gloo and refuse N x 1 jobs."""
    original = basics_cls.init
    if getattr(original, "_acpt_guarded", False):
        return

    @functools.wraps(original)
    def init(self, comm=None, process_sets=None):
        expected = topology_module().expected_world_size(os.environ)
        whole_world = not comm  # hvd.init(comm=[...]) asks for a subset on purpose
        if whole_world and expected > 1:
            prepare_gloo(self)
        result = original(self, comm, process_sets)
        if whole_world and expected > 1 and self.size() != expected:
            raise RuntimeError(n_by_one_message(self, expected))
        return result

    init._acpt_guarded = True
    basics_cls.init = init


def controller(basics) -> str:
    chosen = (os.environ.get("HOROVOD_CONTROLLER") or "").strip().lower()
    return chosen or ("mpi" if basics.mpi_built() else "gloo")


def n_by_one_message(basics, expected: int) -> str:
    if controller(basics) == "gloo":
        cause = ("Horovod's Gloo controller had no rendezvous server (HOROVOD_GLOO_RENDEZVOUS_ADDR unset), which is "
                 "what a Horovod built without MPI does when mpirun starts it"
                 + ("" if basics.mpi_built() else "; this Horovod has mpi_built() == False"))
        fix = (f"leave {GLOO_RENDEZVOUS_VAR} unset so acpt-estimator starts Horovod's Gloo rendezvous for the ranks, "
               f"or rebuild Horovod with MPI: {BUILD_HINT}")
    else:
        cause = ("Horovod's MPI controller found a one-process MPI world: this Horovod's libmpi is not the MPI of the "
                 "launcher that started the ranks")
        fix = f"rebuild Horovod against the launcher's MPI (that MPI's bin/ first on PATH): {BUILD_HINT} --force"
    return (f"Horovod reports size()={basics.size()} but the launcher started {expected} processes, so every rank "
            f"would train alone (N separate one-process jobs). Cause: {cause}. Fix: {fix}; or use acpt-estimator's "
            f"Horovod layer over torch.distributed ({MODE_VAR}=layer).")


def prepare_gloo(basics) -> None:
    """What ``horovodrun --gloo`` does for its workers: env for the Gloo controller and rank 0's rendezvous server."""
    if controller(basics) != "gloo" or os.environ.get("HOROVOD_GLOO_RENDEZVOUS_ADDR"):
        return  # MPI controller, or someone (horovodrun --gloo) already set up the rendezvous
    if (os.environ.get(GLOO_RENDEZVOUS_VAR) or "on").lower() == "off":
        return
    topo_mod = topology_module()
    topo = topo_mod.topology(os.environ)
    host, port = topo_mod.master_address(os.environ)
    if host is None:
        raise RuntimeError("Horovod's Gloo controller needs rank 0's address, and neither MASTER_ADDR nor "
                           "AZ_BATCHAI_MPI_MASTER_NODE is set. Set MASTER_ADDR (and MASTER_PORT) for every rank.")
    rdzv_port = int(os.environ.get(topo_mod.RENDEZVOUS_PORT_VAR) or port + 1)
    env = {
        "HOROVOD_CONTROLLER": "gloo", "HOROVOD_CPU_OPERATIONS": os.environ.get("HOROVOD_CPU_OPERATIONS") or "gloo",
        "HOROVOD_GLOO_RENDEZVOUS_ADDR": host, "HOROVOD_GLOO_RENDEZVOUS_PORT": str(rdzv_port),
        # Gloo's local/cross contexts are keyed by host name; one per (possibly simulated) node.
        "HOROVOD_HOSTNAME": f"node{topo.cross_rank}",
        "HOROVOD_RANK": str(topo.rank), "HOROVOD_SIZE": str(topo.size),
        "HOROVOD_LOCAL_RANK": str(topo.local_rank), "HOROVOD_LOCAL_SIZE": str(topo.local_size),
        "HOROVOD_CROSS_RANK": str(topo.cross_rank), "HOROVOD_CROSS_SIZE": str(topo.cross_size),
    }
    if topo_mod.is_loopback(host) and not os.environ.get("HOROVOD_GLOO_IFACE"):
        env["HOROVOD_GLOO_IFACE"] = "lo"  # every rank on this machine: the loopback interface reaches them all
    os.environ.update(env)
    if topo.rank == 0:
        _start_rendezvous(rdzv_port, topo)
    else:
        _wait_for_port(host, rdzv_port)


def _start_rendezvous(port: int, topo) -> None:
    global _server
    from horovod.runner.common.util.hosts import SlotInfo
    from horovod.runner.http.http_server import RendezvousHandler, RendezvousHTTPServer

    try:
        server = RendezvousHTTPServer(("", port), RendezvousHandler, 0)
    except OSError as err:
        variable = topology_module().RENDEZVOUS_PORT_VAR
        chosen = variable if os.environ.get(variable) else "MASTER_PORT (the rendezvous uses MASTER_PORT + 1)"
        raise RuntimeError(f"Rank 0 could not start Horovod's Gloo rendezvous on port {port} ({err.strerror}). Set "
                           f"{chosen} to a free port.") from None
    # The plan tells the server each scope's size, so it clears a scope only once all of its members finished.
    server.init([SlotInfo(hostname=f"node{r // topo.local_size}", rank=r, local_rank=r % topo.local_size,
                          cross_rank=r // topo.local_size, size=topo.size, local_size=topo.local_size,
                          cross_size=topo.cross_size) for r in range(topo.size)])
    threading.Thread(target=server.serve_forever, name="horovod-gloo-rendezvous", daemon=True).start()
    _server = server


def _wait_for_port(host: str, port: int, timeout: float = 120.0) -> None:
    """Other ranks wait for rank 0's server: Horovod's HTTP store gives up after a few seconds of refusals."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection((host, port), timeout=2):
                return
        except OSError:
            if time.monotonic() >= deadline:
                raise RuntimeError(f"Horovod's Gloo rendezvous at {host}:{port} (rank 0) did not come up within "
                                   f"{timeout:.0f} s; check rank 0's log.") from None
            time.sleep(0.05)
