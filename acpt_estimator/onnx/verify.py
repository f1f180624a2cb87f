"""Verification: ONNX Runtime against PyTorch at the example shape and at varied sizes of every dynamic axis."""

from __future__ import annotations

import dataclasses
import re

from . import inputs as _inputs
from . import runtime
from .report import OnnxVerificationError, OutputError, ShapeCheck, Tolerance, VariantReport


@dataclasses.dataclass
class Case:
    """One verification input set and PyTorch's outputs for it (computed once, shared by every variant)."""

    label: str
    sizes: dict | None  # dim name -> size; None for the user's own example
    arrays: list
    expected: list


def build_cases(model, specs, example_arrays, *, verify_sizes=None, verify_inputs=None, seed=0) -> list:
    """The example, each dynamic dim varied (default: three extra sizes), all varied, then the user's batches."""
    import numpy as np

    rng = np.random.default_rng(seed)
    cases = []
    for label, sizes in _inputs.shape_cases(specs, verify_sizes):
        arrays = list(example_arrays) if sizes is None else _inputs.make_inputs(specs, sizes, rng)
        cases.append(Case(label, sizes, arrays, _expected(model, specs, label, arrays)))
    for i, extra in enumerate(verify_inputs or ()):
        arrays = list(runtime.to_numpy_inputs(extra))
        cases.append(Case(f"verify_inputs[{i}]", None, arrays, _expected(model, specs, f"verify_inputs[{i}]", arrays)))
    return cases


def _expected(model, specs, label, arrays) -> list:
    try:
        return runtime.run_torch(model, arrays)
    except Exception as exc:
        shapes = ", ".join(f"{s.name} {list(a.shape)}" for s, a in zip(specs, arrays))
        raise OnnxVerificationError(
            f"PyTorch itself failed on verification case {label!r} ({shapes}): {type(exc).__name__}: {exc}. "
            "The model does not accept these sizes (e.g. a positional table shorter than the sequence); pass "
            "verify_sizes={'dim': [sizes the model accepts]} for that dynamic dim.") from exc


def check_variant(name, path, cases, specs, output_names, tolerance, *, classifier="auto", threads=None):
    """Run one ONNX file on every case; never raises for a mismatch (see ``raise_if_failed``)."""
    tolerance = Tolerance.of(tolerance)
    variant = VariantReport(name, str(path), tolerance)
    session = runtime.ort_session(path, threads=threads)
    names = [s.name for s in specs]
    labels = {}  # output -> ([torch labels], [onnx labels]) for top-1 agreement
    for case in cases:
        check = ShapeCheck(case.label, {n: tuple(a.shape) for n, a in zip(names, case.arrays)})
        variant.checks.append(check)
        try:
            got = runtime.run_ort(session, names, case.arrays)
        except Exception as exc:  # ORT raises its own Fail/RuntimeException types; the text is what matters
            check.failure = f"{type(exc).__name__}: {exc}"
            continue
        if len(got) != len(case.expected):
            check.failure = f"the ONNX graph returns {len(got)} outputs, PyTorch {len(case.expected)}"
            continue
        for out_name, actual, expected in zip(output_names, got, case.expected):
            if actual.shape != expected.shape:
                check.failure = (f"output {out_name!r} has shape {list(actual.shape)} in ONNX Runtime but "
                                 f"{list(expected.shape)} in PyTorch")
                break
            check.outputs.append(compare(out_name, actual, expected, tolerance))
            picked = _top1(actual, expected, classifier)
            if picked is not None:
                labels.setdefault(out_name, ([], []))
                labels[out_name][0].append(picked[1])
                labels[out_name][1].append(picked[0])
    import numpy as np

    for out_name, (want, got) in labels.items():
        want, got = np.concatenate(want), np.concatenate(got)
        variant.agreement[out_name] = float((want == got).mean()) if want.size else 1.0
    return variant


def compare(name, actual, expected, tolerance) -> OutputError:
    """Max abs error, max rel error (abs error over the largest |PyTorch| value) and the allclose verdict."""
    import numpy as np

    a = np.asarray(actual, dtype=np.float64)
    b = np.asarray(expected, dtype=np.float64)
    if a.size == 0:
        return OutputError(name, tuple(b.shape), 0.0, 0.0, True)
    diff = np.abs(a - b)
    both_nan = np.isnan(a) & np.isnan(b)
    diff = np.where(both_nan, 0.0, diff)
    max_abs = float(np.nanmax(diff)) if not np.isnan(diff).all() else float("inf")
    if np.isnan(diff).any():
        max_abs = float("inf")  # a NaN on one side only is a mismatch, whatever the tolerance
    scale = float(np.nanmax(np.abs(b))) if not np.isnan(b).all() else 0.0
    max_rel = max_abs / scale if scale > 0 else (0.0 if max_abs == 0 else float("inf"))
    if tolerance is None:
        ok = max_abs != float("inf")
    elif expected.dtype.kind in "biu":
        ok = max_abs == 0  # ints and bools (argmax, masks) must match exactly
    else:
        ok = bool(np.all(diff <= tolerance.atol + tolerance.rtol * np.abs(b)))
    return OutputError(name, tuple(b.shape), max_abs, max_rel, ok)


def _top1(actual, expected, classifier):
    """(onnx labels, torch labels) for a classifier output, or None."""
    if classifier is None or expected.dtype.kind != "f" or expected.ndim == 0:
        return None
    if isinstance(classifier, (int, float)) and not isinstance(classifier, bool):
        return (actual > classifier).ravel(), (expected > classifier).ravel()
    if classifier in ("auto", "argmax") and expected.ndim >= 2 and expected.shape[-1] >= 2:
        return actual.argmax(-1).ravel(), expected.argmax(-1).ravel()
    return None


def raise_if_failed(variant: VariantReport, cases, specs, exporter: str | None, report=None) -> None:
    """A clear error naming the variant, the shapes that broke, the dims involved and the likely fix."""
    failed = [(c, case) for c, case in zip(variant.checks, cases) if not c.ok]
    if not failed:
        return
    base = _inputs.example_sizes(specs)
    made_by = f", {exporter} exporter" if exporter else ""
    lines = [f"ONNX verification failed for variant {variant.name!r} ({variant.path}{made_by}): "
             f"{len(failed)} of {len(variant.checks)} shape case(s) broke."]
    for check, _ in failed:
        if check.failure is not None:
            reason = "ONNX Runtime failed: " + _short(check.failure)
        else:
            bad = [o for o in check.outputs if not o.ok]
            reason = "; ".join(f"output {o.output!r} max abs err {o.max_abs:.2e} (max rel {o.max_rel:.2e}) exceeds "
                               f"{variant.tolerance}" for o in bad)
        lines.append(f"  case {check.label!r} ({check.shape_text()}): {reason}")
    example_ok = all(c.ok for c in variant.checks if c.label == "example")
    dims = _broken_dims(failed, base)
    lines.append(_hint(example_ok, dims, exporter, variant, failed))
    from .report import checks_table

    lines.append("\n" + checks_table([variant]))
    raise OnnxVerificationError("\n".join(lines), report=report, variant=variant)


def _broken_dims(failed, base) -> list:
    """The dims whose single-dim cases failed; if only the all-varied case failed, every dim it varied."""
    varied = [{d for d, s in case.sizes.items() if base.get(d) != s} for _, case in failed if case.sizes]
    alone = sorted({d for v in varied if len(v) == 1 for d in v})
    return alone or sorted({d for v in varied for d in v})


def _hint(example_ok, dims, exporter, variant, failed) -> str:
    ort_failed = any(c.failure is not None for c, _ in failed)
    if example_ok and dims:
        where = ", ".join(dims)
        if exporter == "legacy":
            return (f"The example shape passes but other sizes of dynamic dim(s) {where} do not: the legacy "
                    "TorchScript exporter traced the example's sizes into the graph (e.g. a Reshape in attention). "
                    "Fix: export with the torch.export-based exporter (dynamo=True, the default; needs onnxscript), "
                    "or keep these axes fixed (drop them from dynamic_axes).")
        if exporter is None:  # a file given to verify/check: who made it is unknown
            return (f"The example shape passes but other sizes of dynamic dim(s) {where} do not: the graph is tied "
                    "to the example's sizes. If it came from the legacy TorchScript exporter (dynamo=False), "
                    "re-export with the torch.export-based one (dynamo=True); otherwise make the model code "
                    "size-generic, or keep these axes fixed.")
        return (f"The example shape passes but other sizes of dynamic dim(s) {where} do not: the graph is still tied "
                "to the example's sizes (the model turns a size into a Python int, or branches on it). Fix: make "
                "that code size-generic, or remove the axis from dynamic_axes/dynamic_shapes.")
    if ort_failed:
        return ("ONNX Runtime cannot run this graph even at the example shape: an operator or the opset may be "
                "unsupported by this onnxruntime; try another opset=..., or check the ORT message above.")
    return ("The file disagrees with PyTorch at the example shape too: check that dropout/batch-norm are in eval "
            "mode, that this is the checkpoint that was exported and that the model is deterministic. For a lossy "
            "file (int8) or plain float noise, loosen the tolerance (tolerance=(atol, rtol); --atol/--rtol).")


def _short(text: str, limit: int = 420) -> str:
    """ORT's message without its source paths and C++ signatures; the tail (the shapes) is what tells."""
    text = " ".join(text.split())
    text = re.sub(r"/onnxruntime_src/\S+ ", "", text)
    text = re.sub(r"onnxruntime::[\w:]+\([^)]*\) ", "", text)
    return text if len(text) <= limit else text[:limit // 3] + " ... " + text[-(2 * limit) // 3:]


def verify(onnx_path, model, example_inputs, *, input_names=None, output_names=None, tolerance=Tolerance(),
           verify_sizes=None, verify_inputs=None, value_ranges=None, classifier="auto", seed=0, name="fp32",
           raise_on_error=True) -> VariantReport:
    """Check an existing ONNX file against ``model``: the dynamic axes are read from the file itself."""
    import onnx

    proto = onnx.load(str(onnx_path), load_external_data=False)
    graph_inputs = _inputs.onnx_inputs(proto)
    arrays = runtime.to_numpy_inputs(example_inputs)
    names = list(input_names or [n for n, _, _ in graph_inputs])
    if len(names) != len(arrays):
        raise OnnxVerificationError(f"{len(arrays)} example input(s) but {len(names)} input name(s) {names}; pass "
                                    "input_names, one per positional argument of the model.")
    specs = _inputs.specs_from_example(graph_inputs, names, arrays, value_ranges)
    was_training = model.training
    model.eval()
    try:
        cases = build_cases(model, specs, arrays, verify_sizes=verify_sizes, verify_inputs=verify_inputs, seed=seed)
    finally:
        model.train(was_training)
    outs = list(output_names or [n for n, _, _ in _inputs.onnx_outputs(proto)])
    variant = check_variant(name, onnx_path, cases, specs, outs, tolerance, classifier=classifier)
    if raise_on_error:
        raise_if_failed(variant, cases, specs, exporter=None)
    return variant
