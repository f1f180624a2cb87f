"""Where this process sits in the job (rank, size, local/cross layout, rendezvous address), from the environment.

The same contract in every launcher: torch's RANK/WORLD_SIZE/LOCAL_RANK/LOCAL_WORLD_SIZE/MASTER_ADDR/MASTER_PORT
(torchrun, Azure ML PyTorch jobs, acpt-estimator's local runner), Open MPI's OMPI_COMM_WORLD_*, MPICH/Intel MPI's
PMI_*/MPI_LOCAL*, and the v1-era AZ_BATCH(AI)_* master variables. Pure functions of a mapping: unit-testable.
"""

from __future__ import annotations

import socket
from typing import Mapping, NamedTuple, Optional

DEFAULT_PORT = 29500  # torchrun's default, for launchers that give no port at all
RENDEZVOUS_PORT_VAR = "ACPT_ESTIMATOR_RENDEZVOUS_PORT"  # a second free port the local runner reserves


class Topology(NamedTuple):
    rank: int
    size: int
    local_rank: int
    local_size: int
    cross_rank: int
    cross_size: int
    source: str  # which variables they came from, for messages


def _first(env: Mapping[str, str], names) -> tuple[Optional[int], Optional[str]]:
    for name in names:
        value = env.get(name)
        if value not in (None, ""):
            try:
                return int(value), name
            except ValueError:
                raise ValueError(f"{name}={value!r} is not an integer; the launcher's environment is broken.") from None
    return None, None


def expected_world_size(env: Mapping[str, str]) -> int:
    """How many processes the launcher started (1 when none says so): what hvd.size() must report."""
    size, _ = _first(env, ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "WORLD_SIZE"))
    return size or 1


def topology(env: Mapping[str, str]) -> Topology:
    """Rank and layout; a process started by no launcher is rank 0 of 1, as with Horovod."""
    rank, rank_source = _first(env, ("RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMI_ID"))
    size, _ = _first(env, ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE"))
    if rank is None or size is None:
        return Topology(0, 1, 0, 1, 0, 1, "none")
    if not 0 <= rank < size:
        raise ValueError(f"rank {rank} (from {rank_source}) is outside the world size {size}.")
    local_rank, _ = _first(env, ("LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID"))
    local_size, _ = _first(env, ("LOCAL_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"))
    if local_size is None or local_rank is None or size % local_size:
        # No (or an uneven) per-node layout given: treat the job as one node, which is what one host is.
        local_rank, local_size = rank, size
    cross_rank, _ = _first(env, ("NODE_RANK", "GROUP_RANK", "OMPI_COMM_WORLD_NODE_RANK"))
    if cross_rank is None:
        cross_rank = rank // local_size
    return Topology(rank, size, local_rank, local_size, cross_rank, size // local_size, rank_source)


def master_address(env: Mapping[str, str]) -> tuple[Optional[str], Optional[int]]:
    """(host, port) of rank 0's rendezvous, or (None, None) when the environment does not say.

    MASTER_ADDR comes first: launchers that set it mean it. AZ_BATCHAI_MPI_MASTER_NODE is what Azure ML sets in MPI
    jobs. AZ_BATCH_MASTER_NODE comes last, since a job command's preamble may fill it with localhost defaults.
    """
    port, _ = _first(env, ("MASTER_PORT",))
    if env.get("MASTER_ADDR"):
        return env["MASTER_ADDR"], port or DEFAULT_PORT
    batch = env.get("AZ_BATCH_MASTER_NODE", "")
    batch_host, _, batch_port = batch.rpartition(":") if ":" in batch else (batch, "", "")
    if env.get("AZ_BATCHAI_MPI_MASTER_NODE"):
        return env["AZ_BATCHAI_MPI_MASTER_NODE"], port or (int(batch_port) if batch_port.isdigit() else DEFAULT_PORT)
    if batch_host:
        return batch_host, port or (int(batch_port) if batch_port.isdigit() else DEFAULT_PORT)
    return None, None


def is_loopback(host: str) -> bool:
    if host in ("localhost", "127.0.0.1", "::1"):
        return True
    try:
        return socket.gethostbyname(host).startswith("127.")
    except OSError:
        return False
