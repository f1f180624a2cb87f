"""Inside a job: the v1 value of each data input (``run.input_datasets``) and datasets looked up by input path."""

from __future__ import annotations

import os

from acpt_estimator.job_runtime.acpt_datasets import job_definitions

REFERENCE_VAR = "AZUREML_DATAREFERENCE_"


def input_datasets(paths: dict | None = None, environ=None, workspace=None) -> dict:
    """{input name: value}: v1 gives the path for mount/download inputs and the dataset itself for direct ones
    (every tabular input; a file dataset passed without as_mount()/as_download())."""
    environ = os.environ if environ is None else environ
    values = dict(paths) if paths is not None else {
        k[len(REFERENCE_VAR):]: v for k, v in environ.items() if k.startswith(REFERENCE_VAR)}
    for name, definition in job_definitions(environ).items():
        path = values.get(name) or environ.get(REFERENCE_VAR + name)
        if path and (definition.get("type") == "tabular" or definition.get("mode") == "direct"):
            from acpt_estimator.v1.data._registry import from_local_input

            values[name] = from_local_input(name, path, definition, workspace)
    return values


def input_dataset_for(key: str, workspace=None, environ=None):
    """The dataset input of this job whose local path or registered id is ``key`` (v1 scripts pass the
    argument they were given to ``Dataset.get_by_id``); None outside a job or when nothing matches."""
    environ = os.environ if environ is None else environ
    for name, definition in job_definitions(environ).items():
        path = environ.get(REFERENCE_VAR + name)
        if path and key in (path, definition.get("id")):
            from acpt_estimator.v1.data._registry import from_local_input

            return from_local_input(name, path, definition, workspace)
    return None
