"""``export``: a trained model to ONNX with the torch.export-based exporter, checked, verified and timed."""

from __future__ import annotations

import contextlib
import inspect
import logging
import os
import re
import time
import warnings

from . import inputs as _inputs
from . import runtime
from .report import ExportReport, OnnxExportError, Tolerance, VariantReport

LEGACY_OPSET = 17  # what the TorchScript exporter handles best; the dynamo exporter picks its own (20 in 2.13)


def export(model, example_inputs, path, *, input_names=None, output_names=None, dynamic_axes=None,
           dynamic_shapes=None, opset=None, exporter="dynamo", fallback=False, verify=True,
           tolerance=Tolerance(), verify_sizes=None, verify_inputs=None, value_ranges=None, classifier="auto",
           optimize=False, optimize_level="extended", residual_norm="auto", int8=False, int8_tolerance=None,
           int8_op_types=("MatMul", "Gemm"), latency=True, latency_batches=(1, 32), latency_repeats=30,
           latency_warmup=5, threads=None, seed=0) -> ExportReport:
    """Export ``model`` to ``path`` and prove it: onnx.checker, then ORT against PyTorch at many shapes.

    ``dynamic_axes`` takes torch.onnx's dict form (``{"ids": {0: "batch", 1: "seq"}}`` or ``{"ids": [0, 1]}``);
    ``dynamic_shapes`` takes torch.export's form instead. Verification feeds the example, then three other sizes
    of every dynamic dim (``verify_sizes={"seq": [...]}`` overrides), then all varied at once, plus any
    ``verify_inputs``; it raises OnnxVerificationError naming the shape that broke. ``optimize`` saves an ORT
    graph-optimised copy, ``int8`` a dynamically quantised one; both are verified and reported the same way
    (int8 errors are reported, not enforced, unless ``int8_tolerance`` is given). Both are made from a second
    export in which every self-attention ``nn.MultiheadAttention`` becomes ORT's fused ``Attention`` op;
    ``report.fusion`` lists the fused ops, and each module not fused with the reason. ``residual_norm`` says
    how those variants write a residual add followed by layer norm: "auto" times ORT's fused
    SkipLayerNormalization against Sum + LayerNormalization at the model's hidden size on this machine and keeps
    the faster, "sum" and "fused" force one; ``report.fusion`` says which was used and the timings. ``latency`` times eager
    PyTorch against every variant. ``exporter="legacy"`` forces the TorchScript exporter; ``fallback=True``
    uses it only when the torch.export-based one fails.
    """
    if exporter not in ("dynamo", "legacy"):
        raise OnnxExportError(f"exporter={exporter!r}: use 'dynamo' (torch.export-based, the default) or 'legacy'.")
    if dynamic_axes is not None and dynamic_shapes is not None:
        raise OnnxExportError("pass dynamic_axes (torch.onnx dict form) or dynamic_shapes (torch.export form), "
                              "not both.")
    path = os.fspath(path)
    arrays = runtime.to_numpy_inputs(example_inputs)
    args = _as_args(example_inputs)
    arg_names = _forward_arg_names(model, len(args))
    input_names = list(input_names or arg_names)
    if len(input_names) != len(args):
        raise OnnxExportError(f"{len(args)} example input(s) but {len(input_names)} input_names {input_names}; "
                              "give one name per positional argument of forward().")
    was_training = model.training
    model.eval()  # dropout and batch-norm statistics must be the serving ones on both sides
    try:
        n_outputs = len(runtime.run_torch(model, arrays))
        output_names = list(output_names or (["output"] if n_outputs == 1 else
                                             [f"output_{i}" for i in range(n_outputs)]))
        declared = _declared_axes(dynamic_axes, dynamic_shapes, input_names, output_names, arg_names, arrays)
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        started = time.perf_counter()
        used, fallback_reason, notes = _run_exporter(model, args, path, exporter, fallback, input_names,
                                                     output_names, dynamic_axes, dynamic_shapes, declared, opset)
        seconds = time.perf_counter() - started
        proto = _check(path)
        graph_inputs = _inputs.onnx_inputs(proto)
        _check_declared_axes(graph_inputs, declared, used)
        specs = _inputs.specs_from_example(graph_inputs, input_names, arrays, value_ranges)
        report = ExportReport(
            path=path, exporter=used, opset=_opset(proto),
            inputs={s.name: (s.dtype, s.dims) for s in specs},
            outputs={n: (d, dims) for n, d, dims in _inputs.onnx_outputs(proto)},
            dynamic_dims=_inputs.dynamic_map(specs), export_seconds=seconds, fallback_reason=fallback_reason,
            notes=notes, input_specs=specs)
        def reexport(dst):  # the same export again, for the fused variants
            _run_exporter(model, args, dst, report.exporter, False, input_names, output_names, dynamic_axes,
                          dynamic_shapes, declared, opset)

        _make_variants(report, model, specs, arrays, output_names, reexport, verify=verify, tolerance=tolerance,
                       verify_sizes=verify_sizes, verify_inputs=verify_inputs, classifier=classifier,
                       optimize=optimize, optimize_level=optimize_level, residual_norm=residual_norm, int8=int8,
                       int8_tolerance=int8_tolerance, int8_op_types=int8_op_types, seed=seed, threads=threads)
        if latency:
            from .latency import measure

            report.latency, report.latency_setup = measure(
                model, {v.name: v.path for v in report.variants}, specs, batches=latency_batches,
                repeats=latency_repeats, warmup=latency_warmup, threads=threads, seed=seed)
        return report
    finally:
        model.train(was_training)


def _make_variants(report, model, specs, arrays, output_names, reexport, *, verify, tolerance, verify_sizes,
                   verify_inputs, classifier, optimize, optimize_level, residual_norm, int8, int8_tolerance,
                   int8_op_types, seed, threads):
    """fp32, then the optional ORT-optimised and int8 files; each verified on the same cases when ``verify``."""
    from .verify import build_cases, check_variant, raise_if_failed

    stem = report.path[:-5] if report.path.endswith(".onnx") else report.path
    files = [("fp32", report.path, Tolerance.of(tolerance))]
    if optimize or int8:
        from .optimize import optimised_variants

        if optimize_level not in ("basic", "extended", "all"):
            raise OnnxExportError(f"optimize_level={optimize_level!r}: use 'basic', 'extended' or 'all'.")
        made, report.fusion = optimised_variants(model, report.path, stem, reexport, report.exporter,
                                                 optimize=optimize, level=optimize_level, int8=int8,
                                                 int8_op_types=int8_op_types, residual_norm=residual_norm)
        files += [(name, path, Tolerance.of(int8_tolerance if name == "int8" else tolerance)) for name, path in made]
    if not verify:
        report.variants = [VariantReport(name, file, tol) for name, file, tol in files]
        return
    cases = build_cases(model, specs, arrays, verify_sizes=verify_sizes, verify_inputs=verify_inputs,
                                seed=seed)
    for name, file, tol in files:
        variant = check_variant(name, file, cases, specs, output_names, tol, classifier=classifier,
                                        threads=threads)
        report.variants.append(variant)
    for variant in report.variants:
        raise_if_failed(variant, cases, specs, report.exporter, report=report)


def _run_exporter(model, args, path, exporter, fallback, input_names, output_names, dynamic_axes, dynamic_shapes,
                  declared, opset):
    """Returns (exporter used, why it fell back or None, notes from the exporter worth showing)."""
    if exporter == "legacy":
        return "legacy", None, _legacy(model, args, path, input_names, output_names, dynamic_axes, declared, opset)
    try:
        return "dynamo", None, _dynamo(model, args, path, input_names, output_names, dynamic_shapes, declared, opset)
    except OnnxExportError as exc:
        if not fallback:
            raise
        reason = exc.message.split("\nFix:")[0]
        notes = _legacy(model, args, path, input_names, output_names, dynamic_axes, declared, opset)
        return "legacy", reason, notes


def _dynamo(model, args, path, input_names, output_names, dynamic_shapes, declared, opset):
    import torch

    if dynamic_shapes is None and declared:
        # torch.onnx turns a str into Dim.DYNAMIC and renames the graph's dim to it. A named torch.export Dim with
        # min=1 would instead let torch.export specialise an example size of 1 to a constant, silently.
        per_input = {}
        for (name, axis), dim in declared.items():
            per_input.setdefault(name, {})[axis] = dim
        dynamic_shapes = tuple(per_input.get(name) for name in input_names)
    try:
        with _quiet_exporter():
            program = torch.onnx.export(model, args, dynamo=True, verbose=False, input_names=input_names,
                                        output_names=output_names, dynamic_shapes=dynamic_shapes,
                                        opset_version=opset)
        program.save(path)
    except Exception as exc:
        raise OnnxExportError(
            f"the torch.export-based exporter failed: {_torch_export_summary(exc)}\nFix: change the model code "
            "named above (data-dependent control flow, unsupported ops; see torch's exportdb), or pass "
            "fallback=True (or exporter='legacy') to use the deprecated TorchScript exporter; verification still "
            "tests every dynamic axis.", inner_exception=exc) from exc
    return []


def _torch_export_summary(exc) -> str:
    """torch's root cause and the user's line that raised it, from its long multi-section message."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))
    lines = [line.rstrip() for line in text.split("\n")]
    picked = []
    for marker, take in (("## Exception summary", 1), ("The following call raised this error:", 2)):
        if marker in lines:
            rest = [line for line in lines[lines.index(marker) + 1:] if line.strip()]
            picked += [line.strip() for line in rest[:take]]
    return " | ".join(picked)[:800] if picked else f"{type(exc).__name__}: {lines[0][:500]}"


def _legacy(model, args, path, input_names, output_names, dynamic_axes, declared, opset):
    import torch

    axes = dynamic_axes
    if axes is None and declared:
        axes = {}
        for (name, axis), dim in declared.items():
            axes.setdefault(name, {})[axis] = dim
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            torch.onnx.export(model, args, path, dynamo=False, input_names=input_names, output_names=output_names,
                              dynamic_axes=axes, opset_version=opset or LEGACY_OPSET)
        except Exception as exc:
            raise OnnxExportError(f"the legacy TorchScript exporter failed: {type(exc).__name__}: {exc}",
                                  inner_exception=exc) from exc
    notes = ["the legacy TorchScript exporter is deprecated since torch 2.9; it traces the example's sizes"]
    tracer = {str(w.message).split(".")[0] for w in caught if w.category.__name__ == "TracerWarning"}
    notes += [f"TracerWarning: {t} (a traced value became a constant)" for t in sorted(tracer)]
    return notes


@contextlib.contextmanager
def _quiet_exporter():
    """The dynamo exporter logs one warning per missing torchvision op and a pytree FutureWarning; hide them."""
    logger = logging.getLogger("torch.onnx._internal.exporter._registration")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=FutureWarning)
            # Two inputs sharing a dim name ("batch") that torch.export unified: the name is kept, nothing is lost.
            warnings.filterwarnings("ignore", message=".*shares the same shape constraints with another axis")
            yield
    finally:
        logger.setLevel(level)


def _check(path):
    """onnx.checker (given the path, so models over 2 GB with external data work); returns the proto."""
    import onnx

    try:
        onnx.checker.check_model(path, full_check=True)
    except Exception as exc:
        raise OnnxExportError(f"onnx.checker rejected {path}: {exc}", inner_exception=exc) from exc
    return onnx.load(path, load_external_data=False)


def _check_declared_axes(graph_inputs, declared, exporter):
    dims = {name: d for name, _, d in graph_inputs}
    for (name, axis), dim in declared.items():
        if name not in dims:
            continue  # the exporter dropped an input the model does not use
        got = dims[name][axis]
        if isinstance(got, int):
            hint = ("torch.export specialised it: the model's code treats that size as a constant, or a Dim's "
                    "min/max (an example size of 1 with min=1) pinned it; use dynamic_axes names or Dim.DYNAMIC, "
                    "or make the code size-generic" if exporter == "dynamo" else
                    "the legacy exporter kept it fixed; use the torch.export-based exporter (dynamo=True)")
            raise OnnxExportError(f"axis {axis} of input {name!r} was declared dynamic ({dim!r}) but the exported "
                                  f"graph fixes it to {got}: {hint}.")


def _declared_axes(dynamic_axes, dynamic_shapes, input_names, output_names, arg_names, arrays) -> dict:
    """``{(input name, axis): dim name}`` from either form, validated against the example inputs."""
    ranks = dict(zip(input_names, (a.ndim for a in arrays)))
    declared = {}
    if dynamic_axes is not None:
        for name, axes in dynamic_axes.items():
            if name in output_names and name not in ranks:
                continue  # the exporters derive output dims; only the legacy one reads these
            if name not in ranks:
                raise OnnxExportError(f"dynamic_axes names {name!r}, which is not an input or output; inputs are "
                                      f"{input_names}, outputs {output_names}.")
            pairs = axes.items() if isinstance(axes, dict) else ((a, f"{name}_dim{a}") for a in axes)
            for axis, dim in pairs:
                declared[(name, _axis(name, axis, ranks[name]))] = str(dim)
    elif dynamic_shapes is not None:
        if isinstance(dynamic_shapes, dict):
            unknown = set(dynamic_shapes) - set(arg_names)
            if unknown:
                raise OnnxExportError(f"dynamic_shapes as a dict must be keyed by forward()'s argument names "
                                      f"{arg_names}, not {sorted(unknown)}; or pass a tuple, one entry per input.")
            entries = [dynamic_shapes.get(a) for a in arg_names]
        else:
            entries = list(dynamic_shapes)
        for name, spec in zip(input_names, entries):
            if spec is None:
                continue
            pairs = spec.items() if isinstance(spec, dict) else enumerate(spec)
            for axis, dim in pairs:
                # Dim.AUTO lets torch.export choose, so a fixed result is no broken promise.
                if dim is not None and not isinstance(dim, int) and "AUTO" not in str(dim):
                    declared[(name, _axis(name, axis, ranks[name]))] = getattr(dim, "__name__", str(dim))
    return declared


def _axis(name, axis, rank) -> int:
    if not isinstance(axis, int) or not -rank <= axis < rank:
        raise OnnxExportError(f"dynamic axis {axis!r} of input {name!r} is out of range: the example has rank {rank}.")
    return axis % rank


def _as_args(example_inputs) -> tuple:
    import torch

    return (example_inputs,) if isinstance(example_inputs, torch.Tensor) else tuple(example_inputs)


def _forward_arg_names(model, count) -> list:
    """forward()'s positional parameter names: the graph's input names when none are given."""
    try:
        params = [p for p in inspect.signature(model.forward).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    names = [p.name for p in params[:count]]
    return names if len(names) == count else [f"input_{i}" for i in range(count)]


def _opset(proto):
    return next((o.version for o in proto.opset_import if o.domain in ("", "ai.onnx")), None)
