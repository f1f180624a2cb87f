"""First line of v2 jobs on environments acpt-estimator installs nothing into (user-managed or registered ones): stop
at once, with the fix, if ``run.log`` cannot reach the run.

``python -m acpt_check_tracking`` (this folder is on the job's PYTHONPATH). Standard library only. The job's
``Run.get_context()`` needs either the image's own azureml-core, or MLflow plus azureml-mlflow (the MLflow-backed
``Run`` of this folder). Without them the metrics would only be printed, and be lost after hours of training.
"""

import importlib.machinery
import importlib.util
import os
import sys

SKIP_VAR = "ACPT_ESTIMATOR_REQUIRE_TRACKING"


def _real_azureml_core() -> bool:
    here = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "azureml"))
    try:
        import azureml
    except ImportError:
        return False
    paths = [p for p in getattr(azureml, "__path__", []) if isinstance(p, str) and os.path.realpath(p) != here]
    spec = importlib.machinery.PathFinder.find_spec("core", paths)
    return spec is not None and bool(spec.origin) and spec.origin.endswith("__init__.py")


def _importable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def main() -> int:
    if os.environ.get(SKIP_VAR, "1").strip() == "0":
        return 0
    if _real_azureml_core() or (_importable("mlflow") and _importable("azureml.mlflow")):
        return 0
    print("acpt-estimator: this job's environment (user-managed, or registered in the workspace: nothing is installed "
          "on top of it) has neither azureml-core nor MLflow with azureml-mlflow, so Run.get_context().log(...) "
          "could not reach the run and the metrics would be lost. Fix: add 'mlflow-skinny azureml-mlflow' to the "
          "image or environment (RUN pip install mlflow-skinny azureml-mlflow), or let Azure ML install them "
          "(user_managed=False / python.user_managed_dependencies = False). If the script logs no metrics, set the "
          f"environment variable {SKIP_VAR}=0 on the job to skip this check.", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
