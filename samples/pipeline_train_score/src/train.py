"""Step 2 (EstimatorStep, 2 MPI ranks): fit y = w*x + b with torch; the ranks average their gradients."""
import argparse
import os

import torch
import torch.distributed as dist
from azureml.core.run import Run

parser = argparse.ArgumentParser()
parser.add_argument("--data", required=True)
parser.add_argument("--model", required=True)
parser.add_argument("--epochs", type=int, default=200)
args = parser.parse_args()
rank = int(os.environ.get("OMPI_COMM_WORLD_RANK", os.environ.get("PMI_RANK", "0")))
world = int(os.environ.get("OMPI_COMM_WORLD_SIZE", os.environ.get("PMI_SIZE", "1")))
if world > 1:  # gloo over the MPI ranks; the master address comes from the launcher's environment
    dist.init_process_group("gloo", init_method=os.environ["AZ_BATCHAI_PYTORCH_INIT_METHOD"], rank=rank,
                            world_size=world)
rows = [tuple(map(float, line.split(","))) for line in open(os.path.join(args.data, "train.csv"))]
shard = rows[rank::world]
x = torch.tensor([[r[0]] for r in shard])
y = torch.tensor([[r[1]] for r in shard])
torch.manual_seed(0)  # the same initial weights on every rank
model = torch.nn.Linear(1, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
run = Run.get_context()
for epoch in range(args.epochs):
    optimizer.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    if world > 1:
        for p in model.parameters():
            dist.all_reduce(p.grad)
            p.grad /= world
    optimizer.step()
    if rank == 0 and epoch % 50 == 49:
        run.log("loss", float(loss))
if rank == 0:
    os.makedirs(args.model, exist_ok=True)
    w, b = float(model.weight), float(model.bias)
    with open(os.path.join(args.model, "model.txt"), "w") as handle:
        handle.write(f"{w} {b}\n")
    run.log("w", round(w, 2))
    run.log("b", round(b, 2))
    print(f"model: y = {w:.2f} * x + {b:.2f}")
