"""The horovod.torch calls v1 scripts make return the same results from the layer as from real Horovod (2 ranks)."""

from __future__ import annotations

import json
import math
import textwrap

import pytest

from acpt_estimator import PyTorch
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.workspace import Workspace

pytestmark = pytest.mark.integration

# Every rank records what each call returned; the test compares the two implementations' records.
SCRIPT = textwrap.dedent('''
    import json, os, warnings
    import torch
    import horovod
    import horovod.torch as hvd

    hvd.init()
    r, n = hvd.rank(), hvd.size()
    layer = getattr(horovod, "_acpt_layer", False)
    out = {}
    t = torch.tensor([float(r + 1), 2.0 * (r + 1)])
    out["average"] = hvd.allreduce(t, name="a").tolist()
    for op in ("Sum", "Min", "Max", "Product"):
        out[op] = hvd.allreduce(t, op=getattr(hvd, op)).tolist()
    out["scaled"] = hvd.allreduce(t, op=hvd.Sum, prescale_factor=0.5, postscale_factor=3.0).tolist()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out["average_false"] = hvd.allreduce(t, average=False).tolist()
    x = t.clone()
    handle = hvd.allreduce_async_(x, op=hvd.Sum)
    out["async_inplace"] = [hvd.synchronize(handle).tolist(), x.tolist()]
    handle = hvd.allreduce_async(t)
    while not hvd.poll(handle):
        pass
    out["async"] = hvd.synchronize(handle).tolist()
    out["int_average"] = hvd.allreduce(torch.tensor([3 * r + 1], dtype=torch.int64)).tolist()
    out["metric"] = hvd.allreduce(torch.tensor(0.25 * (r + 1)), name="avg_loss").item()
    out["allgather_uneven"] = hvd.allgather(torch.arange(r + 1, dtype=torch.float32).view(-1, 1) + 10 * r).tolist()
    out["grouped"] = [g.tolist() for g in hvd.grouped_allreduce([t, 2 * t], op=hvd.Sum)]
    b = torch.full((3,), float(r))
    hvd.broadcast_(b, root_rank=1)
    out["broadcast_"] = b.tolist()
    out["broadcast"] = hvd.broadcast(torch.full((2,), r + 5.0), root_rank=0).tolist()
    out["object"] = hvd.broadcast_object({"from": r, "items": [r, "x"]}, root_rank=1)
    out["allgather_object"] = hvd.allgather_object({"r": r})
    w = torch.tensor([r + 1.0], requires_grad=True)
    hvd.allreduce(w * w, op=hvd.Sum).sum().backward()
    out["grad_through_allreduce"] = w.grad.tolist()
    out["layout"] = [hvd.rank(), hvd.size(), hvd.local_rank(), hvd.local_size(), hvd.cross_rank(), hvd.cross_size()]
    out["built"] = [hvd.gloo_built(), hvd.nccl_built(), hvd.is_initialized()]


    def train(optimizer=torch.optim.SGD, passes=1, **kw):
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
        opt = optimizer(model.parameters(), lr=0.1)
        hvd.broadcast_parameters(model.state_dict(), root_rank=0)
        hvd.broadcast_optimizer_state(opt, root_rank=0)
        opt = hvd.DistributedOptimizer(opt, named_parameters=model.named_parameters(), backward_passes_per_step=passes,
                                       **kw)
        data = torch.Generator().manual_seed(100 + r)
        for step in range(3):
            opt.zero_grad()
            for _ in range(passes):
                model(torch.randn(4, 3, generator=data)).pow(2).mean().backward()
            opt.step()
        return [p.detach().flatten().tolist() for p in model.parameters()], opt, model


    out["opt_average"] = train()[0]
    out["opt_sum"] = train(op=hvd.Sum)[0]
    out["opt_passes2"] = train(passes=2)[0]
    out["opt_predivide"] = train(gradient_predivide_factor=2.0)[0]
    out["opt_fp16"] = train(compression=hvd.Compression.fp16)[0]
    out["opt_adam"] = train(torch.optim.Adam)[0]
    _, opt, model = train()
    model(torch.randn(4, 3, generator=torch.Generator().manual_seed(7 + r))).sum().backward()
    try:
        opt.zero_grad()
        out["zero_grad_after_backward"] = "allowed"
    except AssertionError:
        out["zero_grad_after_backward"] = "AssertionError"
    opt.synchronize()  # gradient clipping, Horovod's documented way
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.05)
    with opt.skip_synchronize():
        opt.step()
    out["clipped_step"] = [p.detach().flatten().tolist() for p in model.parameters()]
    torch.manual_seed(r)
    model = torch.nn.Linear(3, 2)
    adam = torch.optim.Adam(model.parameters(), lr=0.01)
    hvd.broadcast_optimizer_state(adam, root_rank=0)  # new optimizer: Horovod first creates the state
    out["adam_state"] = {str(k): {kk: (vv.tolist() if torch.is_tensor(vv) else vv) for kk, vv in v.items()}
                         for k, v in adam.state_dict()["state"].items()}
    for bad in (model.parameters(), 3):
        try:
            hvd.broadcast_parameters(bad, root_rank=0)
        except ValueError:
            out.setdefault("refused", []).append(type(bad).__name__)
    try:
        hvd.DistributedOptimizer(torch.optim.SGD(model.parameters(), lr=0.1),
                                 named_parameters=[("same", p) for p in model.parameters()])
    except ValueError as err:
        out["duplicate_names"] = str(err)
    out["join"] = 0 <= hvd.join() < n
    if layer:  # what the layer refuses, with messages that say what to do
        checks = {"adasum": lambda: hvd.DistributedOptimizer(torch.optim.SGD(model.parameters(), lr=0.1),
                                                             op=hvd.Adasum),
                  "sync_batch_norm": lambda: hvd.SyncBatchNorm, "alltoall": lambda: hvd.alltoall(t)}
        for key, call in checks.items():
            try:
                call()
            except NotImplementedError as err:
                out["refusal_" + key] = str(err)
    os.makedirs("outputs", exist_ok=True)
    with open(f"outputs/api_rank{r}.json", "w") as handle:
        json.dump(out, handle)
''')
LAYER_ONLY = ("refusal_adasum", "refusal_sync_batch_norm", "refusal_alltoall")


def _close(a, b, tol, path="") -> list:
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), f"{path}: {sorted(a)} != {sorted(b)}"
        return [d for k in a for d in _close(a[k], b[k], tol, f"{path}.{k}")]
    if isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), f"{path}: {a} != {b}"
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in _close(x, y, tol, f"{path}[{i}]")]
    if isinstance(a, float) or isinstance(b, float):
        return [] if math.isclose(a, b, rel_tol=tol, abs_tol=tol) else [f"{path}: {a} != {b}"]
    return [] if a == b else [f"{path}: {a!r} != {b!r}"]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    root = tmp_path_factory.mktemp("horovod-api")
    source = root / "src"
    source.mkdir()
    (source / "api.py").write_text(SCRIPT)
    found = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ACPT_ESTIMATOR_HOME", str(root / "store"))
        for impl in ("real", "layer"):
            est = PyTorch(str(source), entry_script="api.py", compute_target="local", process_count_per_node=2,
                          distributed_backend="mpi", environment_variables={"ACPT_ESTIMATOR_HOROVOD": impl})
            run = Experiment(Workspace._local(), f"api-{impl}").submit(est)
            details = run.wait_for_completion(raise_on_error=False)
            assert details["status"] == "Completed", details.get("error")
            run.download_files(prefix="outputs", output_directory=str(root / impl))
            found[impl] = [json.loads((root / impl / "outputs" / f"api_rank{r}.json").read_text()) for r in range(2)]
    return found


def test_layer_returns_what_real_horovod_returns(results):
    for rank in range(2):
        real, layer = results["real"][rank], dict(results["layer"][rank])
        for key in LAYER_ONLY:
            layer.pop(key)
        fp16 = _close(real.pop("opt_fp16"), layer.pop("opt_fp16"), 1e-3)  # float16 on the wire
        assert _close(real, layer, 1e-5) + fp16 == [], f"rank {rank}"


def test_results_are_horovods_semantics(results):
    rank0, rank1 = results["layer"]
    assert rank0["average"] == [1.5, 3.0] and rank0["Sum"] == [3.0, 6.0] and rank0["Product"] == [2.0, 8.0]
    assert rank0["scaled"] == [4.5, 9.0] and rank0["average_false"] == [3.0, 6.0]
    assert rank0["async_inplace"] == [[3.0, 6.0], [3.0, 6.0]] and rank0["int_average"] == [2]
    assert rank0["allgather_uneven"] == [[0.0], [10.0], [11.0]]
    assert rank0["broadcast_"] == [1.0, 1.0, 1.0] and rank1["broadcast"] == [5.0, 5.0]
    assert rank0["object"] == {"from": 1, "items": [1, "x"]} and rank1["allgather_object"] == [{"r": 0}, {"r": 1}]
    assert rank0["grad_through_allreduce"] == [4.0] and rank1["grad_through_allreduce"] == [8.0]
    assert rank0["opt_average"] == rank1["opt_average"] and rank0["opt_sum"] != rank0["opt_average"]
    assert rank0["zero_grad_after_backward"] == "AssertionError" and rank0["refused"] == ["generator", "int"]
    assert "Found duplicates: same" in rank0["duplicate_names"]
    assert rank0["adam_state"]["0"]["step"] == 1.0 and rank0["join"] is True
    assert "op=hvd.Average" in rank0["refusal_adasum"] and "torch.nn.SyncBatchNorm" in rank0["refusal_sync_batch_norm"]
