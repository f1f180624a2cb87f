"""``horovod.torch`` when no real Horovod is installed: Horovod's PyTorch API on torch.distributed (gloo / NCCL).

Selected by ``horovod/__init__.py`` (ACPT_ESTIMATOR_HOROVOD=auto|layer|real). Numbers match real Horovod:
Average is a sum scaled by 1/size, DistributedOptimizer and broadcast_optimizer_state follow Horovod's steps.
"""

from .compression import Compression
from .functions import allgather_object, broadcast_object, broadcast_optimizer_state, broadcast_parameters
from .mpi_ops import (
    Adasum, Average, HorovodInternalError, Max, Min, Product, ProcessSet, Sum, add_process_set, allgather,
    allgather_async, allreduce, allreduce_, allreduce_async, allreduce_async_, alltoall, alltoall_async, barrier,
    broadcast, broadcast_, broadcast_async, broadcast_async_, ccl_built, cross_rank, cross_size, cuda_built,
    ddl_built, global_process_set, gloo_built, gloo_enabled, grouped_allgather, grouped_allgather_async,
    grouped_allreduce, grouped_allreduce_, grouped_allreduce_async, grouped_allreduce_async_, grouped_reducescatter,
    grouped_reducescatter_async, init, is_homogeneous, is_initialized, join, local_rank, local_size, mpi_built,
    mpi_enabled, mpi_threads_supported, nccl_built, poll, rank, reducescatter, reducescatter_async,
    remove_process_set, rocm_built, shutdown, size, sparse_allreduce_async, start_timeline, stop_timeline,
    synchronize)
from .optimizer import DistributedOptimizer

_acpt_layer = True


def __getattr__(name):
    if name in ("SyncBatchNorm", "elastic"):
        raise NotImplementedError(f"hvd.{name} needs real Horovod; acpt-estimator's layer does not provide it. Use "
                                  "torch.nn.SyncBatchNorm with DDP, or build Horovod with "
                                  "`acpt-estimator horovod build`.")
    raise AttributeError(f"module 'horovod.torch' has no attribute {name!r}")
