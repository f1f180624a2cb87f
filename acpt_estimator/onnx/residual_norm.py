"""Residual add + layer norm: ORT's SkipLayerNormalization, or Sum + LayerNormalization when that is faster here."""

from __future__ import annotations

import dataclasses
import statistics
import time

# Why: ORT 1.32's CPU SkipLayerNormalization kernel ran 3x slower on this project's machine than its own
# LayerNormalization kernel after a Sum of the same inputs (421 vs 147 us at 32x32x64, one thread), and the
# residual norms were a third of the TwinBERT sample's time at batch 32. ORT's SkipLayerNormFusion matches
# Add -> LayerNormalization only, so writing the residual add as Sum keeps the faster pair through ORT's
# optimiser, in the saved graph and in every later session that loads it.
MODES = ("auto", "sum", "fused")
_SHAPE, _ROUNDS, _CALLS = (32, 32), 5, 10  # the timing probe: batch 32 x 32 tokens, interleaved rounds, medians


@dataclasses.dataclass
class ResidualNormReport:
    """How the graph's residual add + layer norm pairs are written, and why."""

    mode: str
    rewritten: int = 0  # pairs written as Sum + LayerNormalization
    kept: int = 0  # pairs left for ORT's SkipLayerNormalization fusion
    why_kept: str | None = None
    timing: tuple | None = None  # (hidden size, SkipLayerNormalization us, Sum + LayerNormalization us)

    def __str__(self) -> str:
        total = self.rewritten + self.kept
        if not total:
            return "residual layer norms: none in the graph (nothing for SkipLayerNormalization)"
        measured = ""
        if self.timing:
            hidden, fused, split = self.timing
            measured = (f"; timed here at {_SHAPE[0]}x{_SHAPE[1]}x{hidden}, 1 thread: SkipLayerNormalization "
                        f"{fused:.0f} us, Sum + LayerNormalization {split:.0f} us")
        text = f"residual layer norms: {self.rewritten} of {total} as Sum + LayerNormalization{measured}"
        if self.kept:
            text += f"\n  {self.kept} left to ORT's SkipLayerNormalization fusion: {self.why_kept}"
        return text


def apply(src: str, dst: str, mode: str = "auto") -> tuple:
    """``(path, ResidualNormReport)``: ``dst`` with the residual norms rewritten, or ``src`` if none were."""
    import onnx

    from .report import OnnxExportError

    if mode not in MODES:
        raise OnnxExportError(f"residual_norm={mode!r}: use 'auto' (time both forms here and keep the faster), "
                              "'sum' (Sum + LayerNormalization) or 'fused' (ORT's SkipLayerNormalization).")
    model = onnx.load(src)
    graph = model.graph
    plans = _find(graph)
    report = ResidualNormReport(mode)
    if plans and mode == "fused":
        report.kept, report.why_kept = len(plans), "residual_norm='fused' was asked for"
    elif plans and mode == "auto":
        report.timing = (plans[0][2], *time_forms(plans[0][2]))
        if report.timing[2] > 0.9 * report.timing[1]:
            report.kept, report.why_kept = len(plans), "it was as fast here (under 10 % apart)"
    if not plans or report.kept:
        return src, report
    drop, replace = set(), {}
    for index, extra, _ in plans:
        node = graph.node[index]
        if node.op_type == "SkipLayerNormalization":
            replace[index] = _split_skip(node, f"_residual{index}")
        else:
            add = graph.node[extra[0]]
            terms = list(add.input)
            if len(extra) == 2:  # MatMul -> Add(bias) -> Add(residual): one Sum of all three
                bias_add = graph.node[extra[1]]
                terms = [t for t in terms if t != bias_add.output[0]] + list(bias_add.input)
                drop.add(extra[1])
            drop.add(extra[0])
            replace[index] = [onnx.helper.make_node("Sum", terms, list(add.output), name=f"_residual{index}_sum"),
                              node]
    nodes = []
    for index, node in enumerate(graph.node):
        if index not in drop:
            nodes += replace.get(index, [node])
    del graph.node[:]
    graph.node.extend(nodes)
    report.rewritten = len(plans)
    onnx.save(model, dst)
    return dst, report


def _find(graph) -> list:
    """``[(layer norm's index, [residual Add's index, bias Add's index?] or [], hidden size)]``."""
    import math

    producers = {out: i for i, node in enumerate(graph.node) for out in node.output}
    consumers = {}
    for node in graph.node:
        for name in node.input:
            consumers[name] = consumers.get(name, 0) + 1
    outputs = {o.name for o in graph.output}
    consts = {t.name: t for t in graph.initializer}

    def single_use(name):
        return consumers.get(name) == 1 and name not in outputs

    def add_at(name):
        index = producers.get(name)
        node = graph.node[index] if index is not None else None
        return index if node is not None and node.op_type == "Add" and node.domain in ("", "ai.onnx") else None

    plans = []
    for index, node in enumerate(graph.node):
        if node.op_type == "SkipLayerNormalization" and node.domain == "com.microsoft":
            if not any(name and (name in consumers or name in outputs) for name in node.output[1:3]):
                plans.append((index, [], node.input[2]))
            continue
        if node.op_type != "LayerNormalization" or node.domain not in ("", "ai.onnx"):
            continue
        attrs = {a.name: a.i for a in node.attribute if a.name == "axis"}
        residual = add_at(node.input[0])
        if attrs.get("axis", -1) != -1 or residual is None or not single_use(node.input[0]):
            continue
        terms = graph.node[residual].input
        if any(t in consts for t in terms):
            continue  # x + constant is not a residual connection
        extra = [residual]
        for term in terms:
            bias = add_at(term)
            if bias is not None and single_use(term) and sum(t in consts for t in graph.node[bias].input) == 1:
                const = next(consts[t] for t in graph.node[bias].input if t in consts)
                if len(const.dims) == 1:  # a Linear's bias: folded into the same Sum
                    extra.append(bias)
                    break
        scale = node.input[1]
        plans.append((index, extra, scale))
    return [(index, extra, int(math.prod(consts[scale].dims)) if scale in consts else 0)
            for index, extra, scale in plans if scale in consts]


def _split_skip(node, prefix: str) -> list:
    """SkipLayerNormalization as Sum(input, skip[, bias]) then LayerNormalization (and its sum output kept)."""
    from onnx import helper

    ins = list(node.input) + [""] * 5
    total = node.output[3] if len(node.output) > 3 and node.output[3] else prefix + "_sum"
    eps = next((helper.get_attribute_value(a) for a in node.attribute if a.name == "epsilon"), 1e-12)
    norm = [ins[2]] + ([ins[3]] if ins[3] else [])
    return [helper.make_node("Sum", [t for t in (ins[0], ins[1], ins[4]) if t], [total], name=prefix + "_sum"),
            helper.make_node("LayerNormalization", [total, *norm], [node.output[0]], name=prefix + "_norm",
                             axis=-1, epsilon=eps)]


def time_forms(hidden: int) -> tuple:
    """``(SkipLayerNormalization us, Sum + LayerNormalization us)`` per call, CPU time of one thread.

    CPU time of the calling thread (ORT runs a 1-thread session on it) rather than wall time: other processes on a
    shared machine then barely move the figures, and the two forms take turns so what remains hits both alike.
    """
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    from .runtime import ort_session

    rng = np.random.default_rng(0)
    consts = [numpy_helper.from_array(rng.random(hidden, dtype=np.float32), name) for name in ("g", "b", "bias")]
    skip = helper.make_node("SkipLayerNormalization", ["x", "y", "g", "b", "bias"], ["out"], domain="com.microsoft",
                            epsilon=1e-5)
    feed = {name: rng.standard_normal((*_SHAPE, hidden), dtype=np.float32) for name in ("x", "y")}
    sessions = []
    for nodes in ([skip], _split_skip(skip, "_")):
        graph = helper.make_graph(nodes, "residual_norm",
                                  [helper.make_tensor_value_info(n, TensorProto.FLOAT, list(feed[n].shape))
                                   for n in ("x", "y")],
                                  [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)], consts)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                        helper.make_opsetid("com.microsoft", 1)])
        sessions.append(ort_session(model.SerializeToString(), threads=1, level="basic"))
    samples = ([], [])
    for _ in range(_ROUNDS):
        for session, out in zip(sessions, samples):
            session.run(None, feed)
            started = time.thread_time()
            for _ in range(_CALLS):
                session.run(None, feed)
            out.append((time.thread_time() - started) / _CALLS * 1e6)
    return statistics.median(samples[0]), statistics.median(samples[1])
