"""Trains a tiny regression MLP on synthetic data with DistributedDataParallel over gloo; one process per rank."""
import argparse
import os
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

from acpt_estimator.v1.core.run import Run

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=20)
parser.add_argument("--lr", type=float, default=0.05)
parser.add_argument("--rank", type=int, default=0)
args = parser.parse_args()

# An MPI-era script: rank and size from Open MPI's variables, the master from AZ_BATCH_MASTER_NODE.
rank = int(os.environ["OMPI_COMM_WORLD_RANK"])
world_size = int(os.environ["OMPI_COMM_WORLD_SIZE"])
master_addr, master_port = os.environ["AZ_BATCH_MASTER_NODE"].split(":")
os.environ.setdefault("MASTER_ADDR", master_addr)
os.environ.setdefault("MASTER_PORT", master_port)
assert args.rank == rank, (args.rank, rank)
torch.set_num_threads(1)  # one core per rank keeps small jobs fast on small machines

dist.init_process_group("gloo", init_method="env://", rank=rank, world_size=world_size)
run = Run.get_context()

torch.manual_seed(0)  # same data and initial weights everywhere; each rank trains on its own shard
features = torch.randn(512, 4)
target = features @ torch.tensor([[1.5], [-2.0], [0.5], [1.0]]) + 0.1 * torch.randn(512, 1)
shard = slice(rank * 512 // world_size, (rank + 1) * 512 // world_size)
model = DistributedDataParallel(torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1)))
optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)

for epoch in range(args.epochs):
    optimizer.zero_grad()
    loss = torch.nn.functional.mse_loss(model(features[shard]), target[shard])
    loss.backward()  # DDP averages the gradients over all ranks
    optimizer.step()
    run.log("loss", loss.item())
    print(f"rank {rank} epoch {epoch} loss {loss.item():.4f}", flush=True)

# Every rank must hold the same weights after DDP training.
flat = torch.cat([p.detach().flatten() for p in model.parameters()])
gathered = [torch.zeros_like(flat) for _ in range(world_size)]
dist.all_gather(gathered, flat)
in_sync = all(torch.allclose(gathered[0], g) for g in gathered)
if rank == 0:
    run.log("params_in_sync", int(in_sync))
    os.makedirs("outputs", exist_ok=True)
    torch.save(model.module.state_dict(), "outputs/model.pt")
# Release DDP (its reducer holds the process group) before tearing the group down together.
del model
dist.barrier()
dist.destroy_process_group()
# torch 2.13's gloo worker threads drop the last collectives' tensors after those complete, and need the GIL for that;
# one still waiting for it when the interpreter shuts down aborts the rank ('terminate called without an active
# exception': pytorch/pytorch#190489; 3-10% of runs here). Leave them the GIL a moment to finish first.
time.sleep(0.1)
