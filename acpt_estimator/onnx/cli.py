"""``acpt-estimator onnx export|check``: export a checkpoint to ONNX, or verify an ONNX file against one."""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import re
import sys

from .report import OnnxExportError, OnnxVerificationError, Tolerance

_SHAPE = re.compile(r"^(?:(?P<name>[A-Za-z_][\w.]*)=)?(?P<dims>\d+(?:x\d+)*)(?::(?P<dtype>[a-z0-9]+))?"
                    r"(?::(?P<low>-?[\d.e]+):(?P<high>-?[\d.e]+))?$")


def add_onnx_subcommands(subparsers) -> None:
    """Add ``onnx export`` and ``onnx check`` to the ``acpt-estimator`` parser."""
    onnx = subparsers.add_parser("onnx", help="export a trained model to ONNX and prove it matches PyTorch")
    sub = onnx.add_subparsers(dest="onnx_command", required=True)

    export = sub.add_parser("export", help="export MODULE:FACTORY with a checkpoint; verify, optionally optimise, time")
    export.add_argument("factory", help="MODULE:FACTORY (or path/to/file.py:FACTORY) returning the nn.Module")
    _common(export)
    export.add_argument("--out", default="model.onnx", help="where to write the ONNX file (default: model.onnx)")
    export.add_argument("--dynamic", action="append", default=[], metavar="INPUT=AXIS:DIM[,AXIS:DIM]",
                        help="mark axes dynamic, e.g. ids=0:batch,1:seq (torch.onnx dynamic_axes form)")
    export.add_argument("--dynamic-batch", action="store_true", help="axis 0 of every input is a dynamic 'batch'")
    export.add_argument("--opset", type=int, default=None)
    export.add_argument("--legacy", action="store_true", help="use the deprecated TorchScript exporter")
    export.add_argument("--fallback", action="store_true", help="use the legacy exporter if torch.export fails")
    export.add_argument("--optimize", action="store_true", help="also save and verify an ORT graph-optimised copy")
    export.add_argument("--int8", action="store_true", help="also save and verify a dynamic int8 quantised copy")
    export.add_argument("--residual-norm", choices=("auto", "sum", "fused"), default="auto",
                        help="residual add + layer norm in the optimised/int8 copies: ORT's SkipLayerNormalization "
                             "('fused'), Sum + LayerNormalization ('sum'), or the faster of the two timed here "
                             "('auto', the default)")
    export.add_argument("--no-latency", action="store_true", help="skip the PyTorch-vs-ORT latency table")
    export.add_argument("--latency-batches", default="1,32", help="batch sizes to time (default 1,32)")
    export.add_argument("--repeats", type=int, default=30, help="timed runs per variant and batch (default 30)")
    export.set_defaults(func=cmd_export)

    check = sub.add_parser("check", help="verify an ONNX file against a checkpoint at varied shapes")
    check.add_argument("model", help="the .onnx file")
    check.add_argument("--factory", required=True, help="MODULE:FACTORY returning the nn.Module")
    _common(check)
    check.set_defaults(func=cmd_check)


def _common(parser) -> None:
    parser.add_argument("--checkpoint", help="state_dict file from torch.save (or a dict holding 'state_dict')")
    parser.add_argument("--factory-kwargs", default="{}", help="JSON keyword arguments for the factory")
    parser.add_argument("--example-shape", action="append", default=[], metavar="[NAME=]DIMS[:DTYPE[:LOW:HIGH]]",
                        help="one per input, e.g. ids=2x16:int64:0:1000 or 2x3x32x32 (float32 normal(0,1))")
    parser.add_argument("--sizes", action="append", default=[], metavar="DIM=N,N,N",
                        help="sizes to verify for a dynamic dim (default: three around the example's)")
    parser.add_argument("--atol", type=float, default=Tolerance.atol)
    parser.add_argument("--rtol", type=float, default=Tolerance.rtol)
    parser.add_argument("--classifier", default="auto",
                        help="'auto' (argmax of [.., C>=2] outputs), 'none', or a threshold for scores, e.g. 0.5")


def cmd_export(args) -> int:
    from .export import export

    model = load_model(args.factory, args.checkpoint, args.factory_kwargs)
    names, example, ranges = parse_example_shapes(args.example_shape, model)
    dynamic = parse_dynamic(args.dynamic, names)
    if args.dynamic_batch:
        for name in names:
            dynamic.setdefault(name, {})[0] = "batch"
    try:
        report = export(model, tuple(example), args.out, input_names=names, dynamic_axes=dynamic or None,
                        opset=args.opset, exporter="legacy" if args.legacy else "dynamo", fallback=args.fallback,
                        tolerance=Tolerance(args.atol, args.rtol), verify_sizes=parse_sizes(args.sizes),
                        value_ranges=ranges, classifier=_classifier(args.classifier), optimize=args.optimize,
                        int8=args.int8, residual_norm=args.residual_norm, latency=not args.no_latency,
                        latency_batches=tuple(int(b) for b in args.latency_batches.split(",")),
                        latency_repeats=args.repeats)
    except OnnxExportError as exc:
        print(f"acpt-estimator onnx export: {exc}", file=sys.stderr)
        return 1
    print(report)
    return 0


def cmd_check(args) -> int:
    import onnx

    from .inputs import make_inputs, onnx_inputs, specs_from_graph
    from .report import checks_table, summary_table
    from .verify import verify

    model = load_model(args.factory, args.checkpoint, args.factory_kwargs)
    if args.example_shape:
        names, example, ranges = parse_example_shapes(args.example_shape, model)
    else:  # read the inputs off the ONNX file: fixed dims as they are, dynamic ones at 2
        import numpy as np
        import torch

        graph_inputs = onnx_inputs(onnx.load(args.model, load_external_data=False))
        specs = specs_from_graph(graph_inputs)
        names, ranges = [s.name for s in specs], None
        example = [torch.from_numpy(a) for a in make_inputs(specs, {}, np.random.default_rng(0))]
    title = f"{args.model} against {args.factory}" + (f" + {args.checkpoint}" if args.checkpoint else "")
    try:
        variant = verify(args.model, model, tuple(example), input_names=names,
                         tolerance=Tolerance(args.atol, args.rtol), verify_sizes=parse_sizes(args.sizes),
                         value_ranges=ranges, classifier=_classifier(args.classifier),
                         name=os.path.basename(args.model))
    except OnnxVerificationError as exc:
        if exc.variant is not None:
            print(title + "\n" + summary_table([exc.variant]))
        print(f"acpt-estimator onnx check: {exc}", file=sys.stderr)
        return 1
    except OnnxExportError as exc:
        print(f"acpt-estimator onnx check: {exc}", file=sys.stderr)
        return 1
    print(title)
    print(summary_table([variant]))
    print()
    print(checks_table([variant]))
    return 0


def load_model(factory: str, checkpoint: str | None, factory_kwargs: str = "{}"):
    """Call MODULE:FACTORY and load the checkpoint's state_dict into what it returns."""
    module_name, _, attr = factory.rpartition(":")
    if not module_name or not attr:
        raise SystemExit(f"acpt-estimator onnx: {factory!r} is not MODULE:FACTORY (e.g. mypkg.models:make_net).")
    if module_name.endswith(".py") or os.sep in module_name:
        spec = importlib.util.spec_from_file_location(os.path.basename(module_name)[:-3], module_name)
        if spec is None or not os.path.isfile(module_name):
            raise SystemExit(f"acpt-estimator onnx: {module_name} does not exist.")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    else:
        sys.path.insert(0, os.getcwd())  # like `python -m`: modules next to the caller are importable
        module = importlib.import_module(module_name)
    model = getattr(module, attr)(**json.loads(factory_kwargs))
    if checkpoint:
        import torch

        state = torch.load(checkpoint, map_location="cpu", weights_only=True)
        for key in ("state_dict", "model_state_dict", "model"):
            if isinstance(state, dict) and isinstance(state.get(key), dict):
                state = state[key]
                break
        model.load_state_dict(state)
    return model.eval()


def parse_example_shapes(texts, model):
    """``(names, tensors, value_ranges)`` from ``[NAME=]DIMS[:DTYPE[:LOW:HIGH]]`` strings."""
    import torch

    if not texts:
        raise SystemExit("acpt-estimator onnx: give --example-shape once per model input, e.g. --example-shape "
                         "ids=2x16:int64:0:1000")
    from .export import _forward_arg_names

    defaults = _forward_arg_names(model, len(texts))
    names, tensors, ranges = [], [], {}
    generator = torch.Generator().manual_seed(0)
    for i, text in enumerate(texts):
        match = _SHAPE.match(text.strip())
        if not match:
            raise SystemExit(f"acpt-estimator onnx: --example-shape {text!r} is not [NAME=]DIMS[:DTYPE[:LOW:HIGH]], "
                             "e.g. ids=2x16:int64:0:1000 or 2x3x32x32.")
        name = match["name"] or defaults[i]
        dims = [int(d) for d in match["dims"].split("x")]
        dtype = getattr(torch, match["dtype"] or "float32", None)
        if not isinstance(dtype, torch.dtype):
            raise SystemExit(f"acpt-estimator onnx: dtype {match['dtype']!r} in {text!r} is not a torch dtype.")
        low = float(match["low"]) if match["low"] else None
        high = float(match["high"]) if match["high"] else None
        if dtype.is_floating_point:
            tensor = torch.randn(dims, generator=generator, dtype=dtype)
            if low is not None:
                tensor = low + (high - low) * torch.rand(dims, generator=generator, dtype=dtype)
        elif dtype == torch.bool:
            tensor = torch.rand(dims, generator=generator) < 0.5
        else:
            lo, hi = int(low if low is not None else 0), int(high if high is not None else 2)
            tensor = torch.randint(lo, hi, dims, generator=generator, dtype=dtype)
        if low is not None:
            ranges[name] = (low, high)
        names.append(name)
        tensors.append(tensor)
    return names, tensors, ranges or None


def parse_dynamic(texts, names) -> dict:
    """``["ids=0:batch,1:seq"]`` -> ``{"ids": {0: "batch", 1: "seq"}}``."""
    out = {}
    for text in texts:
        name, sep, axes = text.partition("=")
        if not sep or name not in names:
            raise SystemExit(f"acpt-estimator onnx: --dynamic {text!r}: use INPUT=AXIS:DIM[,AXIS:DIM] with INPUT one "
                             f"of {names}.")
        for item in axes.split(","):
            axis, _, dim = item.partition(":")
            if not axis.strip().lstrip("-").isdigit():
                raise SystemExit(f"acpt-estimator onnx: --dynamic {text!r}: {item!r} is not AXIS:DIM, e.g. 0:batch.")
            out.setdefault(name, {})[int(axis)] = dim.strip() or f"{name}_dim{axis.strip()}"
    return out


def parse_sizes(texts) -> dict | None:
    """``["seq=4,16,48"]`` -> ``{"seq": [4, 16, 48]}``."""
    out = {}
    for text in texts:
        dim, sep, sizes = text.partition("=")
        try:
            out[dim] = [int(s) for s in sizes.split(",")]
        except ValueError:
            sep = ""
        if not sep:
            raise SystemExit(f"acpt-estimator onnx: --sizes {text!r} is not DIM=N,N,N (e.g. seq=4,16,48).")
    return out or None


def _classifier(text: str):
    if text == "none":
        return None
    if text in ("auto", "argmax"):
        return text
    return float(text)
