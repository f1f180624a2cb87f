"""A v1-era driver: two submissions, waits and metric reads; run unchanged by `acpt-estimator convert`."""
from acpt_estimator import Mpi, PyTorch
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.workspace import Workspace

ws = Workspace.from_config()
exp = Experiment(ws, "convert-demo")
ds = ws.get_default_datastore()
for backend in ("mpi", "nccl"):
    est = PyTorch("src", compute_target="gpu-cluster", entry_script="train.py", node_count=2,
                  distributed_training=Mpi(2) if backend == "mpi" else None,
                  distributed_backend=None if backend == "mpi" else "nccl",
                  script_params={"--data": ds.path("mnist").as_mount(), "--epochs": 3},
                  pip_packages=["tqdm"], use_gpu=True)
    run = exp.submit(est)
    run.wait_for_completion(show_output=True)
    print("metrics", run.get_metrics())
