"""Pure parts of the ONNX helper: which shapes get verified, how inputs are made, how tables read."""

import numpy as np
import pytest

from acpt_estimator.onnx.cli import parse_dynamic, parse_sizes
from acpt_estimator.onnx.inputs import InputSpec, default_sizes, make_inputs, shape_cases
from acpt_estimator.onnx.report import (ExportReport, LatencyRow, OnnxExportError, OutputError, ShapeCheck,
                                        Tolerance, VariantReport)
from acpt_estimator.onnx.verify import compare


@pytest.mark.parametrize("n, expected", [(1, [2, 3, 4]), (2, [1, 5, 4]), (16, [1, 8, 33]), (32, [1, 16, 65])])
def test_three_sizes_other_than_the_example_and_batch_one_when_possible(n, expected):
    assert default_sizes(n) == expected


def _specs():
    return [InputSpec("q", "int64", ("batch", "q_len"), (4, 8), low=5, high=9),
            InputSpec("d", "float32", ("batch", 3), (4, 3), mean=10.0, std=0.5)]


def test_cases_vary_each_dim_alone_then_all_together():
    labels = [label for label, _ in shape_cases(_specs(), {"q_len": [2, 3, 30]})]
    assert labels == ["example", "batch=1", "batch=2", "batch=9", "q_len=2", "q_len=3", "q_len=30", "all varied"]
    assert dict(shape_cases(_specs()))["all varied"] == {"batch": 9, "q_len": 17}
    with pytest.raises(OnnxExportError, match=r"verify_sizes names \['seq'\].*dynamic dims are \['batch', 'q_len'\]"):
        shape_cases(_specs(), {"seq": [1]})


def test_inputs_are_made_at_the_new_sizes_and_look_like_the_example():
    q, d = make_inputs(_specs(), {"batch": 50, "q_len": 7}, np.random.default_rng(0))
    assert q.shape == (50, 7) and q.dtype == np.int64 and q.min() >= 5 and q.max() < 9  # ids stay in range
    assert d.shape == (50, 3) and d.dtype == np.float32 and abs(d.mean() - 10.0) < 0.5


def test_compare_uses_allclose_and_reports_relative_error_against_the_output_scale():
    expected = np.array([10.0, -20.0, 0.0], dtype=np.float32)
    close = compare("y", expected + 1e-3, expected, Tolerance(1e-4, 1e-3))
    assert not close.ok  # 1e-3 > 1e-4 + 1e-3 * |0| for the last element
    assert close.max_abs == pytest.approx(1e-3, rel=1e-3) and close.max_rel == pytest.approx(5e-5, rel=1e-2)
    assert compare("y", expected + 1e-5, expected, Tolerance()).ok
    nan = compare("y", np.array([np.nan, 1.0]), np.array([0.0, 1.0]), None)
    assert not nan.ok and nan.max_abs == float("inf")  # even report-only variants fail on a one-sided NaN
    assert not compare("ids", np.array([1, 2]), np.array([1, 3]), Tolerance(10, 10)).ok  # ints compare exactly


def test_tolerance_accepts_the_usual_spellings():
    assert Tolerance.of((1e-3, 0.0)) == Tolerance(1e-3, 0.0) and Tolerance.of(1e-2) == Tolerance(1e-2, 0.0)
    assert Tolerance.of(None) is None
    with pytest.raises(OnnxExportError, match="tolerance='tight'"):
        Tolerance.of("tight")


def test_cli_parsers_take_the_torch_onnx_dict_form():
    assert parse_dynamic(["ids=0:batch,1:seq"], ["ids"]) == {"ids": {0: "batch", 1: "seq"}}
    assert parse_sizes(["seq=4,16,48"]) == {"seq": [4, 16, 48]}
    with pytest.raises(SystemExit, match="INPUT one of \\['x'\\]"):
        parse_dynamic(["ids=0:batch"], ["x"])
    with pytest.raises(SystemExit, match="DIM=N,N,N"):
        parse_sizes(["seq=a"])


def test_report_prints_summary_per_shape_and_latency_tables(tmp_path):
    path = tmp_path / "m.onnx"
    path.write_bytes(b"x" * 2048)
    check = ShapeCheck("seq=8", {"ids": (1, 8)}, [OutputError("logits", (1, 2), 3e-8, 1e-7, True)])
    broken = ShapeCheck("seq=33", {"ids": (1, 33)}, failure="Reshape failed")
    variant = VariantReport("fp32", str(path), Tolerance(), [check, broken], {"logits": 1.0})
    report = ExportReport(str(path), "legacy", 17, {"ids": ("int64", ("batch", "seq"))},
                          {"logits": ("float32", ("batch", 2))}, {"seq": ["ids[1]"]}, variants=[variant],
                          latency=[LatencyRow("pytorch", 1, 0.6, 1.0), LatencyRow("fp32", 1, 0.15, 4.0)],
                          latency_setup="median of 3 runs")
    text = str(report)
    assert "ONNX export: " in text and "(legacy exporter, opset 17, 2 kB" in text
    assert "input  ids: int64 [batch, seq]" in text and "dynamic axes: seq = ids[1]" in text
    assert "FAILED (1 case(s))" in text and "ORT ERROR" in text and "100.00 %" in text
    assert "fp32     0.150  4.00x" in text
    assert not report.ok and report.speedup("fp32", 1) == 4.0
