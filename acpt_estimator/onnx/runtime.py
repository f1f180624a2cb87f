"""Running the two sides: PyTorch eager on numpy inputs, and an ONNX Runtime CPU session."""

from __future__ import annotations

_LEVELS = ("disable", "basic", "extended", "all")


def ort_session(path: str, threads: int | None = None, level: str = "all", save_to: str | None = None):
    """A CPU InferenceSession on a file (or serialised model bytes); ``save_to`` writes the graph as optimised."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = {
        "disable": ort.GraphOptimizationLevel.ORT_DISABLE_ALL,
        "basic": ort.GraphOptimizationLevel.ORT_ENABLE_BASIC,
        "extended": ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED,
        "all": ort.GraphOptimizationLevel.ORT_ENABLE_ALL,
    }[level]
    if threads:
        # Same thread count as torch, so a latency ratio compares runtimes and not core counts.
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
    if save_to:
        options.optimized_model_filepath = save_to
    # Fatal only: verification reports ORT's errors itself, with the shape that caused them.
    options.log_severity_level = 4
    source = path if isinstance(path, bytes) else str(path)
    return ort.InferenceSession(source, options, providers=["CPUExecutionProvider"])


def feed(session, names, arrays) -> dict:
    """Inputs by name; inputs the graph dropped (unused by the model) are left out."""
    wanted = {i.name for i in session.get_inputs()}
    return {n: a for n, a in zip(names, arrays) if n in wanted}


def run_ort(session, names, arrays) -> list:
    return session.run(None, feed(session, names, arrays))


def run_torch(model, arrays) -> list:
    """Eager outputs as numpy, flattened in the order the ONNX exporters flatten them."""
    import torch

    tensors = [torch.from_numpy(a) for a in arrays]
    with torch.inference_mode():
        out = model(*tensors)
    return [t.detach().cpu().numpy() for t in flatten(out)]


def flatten(out) -> list:
    import torch

    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, dict):
        out = list(out.values())
    if isinstance(out, (list, tuple)):
        return [t for item in out for t in flatten(item)]
    raise TypeError(f"model output of type {type(out).__name__} cannot be exported to ONNX; return tensors, "
                    "or tuples/lists/dicts of tensors.")


def to_numpy_inputs(example_inputs) -> tuple:
    """The example as a tuple of contiguous numpy arrays (a single tensor is one input)."""
    import torch

    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    if not isinstance(example_inputs, (tuple, list)) or not all(isinstance(t, torch.Tensor) for t in example_inputs):
        raise TypeError("example_inputs must be a tensor or a tuple of tensors (the model's positional arguments), "
                        f"got {type(example_inputs).__name__}.")
    return tuple(t.detach().cpu().contiguous().numpy() for t in example_inputs)
