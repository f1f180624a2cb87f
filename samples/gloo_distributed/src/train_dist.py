"""torch.distributed over gloo, initialised from v1's $AZ_BATCHAI_* arguments (2020-era sample style)."""
import argparse
import os
import time

import torch
import torch.distributed as dist
from azureml.core.run import Run
from torch import nn

parser = argparse.ArgumentParser()
parser.add_argument("--dist-backend", default="gloo")
parser.add_argument("--dist-url", required=True)
parser.add_argument("--rank", type=int, required=True)
parser.add_argument("--world-size", type=int, required=True)
parser.add_argument("--epochs", type=int, default=5)
args = parser.parse_args()

dist.init_process_group(args.dist_backend, init_method=args.dist_url, rank=args.rank, world_size=args.world_size)
run = Run.get_context()
torch.manual_seed(args.rank)  # different data per rank; DDP keeps the weights equal
model = nn.parallel.DistributedDataParallel(nn.Linear(16, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
target_w = torch.arange(16, dtype=torch.float32) / 16
for epoch in range(args.epochs):
    x = torch.randn(64, 16)
    loss = nn.functional.mse_loss(model(x).squeeze(1), x @ target_w)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    run.log("loss", loss.item())
weights = model.module.weight.detach().clone()
gathered = [torch.zeros_like(weights) for _ in range(args.world_size)]
dist.all_gather(gathered, weights)
in_sync = all(torch.equal(g, weights) for g in gathered)
run.log("weights_in_sync", int(in_sync))
if args.rank == 0:
    os.makedirs("outputs", exist_ok=True)
    torch.save(model.module.state_dict(), "outputs/model.pt")
# Release DDP (its reducer holds the process group) before tearing the group down together.
del model
dist.barrier()
dist.destroy_process_group()
# torch 2.13's gloo worker threads drop the last collectives' tensors after those complete, and need the GIL for that;
# one still waiting for it when the interpreter shuts down aborts the rank ('terminate called without an active
# exception': pytorch/pytorch#190489). Leave them the GIL a moment to finish first.
time.sleep(0.1)
print(f"rank {args.rank}/{args.world_size} done, weights in sync: {in_sync}")
