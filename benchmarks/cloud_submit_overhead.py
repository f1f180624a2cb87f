"""Wall time of ``exp.submit(est)`` as a ratio to ``ml_client.jobs.create_or_update(command(...))`` for the same job.

Both run in this process against the loopback HTTPS fake (tests/fake_aml), interleaved, after a warm-up that
uploads the code once; each measured submission then does the same HTTP calls (code hash lookup, job PUT).
Run from the repository root: ``python benchmarks/cloud_submit_overhead.py [--rounds 15]``. Target: <= 1.05x.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.fake_aml import FakeAzureML, FakeCredential  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="acpt-bench-")
    fake = FakeAzureML(scratch).start()
    os.environ.update({"AZUREML_DEV_URL_MFE": fake.url, "REQUESTS_CA_BUNDLE": fake.ca_path,
                       "NO_PROXY": "127.0.0.1,localhost",
                       # the MPI job ships the job runtime, a local input uploaded to the datastore account
                       "HTTPS_PROXY": fake.proxy_url})
    os.environ.pop("ACPT_ESTIMATOR_TARGET", None)
    source = os.path.join(scratch, "src")
    os.makedirs(source)
    for name, text in (("train.py", "import argparse\nprint('training')\n"), ("model.py", "class Net: ...\n")):
        with open(os.path.join(source, name), "w") as handle:
            handle.write(text)
    os.chdir(scratch)  # the SDK reads git metadata and a default experiment name from the cwd

    import logging

    logging.getLogger("azure.ai.ml._utils._experimental").setLevel(logging.ERROR)  # "experimental class" noise
    from azure.ai.ml import Input, MLClient, MpiDistribution, command

    from acpt_estimator import Mpi, PyTorch
    from acpt_estimator.backends.azureml.command_line import JOB_RUNTIME_PATH
    from acpt_estimator.v1.core.experiment import Experiment
    from acpt_estimator.job_runtime import INPUT_NAME, RUNTIME_DIR
    from acpt_estimator.v1.core.workspace import Workspace

    state = fake.state
    credential = FakeCredential()
    ws = Workspace(state.subscription_id, state.resource_group, state.workspace_name, auth=credential)
    exp = Experiment(ws, "bench")
    est = PyTorch(source, entry_script="train.py", compute_target="gpu-cluster", node_count=2,
                  distributed_training=Mpi(2), use_gpu=True, script_params={"--epochs": 3, "--lr": 0.01})
    client = MLClient(credential, state.subscription_id, state.resource_group, state.workspace_name,
                      enable_telemetry=False, show_progress=False)
    preamble = "\n".join([JOB_RUNTIME_PATH] + _preamble())  # the same command text the translation writes

    def direct():
        job = command(code=source, command=preamble + "\npython train.py --epochs 3 --lr 0.01",
                      environment="azureml:AzureML-acpt-pytorch-2.8-cuda12.6@latest", compute="gpu-cluster",
                      instance_count=2, distribution=MpiDistribution(process_count_per_instance=2),
                      environment_variables={"AZUREML_OUTPUT_DIRECTORY": "./outputs", "NCCL_TREE_THRESHOLD": "0"},
                      inputs={INPUT_NAME: Input(type="uri_folder", path=RUNTIME_DIR, mode="download")},
                      experiment_name="bench")
        job.name = f"bench_{int(time.time())}_{uuid.uuid4().hex[:8]}"
        client.jobs.create_or_update(job)

    def ours():
        exp.submit(est)

    _quiet(lambda: (direct(), ours()))  # warm-up: imports, code upload, TLS sessions
    times = {"direct": [], "ours": []}
    for index in range(args.rounds):
        order = (("direct", direct), ("ours", ours)) if index % 2 == 0 else (("ours", ours), ("direct", direct))
        for label, func in order:
            start = time.perf_counter()
            _quiet(func)
            times[label].append(time.perf_counter() - start)
    fake.stop()
    uploads = len(fake.calls("POST", r"startPendingUpload$"))
    direct_ms, ours_ms = (statistics.median(times[k]) * 1000 for k in ("direct", "ours"))
    direct_min, ours_min = (min(times[k]) * 1000 for k in ("direct", "ours"))
    # Each round runs both back to back, so a load spike from another process hits both halves of a pair.
    paired = statistics.median(o / d for o, d in zip(times["ours"], times["direct"]))
    print(f"rounds: {args.rounds}, code uploads: {uploads} (warm-up only), jobs created: {state.job_creations}")
    print(f"ml_client.jobs.create_or_update(command(...)): median {direct_ms:.1f} ms, best {direct_min:.1f} ms")
    print(f"exp.submit(est):                                median {ours_ms:.1f} ms, best {ours_min:.1f} ms")
    print(f"ratio of medians {ours_ms / direct_ms:.3f}x, of bests {ours_min / direct_min:.3f}x")
    print(f"ratio exp.submit / create_or_update (median of paired rounds): {paired:.3f}x  target <= 1.05x: "
          f"{'met' if paired <= 1.05 else 'NOT MET'}")


def _preamble() -> list:
    from acpt_estimator.backends.azureml.command_line import V1_ERA_PREAMBLE

    return list(V1_ERA_PREAMBLE)


def _quiet(func):
    """The SDK prints a colour-reset line to stderr after each upload; keep the report readable."""
    import contextlib
    import io

    with contextlib.redirect_stderr(io.StringIO()):
        return func()


if __name__ == "__main__":
    main()
