"""Gradient buckets for the layer's DistributedOptimizer: few large allreduces, started while backward still runs.

Horovod fuses the gradients that are ready in each short cycle into one buffer; DDP packs parameters into fixed
buckets. This does the latter: parameters are packed in reverse registration order (the order backward produces
their gradients), each gradient is copied into its bucket as soon as autograd has accumulated it, and a full
bucket is reduced asynchronously. Buckets are always launched in index order, so every rank issues the same
sequence of collectives even if its gradients arrive in another order.
"""

from __future__ import annotations

import os

import torch

BUCKET_MB_VAR = "ACPT_ESTIMATOR_HOROVOD_BUCKET_MB"
FIRST_BUCKET_MB_VAR = "ACPT_ESTIMATOR_HOROVOD_FIRST_BUCKET_MB"


def _megabytes(name: str, default: float) -> int:
    value = os.environ.get(name)
    try:
        return int(float(value) * 2 ** 20) if value else int(default * 2 ** 20)
    except ValueError:
        raise ValueError(f"{name}={value!r} is not a number of megabytes.") from None


class Bucket:
    __slots__ = ("params", "views", "buffer", "alias", "ready", "copied", "work")

    def __init__(self, params, dtype, device):
        self.params = params
        total = sum(p.numel() for p in params)
        self.buffer = torch.zeros(total, dtype=dtype, device=device)
        self.views, offset = [], 0
        for p in params:
            self.views.append(self.buffer[offset:offset + p.numel()].view(p.shape))
            offset += p.numel()
        # Gradients live in the buffer itself when they travel in their own dtype (DDP's gradient_as_bucket_view):
        # autograd then accumulates straight into it and nothing is copied in or out.
        self.alias = all(p.dtype == dtype for p in params)
        self.ready = 0
        self.copied = [False] * len(params)
        self.work = None


def plan_buckets(params, wire_dtype, first_bytes: int, bytes_cap: int) -> list:
    """[(params, dtype, device)]: consecutive parameters of one device and wire dtype, up to the size cap.

    The first bucket is small so the first allreduce starts early in backward; the rest amortise per-call cost.
    """
    plans, current, current_bytes, key = [], [], 0, None
    for p in params:
        dtype = wire_dtype(p.dtype)
        nbytes = p.numel() * torch.empty((), dtype=dtype).element_size()
        cap = first_bytes if not plans else bytes_cap
        if current and ((dtype, p.device) != key or current_bytes + nbytes > cap):
            plans.append((current, key[0], key[1]))
            current, current_bytes = [], 0
        current.append(p)
        current_bytes += nbytes
        key = (dtype, p.device)
    if current:
        plans.append((current, key[0], key[1]))
    return plans


class GradientReducer:
    """Hooks, buckets and the launch order for one optimizer's parameters."""

    def __init__(self, params, *, transport, compression, reduce_op: str, prescale: float, postscale: float,
                 passes: int, sparse_as_dense: bool):
        self.transport, self.compression, self.reduce_op = transport, compression, reduce_op
        self.prescale, self.postscale, self.passes = prescale, postscale, passes
        self.sparse_as_dense = sparse_as_dense
        ordered = list(reversed(params))  # backward produces the last layers' gradients first
        plans = plan_buckets(ordered, compression.wire_dtype, _megabytes(FIRST_BUCKET_MB_VAR, 1),
                             _megabytes(BUCKET_MB_VAR, 25))
        self.buckets = [Bucket(*plan) for plan in plans]
        self.slot = {p: (b, i) for b, bucket in enumerate(self.buckets) for i, p in enumerate(bucket.params)}
        self.remaining = {p: passes for p in ordered}
        self.next_launch = 0
        self.active = False  # a hook fired since the last synchronize: zero_grad() now would lose gradients
        for bucket in self.buckets:
            if bucket.alias:
                for p, view in zip(bucket.params, bucket.views):
                    if p.grad is not None and not p.grad.is_sparse:
                        view.copy_(p.grad)
                        p.grad = view
        self._hooks = [p.register_post_accumulate_grad_hook(self._on_grad) for p in ordered]

    def reset_passes(self, passes: int) -> None:
        self.passes = passes
        for p in self.remaining:
            self.remaining[p] = passes

    # ---- during backward ------------------------------------------------------------------------------------------
    def _on_grad(self, p) -> None:
        left = self.remaining[p]
        if left <= 0:
            raise AssertionError("Gradients were computed more than backward_passes_per_step times before call to "
                                 "step(). Increase backward_passes_per_step to accumulate gradients locally.")
        self.remaining[p] = left - 1
        self.active = True
        if left == 1:
            b, i = self.slot[p]
            bucket = self.buckets[b]
            self._copy_in(bucket, i)
            bucket.ready += 1
            if bucket.ready == len(bucket.params) and b == self.next_launch:
                self._launch_ready()

    def _copy_in(self, bucket: Bucket, index: int) -> None:
        """Make sure the bucket holds ``p``'s gradient (a no-op when autograd accumulated into the bucket)."""
        p, view = bucket.params[index], bucket.views[index]
        grad = p.grad
        if grad is None:
            # Horovod reduces a zero gradient for a parameter this rank did not use: another rank may have.
            view.zero_()
            p.grad = view if bucket.alias else torch.zeros_like(p)
        elif grad.is_sparse:
            if not self.sparse_as_dense:
                raise NotImplementedError("Sparse gradients need real Horovod's sparse allreduce; pass "
                                          "sparse_as_dense=True to hvd.DistributedOptimizer to reduce them densely.")
            view.copy_(grad.to_dense())
        elif grad.data_ptr() != view.data_ptr():  # a fresh gradient (first step, or grads were set to None)
            view.copy_(grad)
            if bucket.alias:
                p.grad = view
        bucket.copied[index] = True

    def _launch_ready(self) -> None:
        while self.next_launch < len(self.buckets):
            bucket = self.buckets[self.next_launch]
            if bucket.ready < len(bucket.params):
                return
            if self.prescale != 1.0:
                bucket.buffer.mul_(self.prescale)
            bucket.work = self.transport.all_reduce(bucket.buffer, self.reduce_op)
            self.next_launch += 1

    # ---- at step() ------------------------------------------------------------------------------------------------
    def synchronize(self) -> None:
        """Reduce whatever was not reduced yet (in bucket order), wait for everything, write the gradients back."""
        for bucket in self.buckets[self.next_launch:]:
            for i, done in enumerate(bucket.copied):
                if not done:
                    self._copy_in(bucket, i)
            bucket.ready = len(bucket.params)
        self._launch_ready()
        for bucket in self.buckets:
            bucket.work.wait()
            if self.postscale != 1.0:
                bucket.buffer.mul_(self.postscale)
            for p, view in zip(bucket.params, bucket.views):
                if p.grad.is_sparse:
                    p.grad = view.to(p.dtype).to_sparse()
                elif p.grad.data_ptr() != view.data_ptr():
                    p.grad.copy_(view)  # a float16 wire buffer is cast back to the gradient's dtype here
            bucket.work, bucket.ready = None, 0
            bucket.copied = [False] * len(bucket.params)
        self.next_launch = 0
        self.active = False
        self.reset_passes(self.passes)

    def zero_grad(self, set_to_none: bool) -> None:
        """Zero the buckets and keep the gradients as views of them (so backward keeps accumulating in place).

        Under DistributedOptimizer a parameter without a gradient is reduced as zeros at step() anyway (Horovod's
        rule), so zeros instead of None change no update.
        """
        for bucket in self.buckets:
            if bucket.alias:
                bucket.buffer.zero_()
                for p, view in zip(bucket.params, bucket.views):
                    p.grad = view
                continue
            for p in bucket.params:
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:
                    p.grad.detach_()
                    p.grad.zero_()

    def remove(self) -> None:
        for hook in self._hooks:
            hook.remove()
        self._hooks = []
