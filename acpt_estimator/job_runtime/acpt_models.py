"""Where v1's ``Model.get_model_path`` finds a model without asking the service (a job has no credential to).

Self-contained (standard library): the driver imports it as ``acpt_estimator.job_runtime.acpt_models`` and v2 jobs
as ``acpt_models`` from the job runtime folder, so a scoring or training script finds its model the same way.
"""

from __future__ import annotations

import os
import re

CACHE = "azureml-models"  # v1's download folder: ./azureml-models/<name>/<version>/...


def find_model_path(model_name, version=None):
    """The path of ``model_name`` this process can see, else None. In order: a deployment's ``AZUREML_MODEL_DIR``
    (as v1), a job input named after the model (v2 exports it as ``AZURE_ML_INPUT_<name>``), v1's cache folder."""
    model_dir = os.environ.get("AZUREML_MODEL_DIR")
    if model_dir:
        candidate = os.path.join(model_dir, model_name)
        return candidate if os.path.exists(candidate) else model_dir
    given = os.environ.get("AZURE_ML_INPUT_" + re.sub(r"\W", "_", model_name))
    if given:
        return given
    cache = os.path.join(CACHE, model_name)
    if not os.path.isdir(cache):
        return None
    versions = sorted(int(v) for v in os.listdir(cache) if v.isdigit())
    chosen = version if version is not None else (versions[-1] if versions else None)
    folder = os.path.join(cache, str(chosen))
    if chosen is None or not os.path.isdir(folder):
        return None
    entries = os.listdir(folder)
    return os.path.join(folder, entries[0]) if len(entries) == 1 else folder


def not_found_message(model_name, version=None) -> str:
    wanted = model_name if version is None else f"{model_name}:{version}"
    return (f"Model {wanted} was not found: no AZUREML_MODEL_DIR, no job input named {model_name!r} and no "
            f"./{CACHE}/{model_name} folder. Pass the model to the job as an input, e.g. "
            f"inputs={{'{re.sub(r'[^0-9A-Za-z_]', '_', model_name)}': Input(type='custom_model', "
            f"path='azureml:{model_name}:{version or 1}')}}, or download it first (Model(ws, name).download()).")
