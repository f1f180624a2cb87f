"""torch.distributed over gloo works in a local Gloo() job with only the env:// contract (no MPI in the script)."""

from __future__ import annotations

import textwrap

import pytest

from acpt_estimator import Gloo, PyTorch
from acpt_estimator.backends.local.procs import job_pids
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.workspace import Workspace

pytestmark = pytest.mark.integration

ALL_REDUCE = textwrap.dedent("""
    import os
    import torch
    import torch.distributed as dist
    from acpt_estimator.v1.core.run import Run
    dist.init_process_group("gloo", init_method="env://")  # MASTER_ADDR/PORT, RANK, WORLD_SIZE only
    value = torch.tensor([float(dist.get_rank() + 1)])
    dist.all_reduce(value)
    Run.get_context().log("all_reduce", value.item())
    Run.get_context().log("world", dist.get_world_size())
    dist.barrier()  # both ranks reach teardown together: gloo can abort a process whose peer left
    dist.destroy_process_group()
    import time
    time.sleep(0.1)  # gloo's threads drop all_reduce's tensor with the GIL: before shutdown (pytorch#190489)
""")


def test_gloo_all_reduce_over_the_env_contract(tmp_path, monkeypatch):
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store"))
    (tmp_path / "all_reduce.py").write_text(ALL_REDUCE)
    est = PyTorch(str(tmp_path), entry_script="all_reduce.py", compute_target="local", node_count=1,
                  process_count_per_node=2, distributed_training=Gloo())
    run = Experiment(Workspace._local(), "gloo").submit(est)
    details = run.wait_for_completion()
    assert details["status"] == "Completed"
    assert run.get_metrics() == {"all_reduce": [3.0, 3.0], "world": [2, 2]}
    assert details["runDefinition"]["communicator"] == "Gloo"
    assert job_pids(run.id) == []
