"""v1 tuning-sample style training script: parses --learning_rate/--momentum, logs best_val_acc per epoch."""
import argparse
import os

import torch
from azureml.core.run import Run
from torch import nn

parser = argparse.ArgumentParser()
parser.add_argument("--learning_rate", type=float, default=0.001)
parser.add_argument("--momentum", type=float, default=0.9)
parser.add_argument("--num_epochs", type=int, default=12)
parser.add_argument("--output_dir", default="./outputs")
args = parser.parse_args()

run = Run.get_context()
run.log("lr", float(args.learning_rate))
torch.manual_seed(0)
x = torch.randn(600, 20)
y = (x[:, :5].sum(1) > 0).long()
train_x, val_x, train_y, val_y = x[:500], x[500:], y[:500], y[500:]
model = nn.Sequential(nn.Linear(20, 16), nn.ReLU(), nn.Linear(16, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=args.learning_rate, momentum=args.momentum)
best_acc = 0.0
for epoch in range(args.num_epochs):
    for i in range(0, 500, 50):
        loss = nn.functional.cross_entropy(model(train_x[i:i + 50]), train_y[i:i + 50])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        acc = (model(val_x).argmax(1) == val_y).float().mean().item()
    best_acc = max(best_acc, acc)
    run.log("best_val_acc", float(best_acc))
os.makedirs(args.output_dir, exist_ok=True)
torch.save(model.state_dict(), os.path.join(args.output_dir, "model.pt"))
