"""hvd.DistributedOptimizer on the layer: Horovod's wrapper class and checks, gradients reduced in buckets."""

from __future__ import annotations

import os
import warnings
from contextlib import contextmanager

import torch

from ._buckets import GradientReducer
from .compression import Compression
from ._runtime import transport
from .mpi_ops import ADASUM_MESSAGE, OP_NAMES, Adasum, Average, check_process_set, global_process_set, size


class _DistributedOptimizer(torch.optim.Optimizer):
    _acpt_distributed = True

    def __init__(self, params, named_parameters, compression, backward_passes_per_step=1, op=Average,
                 gradient_predivide_factor=1.0, groups=None, sparse_as_dense=False, process_set=global_process_set):
        super(self.__class__, self).__init__(params)
        self._compression = compression
        if named_parameters is not None:
            named_parameters = list(named_parameters)
        else:
            named_parameters = [(f"allreduce.noname.{i}.{j}", v) for i, group in enumerate(self.param_groups)
                                for j, v in enumerate(group["params"])]
        if any(not isinstance(p, tuple) for p in named_parameters):
            raise ValueError("named_parameters should be a sequence of tuples (name, parameter), usually produced by "
                             "model.named_parameters().")
        names = [k for k, _ in named_parameters]
        dups = sorted({k for k in names if names.count(k) > 1})
        if dups:
            raise ValueError("Parameter names in named_parameters must be unique. Found duplicates: " + ", ".join(dups))
        all_ids = {id(v) for group in self.param_groups for v in group["params"]}
        unnamed = all_ids - {id(v) for _, v in named_parameters}
        if unnamed:
            raise ValueError("named_parameters was specified, but one or more model parameters were not named. "
                             "Python object ids: " + ", ".join(str(i) for i in unnamed))
        self._parameter_names = {v: k for k, v in sorted(named_parameters, key=lambda item: item[0])}
        self.backward_passes_per_step = backward_passes_per_step
        self.op = op
        self.gradient_predivide_factor = gradient_predivide_factor
        self.sparse_as_dense = sparse_as_dense
        self.process_set = process_set
        self._synchronized = False
        self._should_synchronize = True
        self._reducer = None
        world = size()
        if world > 1 or os.environ.get("HOROVOD_ELASTIC") == "1":
            params = [p for group in self.param_groups for p in group["params"] if p.requires_grad]
            # Average = sum * (1/size), split across pre/post scale as Horovod does with gradient_predivide_factor.
            pre, post = ((1.0 / gradient_predivide_factor, gradient_predivide_factor / world) if op == Average
                         else (1.0, 1.0))
            self._reducer = GradientReducer(params, transport=transport(), compression=compression,
                                            reduce_op=OP_NAMES[op], prescale=pre, postscale=post,
                                            passes=backward_passes_per_step, sparse_as_dense=sparse_as_dense)

    def load_state_dict(self, *args, **kwargs):
        self._synchronized = False
        self._should_synchronize = True
        if self._reducer is not None:
            self._reducer.reset_passes(self.backward_passes_per_step)
        super(self.__class__, self).load_state_dict(*args, **kwargs)

    def set_backward_passes_per_step(self, passes):
        self.backward_passes_per_step = passes
        if self._reducer is not None:
            self._reducer.reset_passes(passes)

    def synchronize(self):
        if self._reducer is not None:
            self._reducer.synchronize()
        self._synchronized = True

    @contextmanager
    def skip_synchronize(self):
        """Use after an explicit synchronize() (e.g. to clip gradients): step() then does not reduce again."""
        self._should_synchronize = False
        try:
            yield
        finally:
            self._should_synchronize = True

    def step(self, closure=None):
        if self._should_synchronize:
            if self._synchronized:
                warnings.warn("optimizer.step() called without optimizer.skip_synchronize() context after "
                              "optimizer.synchronize(). This can cause training slowdown. You may want to consider "
                              "using optimizer.skip_synchronize() context if you use optimizer.synchronize() in "
                              "your code.")
            self.synchronize()
        self._synchronized = False
        return super(self.__class__, self).step(closure)

    def zero_grad(self, *args, **kwargs):
        if self._reducer is not None and self._reducer.active:
            raise AssertionError("optimizer.zero_grad() was called after loss.backward() but before optimizer.step() "
                                 "or optimizer.synchronize(). This is prohibited as it can cause a race condition.")
        if self._reducer is not None:
            set_to_none = kwargs.get("set_to_none", args[0] if args else True)
            return self._reducer.zero_grad(set_to_none)
        return super(self.__class__, self).zero_grad(*args, **kwargs)


def DistributedOptimizer(optimizer, named_parameters=None, compression=Compression.none, backward_passes_per_step=1,
                         op=Average, gradient_predivide_factor=1.0, num_groups=0, groups=None, sparse_as_dense=False,
                         process_set=global_process_set):
    """Wrap ``optimizer`` so step() applies gradients averaged (or summed) over all ranks, as Horovod's does.

    ``num_groups``/``groups`` only shaped Horovod's fusion; the layer always buckets gradients, with the same result.
    """
    check_process_set(process_set)
    if op == Adasum:
        raise NotImplementedError(ADASUM_MESSAGE)
    if op not in OP_NAMES:
        raise ValueError(f"op={op!r} is not supported by DistributedOptimizer: use hvd.Average (default) or hvd.Sum.")
    if gradient_predivide_factor != 1.0 and op != Average:
        raise ValueError("gradient_predivide_factor not supported with op != Average")
    if not isinstance(backward_passes_per_step, int) or backward_passes_per_step < 1:
        raise ValueError(f"backward_passes_per_step={backward_passes_per_step!r} must be a positive integer.")
    cls = type(optimizer.__class__.__name__, (optimizer.__class__,), dict(_DistributedOptimizer.__dict__))
    return cls(optimizer.param_groups, named_parameters, compression, backward_passes_per_step, op,
               gradient_predivide_factor, groups, sparse_as_dense, process_set)
