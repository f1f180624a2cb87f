"""Horovod's collectives (allreduce, allgather, broadcast, join, ...) over torch.distributed, with Horovod's handles."""

from __future__ import annotations

import itertools
import time
import warnings

import torch

from ._runtime import (  # noqa: F401 - horovod.torch.mpi_ops exports these too
    Adasum, Average, HorovodInternalError, Max, Min, Product, ProcessSet, Sum, add_process_set, ccl_built,
    check_process_set, cross_rank, cross_size, cuda_built, ddl_built, global_process_set, gloo_built, gloo_enabled,
    init, is_homogeneous, is_initialized, local_rank, local_size, mpi_built, mpi_enabled, mpi_threads_supported,
    nccl_built, rank, remove_process_set, rocm_built, shutdown, size, start_timeline, stop_timeline, transport)
from .compression import Compression

# Average travels as a sum and is scaled by 1/size afterwards, as Horovod does.
OP_NAMES = {Sum: "SUM", Average: "SUM", Min: "MIN", Max: "MAX", Product: "PRODUCT"}
ADASUM_MESSAGE = ("op=hvd.Adasum needs real Horovod (its Adasum reduction has no torch.distributed equivalent); use "
                  "op=hvd.Average (the default) or hvd.Sum, or build Horovod with `acpt-estimator horovod build`.")


def handle_average_backwards_compatibility(op, average):
    """Horovod's rule: ``op`` supersedes the deprecated ``average``; neither means Average."""
    if op is not None:
        if average is not None:
            raise ValueError("The op parameter supersedes average. Please provide only one of them.")
        return op
    if average is not None:
        warnings.warn("Parameter `average` has been replaced with `op` and will be removed in v1.0",
                      DeprecationWarning)
        return Average if average else Sum
    return Average


def scale_(tensor: torch.Tensor, factor: float) -> torch.Tensor:
    """Multiply in place; integer tensors truncate like Horovod's ScaleBuffer."""
    if factor == 1.0:
        return tensor
    if tensor.dtype.is_floating_point or tensor.dtype.is_complex:
        return tensor.mul_(factor)
    return tensor.copy_(tensor.double() * factor)


# ---- handles ------------------------------------------------------------------------------------------------------
class _Pending:
    __slots__ = ("work", "finish", "keep")

    def __init__(self, work, finish, keep):
        self.work, self.finish, self.keep = work, finish, keep


_handles: dict = {}
_counter = itertools.count(1)


def _new_handle(work, finish, *keep) -> int:
    handle = next(_counter)
    _handles[handle] = _Pending(work, finish, keep)  # keep the inputs alive until synchronize()
    return handle


def poll(handle) -> bool:
    pending = _handles.get(handle)
    return pending is None or pending.work is None or pending.work.is_completed()


def synchronize(handle):
    """Wait for an async operation; returns its output tensor (None for an unknown handle, as Horovod)."""
    pending = _handles.pop(handle, None)
    if pending is None:
        return None
    try:
        if pending.work is not None:
            pending.work.wait()
    except RuntimeError as err:
        raise HorovodInternalError(err) from err
    return pending.finish()


# ---- allreduce ----------------------------------------------------------------------------------------------------
def _allreduce_async(tensor, output, name, op, prescale_factor, postscale_factor, process_set):
    check_process_set(process_set)
    if op == Adasum:
        raise NotImplementedError(ADASUM_MESSAGE)
    if op not in OP_NAMES:
        raise ValueError(f"op={op!r} is not a Horovod reduction: use hvd.Average, hvd.Sum, hvd.Min, hvd.Max or "
                         "hvd.Product.")
    world = size()
    if output is not tensor:
        output.copy_(tensor)
    scale_(output, prescale_factor)
    work = transport().all_reduce(output, OP_NAMES[op]) if world > 1 else None
    # Horovod applies Average as a 1/size post-scale of the sum, so the layer does the same arithmetic.
    factor = postscale_factor / world if op == Average else postscale_factor
    return _new_handle(work, lambda: scale_(output, factor), tensor)


def allreduce_async(tensor, average=None, name=None, op=None, prescale_factor=1.0, postscale_factor=1.0,
                    process_set=global_process_set):
    op = handle_average_backwards_compatibility(op, average)
    return _allreduce_async(tensor, tensor.new(tensor.shape), name, op, prescale_factor, postscale_factor,
                            process_set)


def allreduce_async_(tensor, average=None, name=None, op=None, prescale_factor=1.0, postscale_factor=1.0,
                     process_set=global_process_set):
    op = handle_average_backwards_compatibility(op, average)
    return _allreduce_async(tensor, tensor, name, op, prescale_factor, postscale_factor, process_set)


def allreduce_(tensor, average=None, name=None, op=None, prescale_factor=1.0, postscale_factor=1.0,
               process_set=global_process_set):
    return synchronize(allreduce_async_(tensor, average, name, op, prescale_factor, postscale_factor, process_set))


class HorovodAllreduce(torch.autograd.Function):
    """Differentiable allreduce: the gradient is the same reduction of the incoming gradients."""

    @staticmethod
    def forward(ctx, tensor, average, name, op, prescale_factor, postscale_factor, process_set):
        ctx.args = (average, op, prescale_factor, postscale_factor, process_set)
        return synchronize(allreduce_async(tensor, average, name, op, prescale_factor, postscale_factor, process_set))

    @staticmethod
    def backward(ctx, grad_output):
        average, op, pre, post, process_set = ctx.args
        return (allreduce(grad_output, average=average, op=op, prescale_factor=pre, postscale_factor=post,
                          process_set=process_set), None, None, None, None, None, None)


def allreduce(tensor, average=None, name=None, compression=Compression.none, op=None, prescale_factor=1.0,
              postscale_factor=1.0, process_set=global_process_set):
    compressed, ctx = compression.compress(tensor)
    reduced = HorovodAllreduce.apply(compressed, average, name, op, prescale_factor, postscale_factor, process_set)
    return compression.decompress(reduced, ctx)


def grouped_allreduce_async(tensors, average=None, name=None, op=None, prescale_factor=1.0, postscale_factor=1.0,
                            process_set=global_process_set):
    handles = [allreduce_async(t, average, None, op, prescale_factor, postscale_factor, process_set) for t in tensors]
    return _new_handle(None, lambda: [synchronize(h) for h in handles])


def grouped_allreduce_async_(tensors, average=None, name=None, op=None, prescale_factor=1.0, postscale_factor=1.0,
                             process_set=global_process_set):
    handles = [allreduce_async_(t, average, None, op, prescale_factor, postscale_factor, process_set) for t in tensors]
    return _new_handle(None, lambda: [synchronize(h) for h in handles])


def grouped_allreduce(tensors, average=None, name=None, compression=Compression.none, op=None, prescale_factor=1.0,
                      postscale_factor=1.0, process_set=global_process_set):
    return [allreduce(t, average, None, compression, op, prescale_factor, postscale_factor, process_set)
            for t in tensors]


def grouped_allreduce_(tensors, average=None, name=None, op=None, prescale_factor=1.0, postscale_factor=1.0,
                       process_set=global_process_set):
    return synchronize(grouped_allreduce_async_(tensors, average, name, op, prescale_factor, postscale_factor,
                                                process_set))


# ---- allgather ----------------------------------------------------------------------------------------------------
def _gather_rows(tensor: torch.Tensor) -> tuple[torch.Tensor, list[int]]:
    """Concatenate every rank's tensor along dim 0; first dimensions may differ (padded for torch's all_gather)."""
    data = tensor.contiguous().view(1) if tensor.dim() == 0 else tensor.contiguous()
    world = size()
    if world == 1:
        return data.clone(), [data.shape[0]]
    count = torch.tensor([data.shape[0]], dtype=torch.int64, device=data.device)
    counts = [torch.empty_like(count) for _ in range(world)]
    transport().all_gather(counts, count)
    rows = [int(c.item()) for c in counts]
    longest = max(rows)
    if data.shape[0] < longest:
        data = torch.cat([data, data.new_zeros((longest - data.shape[0],) + tuple(data.shape[1:]))])
    parts = [torch.empty_like(data) for _ in range(world)]
    transport().all_gather(parts, data)
    return torch.cat([part[:n] for part, n in zip(parts, rows)]), rows


class HorovodAllgather(torch.autograd.Function):
    @staticmethod
    def forward(ctx, tensor, name, process_set):
        check_process_set(process_set)
        gathered, rows = _gather_rows(tensor)
        ctx.rows = rows
        return gathered

    @staticmethod
    def backward(ctx, grad_output):
        reduced = allreduce(grad_output, op=Average)
        offset = sum(ctx.rows[:rank()])
        return reduced.narrow(0, offset, ctx.rows[rank()]), None, None


def allgather(tensor, name=None, process_set=global_process_set):
    return HorovodAllgather.apply(tensor, name, process_set)


def allgather_async(tensor, name=None, process_set=global_process_set):
    check_process_set(process_set)
    gathered, _ = _gather_rows(tensor)  # the row-count exchange makes it blocking; the handle is already done
    return _new_handle(None, lambda: gathered)


def grouped_allgather(tensors, name=None, process_set=global_process_set):
    return [allgather(t, None, process_set) for t in tensors]


def grouped_allgather_async(tensors, name=None, process_set=global_process_set):
    gathered = grouped_allgather(tensors, name, process_set)
    return _new_handle(None, lambda: gathered)


# ---- broadcast ----------------------------------------------------------------------------------------------------
def _check_root(root_rank) -> None:
    if not 0 <= int(root_rank) < size():
        raise ValueError(f"root_rank={root_rank} is not a rank of this job (size {size()}).")


def broadcast_async_(tensor, root_rank, name=None, process_set=global_process_set):
    check_process_set(process_set)
    _check_root(root_rank)
    work = transport().broadcast(tensor, int(root_rank)) if size() > 1 else None
    return _new_handle(work, lambda: tensor, tensor)


def broadcast_async(tensor, root_rank, name=None, process_set=global_process_set):
    return broadcast_async_(tensor.clone(), root_rank, name, process_set)


def broadcast_(tensor, root_rank, name=None, process_set=global_process_set):
    return synchronize(broadcast_async_(tensor, root_rank, name, process_set))


class HorovodBroadcast(torch.autograd.Function):
    @staticmethod
    def forward(ctx, tensor, root_rank, name, process_set):
        ctx.root_rank = root_rank
        return synchronize(broadcast_async(tensor, root_rank, name, process_set))

    @staticmethod
    def backward(ctx, grad_output):
        reduced = allreduce(grad_output, op=Average)
        if rank() != ctx.root_rank:
            reduced = reduced * 0
        return reduced, None, None, None


def broadcast(tensor, root_rank, name=None, process_set=global_process_set):
    return HorovodBroadcast.apply(tensor, root_rank, name, process_set)


# ---- synchronisation ----------------------------------------------------------------------------------------------
def barrier(process_set=global_process_set) -> None:
    check_process_set(process_set)
    if size() > 1:
        transport().barrier()


def join(device=-1) -> int:
    """Wait for every rank; returns the rank that joined last.

    Unlike Horovod, ranks that joined do not stand in for the others' later allreduces: call join() on every rank
    after the same sequence of collectives (the usual end-of-training use).
    """
    if size() == 1:
        return 0
    target = torch.device("cpu") if device is None or device < 0 else torch.device("cuda", device)
    stamp = torch.tensor([time.time()], dtype=torch.float64, device=target)
    stamps = [torch.empty_like(stamp) for _ in range(size())]
    transport().all_gather(stamps, stamp)
    return int(torch.argmax(torch.cat(stamps)).item())


def _unsupported(name: str):
    def refuse(*args, **kwargs):
        raise NotImplementedError(f"hvd.{name} needs real Horovod; acpt-estimator's layer covers allreduce, "
                                  "allgather, broadcast and DistributedOptimizer. Build Horovod with "
                                  "`acpt-estimator horovod build`.")
    refuse.__name__ = name
    return refuse


alltoall = _unsupported("alltoall")
alltoall_async = _unsupported("alltoall_async")
reducescatter = _unsupported("reducescatter")
reducescatter_async = _unsupported("reducescatter_async")
grouped_reducescatter = _unsupported("grouped_reducescatter")
grouped_reducescatter_async = _unsupported("grouped_reducescatter_async")
sparse_allreduce_async = _unsupported("sparse_allreduce_async")
