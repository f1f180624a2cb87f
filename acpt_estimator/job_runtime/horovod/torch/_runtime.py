"""The layer's process state: init/shutdown, rank and layout queries, "built" flags, the global process set."""

from __future__ import annotations

import atexit
import importlib.util
import os
import socket
import time

import torch
import torch.distributed as dist

from .. import _topology
from . import _transport

BACKEND_VAR = "ACPT_ESTIMATOR_HOROVOD_BACKEND"  # override: gloo | nccl | "cpu:gloo,cuda:nccl"

# Horovod's reduction op values (horovod/common/basics.py), so code comparing them keeps working.
Average, Sum, Adasum, Min, Max, Product = 0, 1, 2, 3, 4, 5


class HorovodInternalError(RuntimeError):
    """Raised when a collective fails, as Horovod does (elastic scripts catch it)."""


class _State:
    initialized = False
    created_group = False
    topo: _topology.Topology | None = None
    backend = ""
    transport: _transport.Transport | None = None


_state = _State()


def _require_init():
    if not _state.initialized:
        raise ValueError("Horovod has not been initialized; use hvd.init().")
    return _state.topo


def default_backend() -> str:
    """gloo on CPU; with CUDA, NCCL for GPU tensors and gloo for CPU ones (metrics, objects), as Horovod does."""
    chosen = os.environ.get(BACKEND_VAR)
    if chosen:
        return chosen
    if torch.cuda.is_available() and dist.is_nccl_available():
        return "cpu:gloo,cuda:nccl"
    return "gloo"


def _mpi4py_master(topo) -> tuple[str, int] | None:
    """Launched by an MPI that gave no master address: rank 0 picks one and broadcasts it over MPI."""
    if topo.source not in ("OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMI_ID"):
        return None
    try:
        from mpi4py import MPI
    except ImportError:
        return None
    address = None
    if topo.rank == 0:
        with socket.socket() as sock:
            sock.bind(("", 0))
            address = (socket.gethostbyname(socket.gethostname()), sock.getsockname()[1])
    return MPI.COMM_WORLD.bcast(address, root=0)


def init(comm=None, process_sets=None) -> None:
    """hvd.init(): join the job's torch.distributed process group (creating it from the launcher's environment)."""
    if _state.initialized:
        return
    topo = _topology.topology(os.environ)
    if comm is not None and not isinstance(comm, (list, tuple)):
        raise NotImplementedError("hvd.init(comm=<MPI communicator>) needs real Horovod; acpt-estimator's layer runs "
                                  "on torch.distributed. Call hvd.init() for all ranks.")
    if comm and list(comm) != list(range(topo.size)):
        raise NotImplementedError(f"hvd.init(comm={list(comm)}) selects a subset of the {topo.size} ranks; the layer "
                                  "supports the whole job only. Call hvd.init().")
    if process_sets not in (None, "dynamic") and list(process_sets):
        raise NotImplementedError("Process sets need real Horovod; the layer supports the global process set only.")
    if dist.is_available() and dist.is_initialized():
        # The script set up torch.distributed itself: share its default group.
        if dist.get_world_size() != topo.size or dist.get_rank() != topo.rank:
            topo = topo._replace(rank=dist.get_rank(), size=dist.get_world_size(), local_rank=dist.get_rank(),
                                 local_size=dist.get_world_size(), cross_rank=0, cross_size=1, source="torch")
        _state.backend = str(dist.get_backend())
    elif topo.size > 1:
        host, port = _topology.master_address(os.environ)
        if host is None:
            found = _mpi4py_master(topo)
            if found is None:
                raise RuntimeError(
                    f"hvd.init(): rank {topo.rank} of {topo.size} (from {topo.source}) has no rendezvous address. Set "
                    "MASTER_ADDR and MASTER_PORT for every rank (or AZ_BATCHAI_MPI_MASTER_NODE), or install mpi4py so "
                    "rank 0 can share one over MPI.")
            host, port = found
        _state.backend = default_backend()
        target = f"[{host}]" if ":" in host else host
        dist.init_process_group(_state.backend, init_method=f"tcp://{target}:{port}", rank=topo.rank,
                                world_size=topo.size)
        _state.created_group = True
        atexit.register(shutdown)
    else:
        _state.backend = "gloo"  # one process: every collective is a local copy, no group is needed
    _state.transport = _transport.choose(topo) if topo.size > 1 else _transport.Transport()
    _state.topo = topo
    _state.initialized = True


# torch 2.13's gloo worker threads drop the last collectives' tensors after those complete, and need the GIL for that;
# one still waiting for it when the interpreter shuts down aborts the rank ('terminate called without an active
# exception': pytorch/pytorch#190489, 3-10% of runs here), and the run is reported Failed. shutdown() runs at exit
# (atexit): the threads get the GIL a moment first, as the samples' scripts give it them.
GLOO_DRAIN_SECONDS = 0.1


def shutdown() -> None:
    if _state.created_group and dist.is_initialized():
        dist.destroy_process_group()
        if "gloo" in (_state.backend or ""):
            time.sleep(GLOO_DRAIN_SECONDS)
    _state.created_group = False
    _state.initialized = False
    _state.transport = None


def transport() -> _transport.Transport:
    """How collectives travel (MPI or gloo for CPU tensors, NCCL for CUDA ones); see _transport.py."""
    _require_init()
    return _state.transport


def is_initialized() -> bool:
    return _state.initialized


def size() -> int:
    return _require_init().size


def rank() -> int:
    return _require_init().rank


def local_size() -> int:
    return _require_init().local_size


def local_rank() -> int:
    return _require_init().local_rank


def cross_size() -> int:
    return _require_init().cross_size


def cross_rank() -> int:
    return _require_init().cross_rank


def is_homogeneous() -> bool:
    _require_init()
    return True  # the layout comes from per-node sizes that every launcher here gives uniformly


def mpi_threads_supported() -> bool:
    """True when the layer's CPU collectives use MPI and that MPI allows calls from any thread."""
    if not mpi_enabled():
        return False
    from mpi4py import MPI

    return MPI.Query_thread() == MPI.THREAD_MULTIPLE


def mpi_enabled() -> bool:
    """The layer's CPU collectives travel over MPI (see _transport.py)."""
    return _state.transport is not None and _state.transport.name == "mpi"


def mpi_built() -> bool:
    return importlib.util.find_spec("mpi4py") is not None


def gloo_enabled() -> bool:
    """The layer's CPU collectives travel over torch.distributed's gloo."""
    return _state.transport is not None and _state.transport.name == "gloo"


def gloo_built() -> bool:
    return dist.is_available() and dist.is_gloo_available()


def nccl_built() -> bool:
    return dist.is_available() and dist.is_nccl_available()


def cuda_built() -> bool:
    return torch.backends.cuda.is_built()


def rocm_built() -> bool:
    return False


def ddl_built() -> bool:
    return False


def ccl_built() -> bool:
    return False


def start_timeline(file_path, mark_cycles=False) -> None:
    """Horovod's timeline traces its own background thread; the layer has none, so there is nothing to record."""


def stop_timeline() -> None:
    """See start_timeline."""


class ProcessSet:
    """Only the global process set exists in the layer."""

    process_set_id = 0
    ranks = None
    mpi_comm = None

    def size(self) -> int:
        return size()

    def rank(self) -> int:
        return rank()

    def included(self) -> bool:
        return True

    def __repr__(self) -> str:
        return "ProcessSet(process_set_id=0, global)"


global_process_set = ProcessSet()


def check_process_set(process_set) -> None:
    if process_set is not global_process_set and getattr(process_set, "process_set_id", 0) != 0:
        raise NotImplementedError("Process sets other than hvd.global_process_set need real Horovod; the layer "
                                  "reduces over the whole job.")


def add_process_set(process_set):
    raise NotImplementedError("hvd.add_process_set needs real Horovod; the layer supports the global process set only.")


def remove_process_set(process_set):
    raise NotImplementedError("hvd.remove_process_set needs real Horovod; the layer supports the global process set "
                              "only.")
