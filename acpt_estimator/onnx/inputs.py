"""Model inputs for verification: which axes are dynamic (read from the ONNX file), and inputs at new shapes."""

from __future__ import annotations

import dataclasses

from .report import OnnxExportError

# ONNX TensorProto element types -> numpy dtype names (the ones models take as inputs).
_ONNX_DTYPES = {1: "float32", 2: "uint8", 3: "int8", 5: "int16", 6: "int32", 7: "int64", 9: "bool", 10: "float16",
                11: "float64"}


@dataclasses.dataclass
class InputSpec:
    """One graph input: its dtype, per-axis dim (an int when fixed, a name when dynamic), and how to fill it."""

    name: str
    dtype: str
    dims: tuple  # int for a fixed axis, str for a dynamic one
    example_shape: tuple  # the example's sizes, one per axis
    low: float = 0.0  # ints: values drawn from [low, high); floats: uniform in [low, high) when given ...
    high: float = 2.0
    mean: float = 0.0  # ... else normal(mean, std) like the example
    std: float = 1.0
    uniform: bool = False


def onnx_inputs(model_proto) -> list:
    """``[(name, dtype, dims)]`` of a ModelProto's graph inputs, dims as int, str (symbolic) or None."""
    inits = {i.name for i in model_proto.graph.initializer}
    out = []
    for value in model_proto.graph.input:
        if value.name in inits:  # old exports list initializers as inputs; they are not fed
            continue
        tensor = value.type.tensor_type
        dims = tuple(d.dim_value if d.HasField("dim_value") else (d.dim_param or None) for d in tensor.shape.dim)
        out.append((value.name, _ONNX_DTYPES.get(tensor.elem_type, str(tensor.elem_type)), dims))
    return out


def onnx_outputs(model_proto) -> list:
    out = []
    for value in model_proto.graph.output:
        tensor = value.type.tensor_type
        dims = tuple(d.dim_value if d.HasField("dim_value") else (d.dim_param or "?") for d in tensor.shape.dim)
        out.append((value.name, _ONNX_DTYPES.get(tensor.elem_type, str(tensor.elem_type)), dims))
    return out


def specs_from_example(graph_inputs, names, arrays, value_ranges=None) -> list:
    """Specs for every example input (model order), with the dynamic dims the ONNX graph declares for it."""
    graph = {name: dims for name, _, dims in graph_inputs}
    missing = set(graph) - set(names)
    if missing:
        raise OnnxExportError(f"the ONNX graph takes input(s) {sorted(missing)} that are not among the example "
                              f"inputs {list(names)}; pass input_names matching the model's forward arguments.")
    specs = []
    for name, array in zip(names, arrays):
        dims = graph.get(name, tuple(array.shape))  # an input the graph dropped (unused) stays fixed
        if len(dims) != array.ndim:
            raise OnnxExportError(f"input {name!r} has rank {len(dims)} in the ONNX graph but the example is "
                                  f"{list(array.shape)}; the export does not match the example inputs.")
        dims = tuple(f"{name}_dim{i}" if d is None else d for i, d in enumerate(dims))  # unnamed but dynamic
        spec = InputSpec(name, str(array.dtype), tuple(d if isinstance(d, str) else array.shape[i]
                                                       for i, d in enumerate(dims)), tuple(array.shape))
        _fill_like(spec, array, (value_ranges or {}).get(name))
        specs.append(spec)
    return specs


def specs_from_graph(graph_inputs, sizes=None, value_ranges=None) -> list:
    """Specs from the ONNX graph alone (``onnx check`` without example shapes): dynamic dims get ``sizes``."""
    sizes = sizes or {}
    specs = []
    for name, dtype, dims in graph_inputs:
        shape = tuple(sizes.get(d, 2) if isinstance(d, str) or d is None else d for d in dims)
        dims = tuple(d if d is not None else f"{name}_dim{i}" for i, d in enumerate(dims))
        spec = InputSpec(name, dtype, dims, shape)
        rng = (value_ranges or {}).get(name)
        if rng is not None:
            spec.low, spec.high, spec.uniform = float(rng[0]), float(rng[1]), True
        specs.append(spec)
    return specs


def _fill_like(spec: InputSpec, array, value_range) -> None:
    if value_range is not None:
        spec.low, spec.high, spec.uniform = float(value_range[0]), float(value_range[1]), True
    elif array.size and array.dtype.kind in "iu":
        # Token ids and class indices: stay inside what the example used, so embeddings never index out of range.
        spec.low, spec.high = float(array.min()), float(array.max()) + 1
    elif array.size and array.dtype.kind == "f":
        spec.mean, spec.std = float(array.mean()), float(array.std()) or 1.0


def example_sizes(specs) -> dict:
    """Each dynamic dim's size in the example (the first input that has it decides)."""
    sizes = {}
    for spec in specs:
        for dim, size in zip(spec.dims, spec.example_shape):
            if isinstance(dim, str):
                sizes.setdefault(dim, size)
    return sizes


def default_sizes(n: int) -> list:
    """Three sizes other than the example's ``n``: 1 (serving), one smaller, one larger and odd."""
    picked = []
    for candidate in (1, max(2, n // 2), 2 * n + 1, n + 2, n + 3):
        if candidate != n and candidate not in picked:
            picked.append(candidate)
    return picked[:3]


def shape_cases(specs, verify_sizes=None) -> list:
    """``[(label, sizes)]``: the example (sizes None), each dynamic dim varied alone, then all varied together."""
    verify_sizes = dict(verify_sizes or {})
    base = example_sizes(specs)
    unknown = set(verify_sizes) - set(base)
    if unknown:
        raise OnnxExportError(f"verify_sizes names {sorted(unknown)}, which are not dynamic dims of the exported "
                              f"graph; its dynamic dims are {sorted(base) or 'none'}.")
    cases = [("example", None)]
    varied = {}
    for dim, n in base.items():
        varied[dim] = [int(s) for s in verify_sizes.get(dim, default_sizes(n))]
        for size in varied[dim]:
            cases.append((f"{dim}={size}", {**base, dim: size}))
    if len(base) > 1:
        together = {dim: sizes[-1] for dim, sizes in varied.items() if sizes}
        cases.append(("all varied", {**base, **together}))
    return cases


def make_inputs(specs, sizes, rng) -> list:
    """Fresh numpy inputs at ``sizes`` (dim name -> size), filled the way each spec says."""
    import numpy as np

    arrays = []
    for spec in specs:
        shape = tuple(sizes.get(d, s) if isinstance(d, str) else d for d, s in zip(spec.dims, spec.example_shape))
        kind = np.dtype(spec.dtype).kind
        if kind == "b":
            array = rng.random(shape) < 0.5
        elif kind in "iu":
            array = rng.integers(int(spec.low), max(int(spec.high), int(spec.low) + 1), size=shape)
        elif spec.uniform:
            array = rng.uniform(spec.low, spec.high, size=shape)
        else:
            array = rng.normal(spec.mean, spec.std, size=shape)
        arrays.append(np.ascontiguousarray(array.astype(spec.dtype)))
    return arrays


def dynamic_map(specs) -> dict:
    """Dim name -> ``["input[axis]", ...]``, for the report."""
    out = {}
    for spec in specs:
        for axis, dim in enumerate(spec.dims):
            if isinstance(dim, str):
                out.setdefault(dim, []).append(f"{spec.name}[{axis}]")
    return out
