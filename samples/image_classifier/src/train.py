"""Single-process image classifier on synthetic 'digits' (v1-era training script, unchanged style)."""
import argparse
import os

import torch
from azureml.core.run import Run
from torch import nn

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=3)
parser.add_argument("--learning-rate", type=float, default=0.05)
parser.add_argument("--output-dir", default="./outputs")
args = parser.parse_args()

run = Run.get_context()
torch.manual_seed(0)
# Synthetic 8x8 "images" of 4 classes: each class lights up a different quadrant, plus noise.
labels = torch.randint(0, 4, (512,))
images = torch.randn(512, 1, 8, 8) * 0.3
for c in range(4):
    rows, cols = divmod(c, 2)
    images[labels == c, :, rows * 4:(rows + 1) * 4, cols * 4:(cols + 1) * 4] += 1.0

model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 64, 4))
optimizer = torch.optim.SGD(model.parameters(), lr=args.learning_rate, momentum=0.9)
run.log("lr", args.learning_rate)
for epoch in range(args.epochs):
    for i in range(0, 512, 64):
        loss = nn.functional.cross_entropy(model(images[i:i + 64]), labels[i:i + 64])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    accuracy = (model(images).argmax(1) == labels).float().mean().item()
    run.log("loss", loss.item())
    run.log("accuracy", accuracy)
    run.log("epoch_summary", "epoch {0}: {1:.3f}".format(epoch, accuracy))  # v1 samples log strings too
os.makedirs(args.output_dir, exist_ok=True)
torch.save(model.state_dict(), os.path.join(args.output_dir, "model.pt"))
print("final accuracy", accuracy)
