"""A training script that needs an extra pip package (here: tqdm) next to torch."""
import torch
import tqdm
from azureml.core import Run

run = Run.get_context()
total = 0.0
for step in tqdm.tqdm(range(5), desc="steps"):
    total += torch.ones(3).sum().item()
    run.log("total", total)
run.log("tqdm_version", tqdm.__version__)
