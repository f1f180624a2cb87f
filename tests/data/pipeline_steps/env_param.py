"""Logs the AML_PARAMETER_* variables v1 set from a step's params (values of pipeline parameters at submit)."""
import os
from azureml.core.run import Run
run = Run.get_context()
for key, value in sorted(os.environ.items()):
    if key.startswith("AML_PARAMETER_"):
        run.log(key, value)
