"""Horovod's pytorch_mnist example, v1 style, on synthetic MNIST-shaped data; runs with real Horovod or the layer."""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
import horovod
import horovod.torch as hvd
from azureml.core.run import Run

parser = argparse.ArgumentParser(description="PyTorch MNIST Example (Horovod)")
parser.add_argument("--batch-size", type=int, default=32)
parser.add_argument("--epochs", type=int, default=3)
parser.add_argument("--batches-per-epoch", type=int, default=8)
parser.add_argument("--lr", type=float, default=0.01)
parser.add_argument("--momentum", type=float, default=0.5)
parser.add_argument("--seed", type=int, default=42)
parser.add_argument("--fp16-allreduce", action="store_true", default=False)
args = parser.parse_args()

# Horovod: initialize library.
hvd.init()
torch.manual_seed(args.seed)
torch.set_num_threads(1)  # Horovod: limit # of CPU threads to be used per worker.
run = Run.get_context()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
        self.conv2 = nn.Conv2d(10, 20, kernel_size=5)
        self.conv2_drop = nn.Dropout2d()
        self.fc1 = nn.Linear(320, 50)
        self.fc2 = nn.Linear(50, 10)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
        x = x.view(-1, 320)
        x = F.relu(self.fc1(x))
        x = F.dropout(x, training=self.training)
        return F.log_softmax(self.fc2(x), dim=1)


# Synthetic MNIST: the same data set on every rank (fixed generator), labels from a fixed random teacher.
# Horovod: each rank trains on its own shard, as DistributedSampler(num_replicas=hvd.size(), rank=hvd.rank()).
data = torch.Generator().manual_seed(1234)
samples = args.batch_size * args.batches_per_epoch * hvd.size()
images = torch.randn(samples, 1, 28, 28, generator=data)
labels = (images.flatten(1) @ torch.randn(784, 10, generator=data)).argmax(dim=1)
shard = torch.arange(hvd.rank(), samples, hvd.size())

model = Net()
# Horovod: scale learning rate by the number of GPUs.
optimizer = torch.optim.SGD(model.parameters(), lr=args.lr * hvd.size(), momentum=args.momentum)
# Horovod: broadcast parameters & optimizer state.
hvd.broadcast_parameters(model.state_dict(), root_rank=0)
hvd.broadcast_optimizer_state(optimizer, root_rank=0)
compression = hvd.Compression.fp16 if args.fp16_allreduce else hvd.Compression.none
# Horovod: wrap optimizer with DistributedOptimizer.
optimizer = hvd.DistributedOptimizer(optimizer, named_parameters=model.named_parameters(), compression=compression,
                                     op=hvd.Average)


def metric_average(val, name):
    avg_tensor = hvd.allreduce(torch.tensor(val), name=name)
    return avg_tensor.item()


run.log("hvd_size", hvd.size())
run.log("horovod_layer", int(getattr(horovod, "_acpt_layer", False)))
run.log("gloo_controller", int(hvd.gloo_enabled() and not hvd.mpi_enabled()))
for epoch in range(args.epochs):
    model.train()
    total = 0.0
    for batch in range(args.batches_per_epoch):
        index = shard[batch * args.batch_size:(batch + 1) * args.batch_size]
        optimizer.zero_grad()
        loss = F.nll_loss(model(images[index]), labels[index])
        loss.backward()
        optimizer.step()
        total += loss.item()
        run.log_row("rank_loss", epoch=epoch, batch=batch, rank=hvd.rank(), loss=loss.item())
    train_loss = metric_average(total / args.batches_per_epoch, "avg_loss")
    run.log("loss", train_loss)  # the same averaged value on every rank
    if hvd.rank() == 0:
        print(f"epoch {epoch} loss {train_loss:.6f}", flush=True)

os.makedirs("outputs", exist_ok=True)
torch.save(model.state_dict(), f"outputs/weights_rank{hvd.rank()}.pt")
if hvd.rank() == 0:
    torch.save(model.state_dict(), "outputs/model.pt")
