"""What an ONNX export found: per-shape errors per variant, accuracy deltas, latency, printed as tables."""

from __future__ import annotations

import dataclasses
import os

from ..exceptions import UserErrorException


@dataclasses.dataclass(frozen=True)
class Tolerance:
    """An output passes when ``|onnx - torch| <= atol + rtol * |torch|`` element-wise (numpy.allclose's rule)."""

    atol: float = 1e-4
    rtol: float = 1e-3

    @classmethod
    def of(cls, value) -> "Tolerance | None":
        """Accept a Tolerance, an ``(atol, rtol)`` pair, a bare atol, or None."""
        if value is None or isinstance(value, Tolerance):
            return value
        if isinstance(value, (int, float)):
            return cls(float(value), 0.0)
        if isinstance(value, (tuple, list)) and len(value) == 2:
            return cls(float(value[0]), float(value[1]))
        raise OnnxExportError(f"tolerance={value!r} is not understood; pass Tolerance(atol=..., rtol=...), "
                                 "an (atol, rtol) pair or a number (atol).")

    def __str__(self) -> str:
        return f"atol {self.atol:.0e}, rtol {self.rtol:.0e}"


@dataclasses.dataclass
class OutputError:
    """How far one ONNX output is from PyTorch's at one shape."""

    output: str
    shape: tuple
    max_abs: float
    max_rel: float
    ok: bool


@dataclasses.dataclass
class ShapeCheck:
    """One verification case: the input shapes fed, and per-output errors or the ORT failure."""

    label: str
    shapes: dict  # input name -> shape tuple
    outputs: list = dataclasses.field(default_factory=list)  # [OutputError]
    failure: str | None = None  # ONNX Runtime's message when the session could not run these shapes

    @property
    def ok(self) -> bool:
        return self.failure is None and all(o.ok for o in self.outputs)

    def shape_text(self) -> str:
        return ", ".join(f"{name} {_dims(shape)}" for name, shape in self.shapes.items())


@dataclasses.dataclass
class VariantReport:
    """One ONNX file (fp32 export, ORT-optimised, int8) verified against PyTorch."""

    name: str
    path: str
    tolerance: Tolerance | None  # None: errors are reported, not enforced (lossy variants such as int8)
    checks: list = dataclasses.field(default_factory=list)  # [ShapeCheck]
    agreement: dict = dataclasses.field(default_factory=dict)  # output -> top-1 agreement with PyTorch, 0..1

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def size_bytes(self) -> int:
        return os.path.getsize(self.path) if os.path.exists(self.path) else 0

    @property
    def max_abs(self) -> float:
        return max((o.max_abs for c in self.checks for o in c.outputs), default=float("nan"))

    @property
    def max_rel(self) -> float:
        return max((o.max_rel for c in self.checks for o in c.outputs), default=float("nan"))

    @property
    def top1_agreement(self) -> float | None:
        """The worst agreement over the classifier outputs, or None when no output is a classifier's."""
        return min(self.agreement.values()) if self.agreement else None

    @property
    def failures(self) -> list:
        return [c for c in self.checks if not c.ok]


@dataclasses.dataclass
class LatencyRow:
    """Median latency of one variant at one batch size; ``speedup`` is eager PyTorch's median over this one."""

    variant: str
    batch: int
    median_ms: float
    speedup: float


@dataclasses.dataclass
class ExportReport:
    """Returned by ``acpt_estimator.onnx.export``; ``print(report)`` shows every table."""

    path: str
    exporter: str  # "dynamo" (torch.export-based) or "legacy" (TorchScript)
    opset: int | None
    inputs: dict  # name -> (dtype, dims with symbolic names)
    outputs: dict  # name -> (dtype, dims)
    dynamic_dims: dict  # dim name -> ["input[axis]", ...]
    export_seconds: float = 0.0
    fallback_reason: str | None = None
    variants: list = dataclasses.field(default_factory=list)  # [VariantReport], fp32 first
    latency: list = dataclasses.field(default_factory=list)  # [LatencyRow]
    latency_setup: str = ""
    notes: list = dataclasses.field(default_factory=list)
    fusion: object = None  # fusion.FusionReport for the ORT-optimised/int8 variants: what fused, or why not
    input_specs: list = dataclasses.field(default_factory=list, repr=False)  # [inputs.InputSpec]: to time again

    @property
    def ok(self) -> bool:
        return all(v.ok for v in self.variants)

    def variant(self, name: str) -> VariantReport:
        for v in self.variants:
            if v.name == name:
                return v
        raise KeyError(f"no variant {name!r}; this report has {[v.name for v in self.variants]}")

    def speedup(self, variant: str, batch: int) -> float | None:
        for row in self.latency:
            if row.variant == variant and row.batch == batch:
                return row.speedup
        return None

    def __str__(self) -> str:
        size = self.variants[0].size_bytes if self.variants else (
            os.path.getsize(self.path) if os.path.exists(self.path) else 0)
        head = [f"ONNX export: {self.path} ({self.exporter} exporter, opset {self.opset}, {_kb(size)}, "
                f"{self.export_seconds:.1f} s)"]
        if self.fallback_reason:
            head.append(f"  fell back to the legacy exporter because: {self.fallback_reason}")
        head += [f"  input  {n}: {d} {_dims(s)}" for n, (d, s) in self.inputs.items()]
        head += [f"  output {n}: {d} {_dims(s)}" for n, (d, s) in self.outputs.items()]
        dyn = "; ".join(f"{k} = {', '.join(v)}" for k, v in self.dynamic_dims.items()) or "none (all shapes fixed)"
        head.append(f"  dynamic axes: {dyn}")
        head += [f"  note: {n}" for n in self.notes]
        if self.fusion is not None:
            head += [f"  {line}" for line in str(self.fusion).split("\n")]
        parts = ["\n".join(head)]
        if self.variants:
            parts.append(summary_table(self.variants))
            parts.append(checks_table(self.variants))
        if self.latency:
            parts.append(latency_table(self.latency, self.latency_setup))
        return "\n\n".join(parts)


class OnnxExportError(UserErrorException):
    """The model could not be exported, or the export does not declare what was asked (e.g. a dynamic axis)."""

    def __str__(self) -> str:  # a multi-line diagnosis reads better without v1's JSON frame
        return self.message


class OnnxVerificationError(OnnxExportError):
    """ONNX Runtime failed, or disagreed with PyTorch, at some input shape; ``.report`` holds every table."""

    def __init__(self, message: str, report=None, variant: VariantReport | None = None):
        super().__init__(message)
        self.report = report
        self.variant = variant


def summary_table(variants) -> str:
    rows = [("variant", "file", "size", "max abs err", "max rel err", "top-1 agree", "tolerance", "status")]
    for v in variants:
        agree = "-" if v.top1_agreement is None else f"{100 * v.top1_agreement:.2f} %"
        status = "ok" if v.ok else f"FAILED ({len(v.failures)} case(s))"
        tol = str(v.tolerance) if v.tolerance else "report only"
        rows.append((v.name, os.path.basename(v.path), _kb(v.size_bytes), _num(v.max_abs), _num(v.max_rel), agree,
                     tol, status))
    return "verification against PyTorch\n" + _table(rows)


def checks_table(variants) -> str:
    rows = [("variant", "case", "input shapes", "output", "max abs err", "max rel err", "status")]
    for v in variants:
        for c in v.checks:
            if c.failure is not None:
                rows.append((v.name, c.label, c.shape_text(), "-", "-", "-", "ORT ERROR"))
                continue
            for o in c.outputs:
                rows.append((v.name, c.label, c.shape_text(), o.output, _num(o.max_abs), _num(o.max_rel),
                             "ok" if o.ok else "MISMATCH"))
    return "per shape\n" + _table(rows)


def latency_table(rows_in, setup: str) -> str:
    batches = sorted({r.batch for r in rows_in})
    header = ["variant"]
    for b in batches:
        header += [f"b{b} ms", f"b{b} speed-up"]
    rows = [tuple(header)]
    for name in dict.fromkeys(r.variant for r in rows_in):
        row = [name]
        for b in batches:
            hit = [r for r in rows_in if r.variant == name and r.batch == b]
            row += [f"{hit[0].median_ms:.3f}", f"{hit[0].speedup:.2f}x"] if hit else ["-", "-"]
        rows.append(tuple(row))
    return f"latency ({setup})\n" + _table(rows)


def _table(rows) -> str:
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(str(cell).ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _dims(shape) -> str:
    return "[" + ", ".join(str(d) for d in shape) + "]"


def _num(x: float) -> str:
    return "-" if x != x else f"{x:.1e}"


def _kb(n: int) -> str:
    return f"{n / 1024:.0f} kB" if n < 10 * 1024 * 1024 else f"{n / 1024 / 1024:.1f} MB"
