"""Latency of eager PyTorch and each ONNX variant, on the same inputs in the same process."""

from __future__ import annotations

import statistics
import time

from . import inputs as _inputs
from . import runtime
from .report import LatencyRow

_SETTLE_S = 0.3  # longer than the thread pools spin after a call (measured: 0.1 s was not enough)


def batch_dim(specs) -> str | None:
    """The dynamic dim on axis 0 of the first input that has one: the batch, by convention."""
    for spec in specs:
        if spec.dims and isinstance(spec.dims[0], str):
            return spec.dims[0]
    return None


def measure(model, variants: dict, specs, *, batches=(1, 32), repeats=30, warmup=5, threads=None, seed=0,
            clock="wall"):
    """``([LatencyRow], setup text)``: median of ``repeats`` calls after ``warmup``, per variant and batch.

    ``clock="cpu"`` times the CPU time of the calling thread instead of wall time, with one thread for both
    runtimes (ORT and torch then both compute on the caller's thread): on a machine other processes load, wall
    times of multi-threaded runtimes mostly measure the contention, CPU time of one thread hardly moves.
    """
    import numpy as np
    import torch

    from .report import OnnxExportError

    if clock not in ("wall", "cpu"):
        raise OnnxExportError(f"clock={clock!r}: use 'wall' or 'cpu'.")
    if clock == "cpu" and threads != 1:
        raise OnnxExportError(f"clock='cpu' with threads={threads!r}: the calling thread's CPU time covers one "
                              "thread only; pass threads=1, or clock='wall'.")
    threads = threads or torch.get_num_threads()
    previous = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        dim = batch_dim(specs)
        if dim is None:  # no dynamic batch axis: only the example's own batch can run
            sizes = [(specs[0].example_shape[0] if specs and specs[0].example_shape else 1, {})]
        else:
            sizes = [(b, {dim: b}) for b in batches]
        sessions = {name: runtime.ort_session(path, threads=threads) for name, path in variants.items()}
        names = [s.name for s in specs]
        rows = []
        rng = np.random.default_rng(seed)
        for batch, dims in sizes:
            arrays = _inputs.make_inputs(specs, {**_inputs.example_sizes(specs), **dims}, rng)
            tensors = [torch.from_numpy(a) for a in arrays]
            calls = {"pytorch": _eager(model, tensors)}
            for name, session in sessions.items():
                calls[name] = _ort(session, runtime.feed(session, names, arrays))
            # One thread has no pool to spin: no pause needed there.
            timings = _time_calls(calls, repeats, warmup, time.thread_time if clock == "cpu" else time.perf_counter,
                                  settle=_SETTLE_S if threads > 1 else 0.0)
            eager = statistics.median(timings["pytorch"])
            for name, samples in timings.items():
                median = statistics.median(samples)
                rows.append(LatencyRow(name, batch, median * 1e3, eager / median))
    finally:
        torch.set_num_threads(previous)
    what = "CPU time of the calling thread" if clock == "cpu" else "wall time"
    quiet = f", each block of calls after a {_SETTLE_S:g} s pause (thread pools quiet)" if threads > 1 else ""
    setup = (f"median of {repeats} runs after {warmup} warm-up ({what}), {threads} thread(s) for torch and ORT, "
             f"CPUExecutionProvider with IO binding{quiet}; speed-up = eager ms / variant ms")
    return rows, setup


def _time_calls(calls: dict, repeats: int, warmup: int, clock=time.perf_counter, settle: float = 0.0) -> dict:
    """Seconds per call, per runtime, timed in blocks of about 10 calls that take turns.

    Taking turns spreads load from other processes on a shared machine over every runtime alike, the more
    rounds the finer. Blocks rather than single calls, each after a pause of ``settle`` seconds: a runtime's
    thread pool keeps spinning after its last call (ORT's and OpenMP's for over 0.1 s here) and, on a machine with
    as many cores as threads, took half the cores from whichever runtime ran next, more than doubling its time. A
    server runs one runtime, so each block starts on quiet pools; the first call of each block is not timed either.
    """
    rounds = max(1, min(20, repeats // 10))
    per_block = -(-repeats // rounds)
    for call in calls.values():
        for _ in range(warmup):
            call()
    timings = {name: [] for name in calls}
    for _ in range(rounds):
        for name, call in calls.items():
            if settle:
                time.sleep(settle)
            call()
            for _ in range(per_block):
                started = clock()
                call()
                timings[name].append(clock() - started)
    return timings


def _eager(model, tensors):
    import torch

    def call():
        with torch.inference_mode():
            model(*tensors)

    return call


def _ort(session, feed):
    """Inputs bound once and outputs left in ORT's memory, as a server reusing its buffers would call it."""
    binding = session.io_binding()
    for name, array in feed.items():
        binding.bind_cpu_input(name, array)
    for output in session.get_outputs():
        binding.bind_output(output.name, "cpu")
    return lambda: session.run_with_iobinding(binding)
