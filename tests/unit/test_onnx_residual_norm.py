"""Residual add + layer norm rewritten as Sum + LayerNormalization: same outputs, and ORT keeps it through its optimiser."""

import collections

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from acpt_estimator.onnx import OnnxExportError
from acpt_estimator.onnx import residual_norm

D = 16
RNG = np.random.default_rng(0)


def _const(name, *shape):
    return numpy_helper.from_array(RNG.standard_normal(shape).astype(np.float32), name)


def _save(tmp_path, nodes, consts, outputs=("out",), name="g.onnx"):
    inputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, ["batch", 8, D]) for n in ("x", "y")]
    graph = helper.make_graph(nodes, "g", inputs, [helper.make_tensor_value_info(o, TensorProto.FLOAT, None)
                                                   for o in outputs], consts)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)])
    path = str(tmp_path / name)
    onnx.save(model, path)
    return path


def _post_layer(tmp_path):
    """A post-norm transformer sub-layer's tail: x + (y @ W + b), then LayerNormalization."""
    nodes = [helper.make_node("MatMul", ["y", "W"], ["proj"]), helper.make_node("Add", ["proj", "b"], ["biased"]),
             helper.make_node("Add", ["x", "biased"], ["res"]),
             helper.make_node("LayerNormalization", ["res", "gamma", "beta"], ["out"], epsilon=1e-5)]
    return _save(tmp_path, nodes, [_const("W", D, D), _const("b", D), _const("gamma", D), _const("beta", D)])


def _run(path, level="disable", save_to=None):
    options = ort.SessionOptions()
    options.graph_optimization_level = {"disable": ort.GraphOptimizationLevel.ORT_DISABLE_ALL,
                                        "extended": ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED}[level]
    if save_to:
        options.optimized_model_filepath = save_to
    feed = {n: np.random.default_rng(1).standard_normal((3, 8, D)).astype(np.float32) for n in ("x", "y")}
    return ort.InferenceSession(path, options, providers=["CPUExecutionProvider"]).run(None, feed)[0]


def _ops(path):
    return collections.Counter(n.op_type for n in onnx.load(path).graph.node)


def test_the_residual_and_bias_adds_become_one_sum_and_ort_keeps_it(tmp_path):
    src = _post_layer(tmp_path)
    dst, report = residual_norm.apply(src, str(tmp_path / "sum.onnx"), "sum")
    assert dst.endswith("sum.onnx") and (report.rewritten, report.kept) == (1, 0)
    assert _ops(dst) == {"MatMul": 1, "Sum": 1, "LayerNormalization": 1}
    assert len(next(n for n in onnx.load(dst).graph.node if n.op_type == "Sum").input) == 3
    np.testing.assert_allclose(_run(dst), _run(src), atol=1e-5)
    # ORT's optimiser fuses the Add form into SkipLayerNormalization but leaves the Sum form alone
    _run(src, "extended", str(tmp_path / "src.opt.onnx"))
    _run(dst, "extended", str(tmp_path / "dst.opt.onnx"))
    assert _ops(str(tmp_path / "src.opt.onnx"))["SkipLayerNormalization"] == 1
    assert _ops(str(tmp_path / "dst.opt.onnx"))["SkipLayerNormalization"] == 0
    assert "residual layer norms: 1 of 1 as Sum + LayerNormalization" in str(report)


def test_an_existing_skip_layer_norm_is_split(tmp_path):
    node = helper.make_node("SkipLayerNormalization", ["x", "y", "gamma", "beta", "b"], ["out", "", "", "sum"],
                            domain="com.microsoft", epsilon=1e-5)
    src = _save(tmp_path, [node], [_const("gamma", D), _const("beta", D), _const("b", D)], outputs=("out", "sum"))
    dst, report = residual_norm.apply(src, str(tmp_path / "split.onnx"), "sum")
    assert report.rewritten == 1 and _ops(dst) == {"Sum": 1, "LayerNormalization": 1}
    np.testing.assert_allclose(_run(dst), _run(src), atol=1e-5)


def test_fused_mode_and_non_residual_norms_are_left_alone(tmp_path):
    src = _post_layer(tmp_path)
    path, report = residual_norm.apply(src, str(tmp_path / "unused.onnx"), "fused")
    assert path == src and (report.rewritten, report.kept) == (0, 1)
    assert "1 left to ORT's SkipLayerNormalization fusion: residual_norm='fused' was asked for" in str(report)
    # x + a constant is no residual connection; a norm whose input has a second reader cannot absorb the add
    nodes = [helper.make_node("Add", ["x", "b"], ["shifted"]),
             helper.make_node("LayerNormalization", ["shifted", "gamma", "beta"], ["out"]),
             helper.make_node("Add", ["x", "y"], ["res"]), helper.make_node("Relu", ["res"], ["also"]),
             helper.make_node("LayerNormalization", ["res", "gamma", "beta"], ["out2"])]
    other = _save(tmp_path, nodes, [_const("b", D), _const("gamma", D), _const("beta", D)],
                  outputs=("out", "out2", "also"), name="other.onnx")
    path, report = residual_norm.apply(other, str(tmp_path / "other2.onnx"), "sum")
    assert path == other and report.rewritten == 0
    assert str(report) == "residual layer norms: none in the graph (nothing for SkipLayerNormalization)"


def test_auto_times_both_forms_and_reports_the_choice(tmp_path):
    dst, report = residual_norm.apply(_post_layer(tmp_path), str(tmp_path / "auto.onnx"), "auto")
    hidden, fused_us, sum_us = report.timing
    assert hidden == D and fused_us > 0 and sum_us > 0
    assert report.rewritten + report.kept == 1
    assert f"timed here at 32x32x{D}, 1 thread: SkipLayerNormalization" in str(report)


def test_an_unknown_mode_names_the_parameter(tmp_path):
    with pytest.raises(OnnxExportError, match="residual_norm='fast': use 'auto'"):
        residual_norm.apply(_post_layer(tmp_path), str(tmp_path / "x.onnx"), "fast")
