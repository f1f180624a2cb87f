"""Run after a v2 sweep node: v1's TrainingOutputs of the HyperDriveStep, from the sweep's trials found via MLflow.

In a v2 pipeline node MLFLOW_TRACKING_URI and MLFLOW_RUN_ID name this node's run; its ``mlflow.parentRunId`` tag is
the pipeline job, whose child run named after the sweep node is the sweep, whose children are the trials. Writes
``{trial run id: its metrics}`` in v1's ``get_metrics`` shapes (``_v1_records`` of the job runtime folder, given as
``--job-runtime``, reads what the trials' v1 Run logged) and copies the best completed trial's model file (v1's rule:
the trial whose best primary-metric value is best).
May import: the standard library, mlflow and the job runtime's ``_v1_records`` (it runs without acpt-estimator).
"""

import argparse
import importlib.util
import json
import os
import shutil
import sys
import tempfile

PARENT_TAG = "mlflow.parentRunId"
NAME_TAG = "mlflow.runName"  # a pipeline node's run is named after the node's display name (or its name)
NODE_TAG = "azureml.nodeid"  # the node a step run ran, where the service shows its run properties as tags


def _children(client, experiment_id, parent_id):
    runs, token = [], None
    while True:
        page = client.search_runs([experiment_id], f"tags.{PARENT_TAG} = '{parent_id}'", page_token=token)
        runs.extend(page)
        token = getattr(page, "token", None)
        if not token:
            return runs


def find_sweep(client, names):
    """The sweep node's run: the sibling of this node's run (same pipeline parent) named after the sweep node."""
    own = client.get_run(os.environ["MLFLOW_RUN_ID"])
    pipeline_id = own.data.tags.get(PARENT_TAG)
    if not pipeline_id:
        raise SystemExit(f"run {own.info.run_id} has no {PARENT_TAG} tag: this script runs as a node of the pipeline "
                         "job that holds the sweep node")
    siblings = _children(client, own.info.experiment_id, pipeline_id)
    found = [r for r in siblings
             if {r.info.run_name, r.data.tags.get(NAME_TAG), r.data.tags.get(NODE_TAG)} & set(names)]
    if not found:
        seen = sorted({str(r.info.run_name) for r in siblings})
        raise SystemExit(f"no run of pipeline {pipeline_id} is named {' or '.join(map(repr, names))} (its runs: "
                         f"{seen}); the sweep node must run before this node")
    return found[0], own.info.experiment_id


def load_records(job_runtime: str):
    """The job runtime's ``_v1_records`` (v1's metric shapes from MLflow metrics and record tags), by path."""
    spec = importlib.util.spec_from_file_location("acpt_v1_records", os.path.join(job_runtime, "_v1_records.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def trial_metrics(client, records, trial):
    """One trial's metrics as v1's get_metrics (as the trial's own ``run.get_metrics()`` reads them)."""
    histories = {name: [(m.value, m.step, m.timestamp) for m in client.get_metric_history(trial.info.run_id, name)]
                 for name in trial.data.metrics}
    return records.metrics(records.from_mlflow(histories, trial.data.tags), run_id=trial.info.run_id)


def best_trial(trials, metrics, primary, goal):
    """The completed trial whose best logged numeric primary value is best; None when none logged one."""
    pick = max if goal == "maximize" else min
    scored = []
    for trial in trials:
        value = metrics[trial.info.run_id].get(primary)
        values = [v for v in (value if isinstance(value, list) else [value])
                  if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if trial.info.status == "FINISHED" and values:
            scored.append((pick(values), trial))
    return pick(scored, key=lambda s: s[0])[1] if scored else None


def _copy_model(trial, model_file, target):
    """The trial's ``model_file`` (an artifact path such as outputs/model.pt) to the file ``target``; without one,
    its whole ``outputs/`` folder into the folder ``target``."""
    import mlflow

    with tempfile.TemporaryDirectory() as scratch:
        local = mlflow.artifacts.download_artifacts(run_id=trial.info.run_id, artifact_path=model_file or "outputs",
                                                    dst_path=scratch)
        if model_file:
            os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
            shutil.copyfile(local, target)
        else:
            shutil.copytree(local, target, dirs_exist_ok=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sweep-node", action="append", required=True, help="the sweep node's name(s) in the run")
    parser.add_argument("--primary-metric", required=True)
    parser.add_argument("--goal", choices=("maximize", "minimize"), required=True)
    parser.add_argument("--metrics", action="append", default=[], help="a file to write the metrics JSON to")
    parser.add_argument("--model-file", nargs=2, action="append", default=[], metavar=("TARGET", "MODEL_FILE"))
    parser.add_argument("--model-folder", action="append", default=[], help="a folder for the best outputs/")
    parser.add_argument("--job-runtime", required=True, help="acpt-estimator's job runtime folder")
    args = parser.parse_args(argv)
    try:
        from mlflow.tracking import MlflowClient
    except ImportError:
        raise SystemExit("mlflow is not installed in this environment; the HyperDriveStep's TrainingOutputs are read "
                         "from the trials' MLflow runs: use an ACPT curated environment or add mlflow and "
                         "azureml-mlflow to the step's environment") from None

    client = MlflowClient()
    sweep, experiment_id = find_sweep(client, args.sweep_node)
    trials = _children(client, experiment_id, sweep.info.run_id)
    records = load_records(args.job_runtime)
    metrics = {t.info.run_id: trial_metrics(client, records, t) for t in trials}
    for target in args.metrics:  # v1: one JSON file, {trial run id: that trial's metrics}
        os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
        with open(target, "w", encoding="utf-8") as handle:
            json.dump(metrics, handle, default=str)
    if args.model_file or args.model_folder:
        best = best_trial(trials, metrics, args.primary_metric, args.goal)
        if best is None:
            raise SystemExit(f"no completed trial of sweep {sweep.info.run_id} logged the primary metric "
                             f"{args.primary_metric!r}, so there is no best trial's model to pass on")
        for target, model_file in args.model_file:
            _copy_model(best, model_file, target)
        for target in args.model_folder:
            _copy_model(best, None, target)
    print(f"{len(trials)} trials of sweep {sweep.info.run_id}: wrote {len(args.metrics)} metrics file(s), "
          f"{len(args.model_file) + len(args.model_folder)} model output(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
