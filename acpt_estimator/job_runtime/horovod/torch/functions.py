"""Horovod's helpers on the layer: broadcast_parameters/_optimizer_state/_object, allgather_object."""

from __future__ import annotations

import collections

import torch

from .mpi_ops import allgather, broadcast_, global_process_set, rank, size

try:  # Horovod pickles with cloudpickle (lambdas, local classes); plain pickle covers everything else
    import cloudpickle as _pickle
except ImportError:  # pragma: no cover - depends on the environment
    import pickle as _pickle


def _named_tensors(params) -> list:
    if isinstance(params, dict):
        return sorted(params.items())
    if isinstance(params, list):
        return [p if isinstance(p, tuple) else (None, p) for p in params]
    raise ValueError(f"invalid params of type: {type(params)}")  # Horovod's message: a generator is refused too


def broadcast_parameters(params, root_rank, process_set=global_process_set) -> None:
    """Overwrite every tensor in ``params`` (a state_dict or [(name, tensor)]) with root_rank's values.

    Tensors of one device and dtype travel as one flat buffer: one collective per kind instead of one per tensor.
    """
    named = _named_tensors(params)
    if size() == 1:
        return
    groups: dict = collections.OrderedDict()
    for name, tensor in named:
        if not torch.is_tensor(tensor):
            raise ValueError(f"broadcast_parameters: {name or 'an entry'} is a {type(tensor).__name__}, not a tensor.")
        groups.setdefault((tensor.device, tensor.dtype), []).append(tensor)
    for tensors in groups.values():
        flat = torch.cat([t.detach().reshape(-1) for t in tensors]) if len(tensors) > 1 else None
        if flat is None:
            with torch.no_grad():
                broadcast_(tensors[0].data, root_rank, process_set=process_set)
            continue
        broadcast_(flat, root_rank, process_set=process_set)
        offset = 0
        with torch.no_grad():
            for tensor in tensors:
                count = tensor.numel()
                tensor.copy_(flat[offset:offset + count].view_as(tensor))
                offset += count


def broadcast_object(obj, root_rank=0, name=None, process_set=global_process_set):
    """root_rank's ``obj`` on every rank (pickled; travels over the CPU/gloo side of the group)."""
    if size() == 1:
        return obj
    if rank() == root_rank:
        payload = torch.frombuffer(bytearray(_pickle.dumps(obj)), dtype=torch.uint8)
        length = torch.tensor([payload.numel()], dtype=torch.int64)
    else:
        length = torch.zeros(1, dtype=torch.int64)
    broadcast_(length, root_rank, process_set=process_set)
    if rank() != root_rank:
        payload = torch.empty(int(length.item()), dtype=torch.uint8)
    broadcast_(payload, root_rank, process_set=process_set)
    return obj if rank() == root_rank else _pickle.loads(payload.numpy().tobytes())


def allgather_object(obj, name=None, process_set=global_process_set) -> list:
    """Every rank's ``obj``, in rank order."""
    if size() == 1:
        return [obj]
    data = _pickle.dumps(obj)
    sizes = allgather(torch.tensor([len(data)], dtype=torch.int64)).tolist()
    gathered = allgather(torch.frombuffer(bytearray(data), dtype=torch.uint8)).numpy().tobytes()
    objects, offset = [], 0
    for count in sizes:
        objects.append(_pickle.loads(gathered[offset:offset + count]))
        offset += count
    return objects


def broadcast_optimizer_state(optimizer, root_rank, model=None, process_set=global_process_set) -> None:
    """Horovod's algorithm, step for step, so both implementations leave the same optimizer state.

    A new optimizer has no state yet: Horovod creates it with one step on zero gradients (which, e.g., advances
    Adam's step count) before broadcasting; this does the same.
    """
    if isinstance(optimizer, torch.optim.LBFGS):
        raise ValueError("cannot broadcast torch.optim.LBFGS state")
    state_dict = optimizer.state_dict()
    sparse_params = set()
    if model is not None:
        for module in model.modules():
            if isinstance(module, torch.nn.Embedding) and module.sparse:
                sparse_params.update(id(p) for p in module.parameters())
    if len(state_dict["state"]) == 0:
        for group in optimizer.param_groups:
            for p in group["params"]:
                if p.requires_grad and id(p) not in state_dict["state"]:
                    p.grad = p.data.new(p.size()).zero_()
                    if isinstance(optimizer, torch.optim.SparseAdam) or (
                            isinstance(optimizer, torch.optim.SGD) and id(p) in sparse_params):
                        p.grad = p.grad.to_sparse()
        if getattr(optimizer, "_acpt_distributed", False):
            super(optimizer.__class__, optimizer).step()  # the wrapped step: no allreduce, no deadlock
        else:
            optimizer.step()
        state_dict = optimizer.state_dict()
    if len(state_dict["state"]) == 0:
        return  # a stateless optimizer: nothing to send

    params, scalars, callbacks = [], {}, {}
    occurrences = collections.defaultdict(int)

    def _state_setter(pid, name):
        def assign(value):
            state_dict["state"][pid][name] = value
        return assign

    def _option_setter(index, key):
        def assign(value):
            optimizer.param_groups[index][key] = value
        return assign

    for index, group in enumerate(state_dict["param_groups"]):
        for key, value in group.items():
            if key != "params":
                scalars[f"{key}.{index}"] = value
                callbacks[f"{key}.{index}"] = _option_setter(index, key)
        for pid in group["params"]:
            if pid not in state_dict["state"]:
                continue
            for name, value in state_dict["state"][pid].items():
                occurrences[name] += 1
                key = f"{name}.{occurrences[name]}"
                if torch.is_tensor(value):
                    params.append((key, value))
                else:
                    scalars[key] = value
                    callbacks[key] = _state_setter(pid, name)
    broadcast_parameters(params, root_rank, process_set=process_set)
    for key, value in broadcast_object(scalars, root_rank, process_set=process_set).items():
        callbacks[key](value)

