"""``azureml.core`` in v2 jobs: the image's real azureml-core when it has one, else an MLflow-backed ``Run``.

This folder's grandparent is first on the job's PYTHONPATH. ACPT images ship azureml-core (its Run logs to the
same job run); images without it get ``Run`` from ``_mlflow_run.py`` here.
"""

import importlib.machinery as _machinery
import importlib.util as _util
import os as _os
import sys as _sys

_here = _os.path.dirname(_os.path.abspath(__file__))
_namespace = _sys.modules["azureml"]
_others = [p for p in list(getattr(_namespace, "__path__", [])) if _os.path.realpath(p) != _os.path.dirname(_here)]
_real = _machinery.PathFinder.find_spec("core", [p for p in _others if isinstance(p, str)])
# ACPT_ESTIMATOR_AZUREML_RUN=mlflow serves the MLflow-backed Run even where another azureml.core exists.
_forced = (_os.environ.get("ACPT_ESTIMATOR_AZUREML_RUN") or "auto").strip().lower() == "mlflow"
if not _forced and _real is not None and _real.origin and _real.origin.endswith("__init__.py"):
    # Another azureml.core is installed (v1 azureml-core, or acpt-estimator's own shims): serve that one.
    _module = _util.module_from_spec(_real)
    _sys.modules[__name__] = _module
    _real.loader.exec_module(_module)
else:
    _spec = _util.spec_from_file_location(__name__ + "._mlflow_run", _os.path.join(_here, "_mlflow_run.py"))
    _mlflow_run = _util.module_from_spec(_spec)
    _sys.modules[_spec.name] = _mlflow_run
    _spec.loader.exec_module(_mlflow_run)
    Run = _mlflow_run.Run
    __all__ = ["Run"]
