import argparse, os
p = argparse.ArgumentParser(); p.add_argument("--data"); p.add_argument("--model")
a = p.parse_args()
rank = int(os.environ.get("OMPI_COMM_WORLD_RANK", os.environ.get("PMI_RANK", "0")))
total = sum(int(x) for x in open(os.path.join(a.data, "data.txt")).read().split())
if rank == 0:
    os.makedirs(a.model, exist_ok=True)
    open(os.path.join(a.model, "model.txt"), "w").write(str(total))
from azureml.core.run import Run
Run.get_context().log("total", total)
print("rank", rank, "total", total)
