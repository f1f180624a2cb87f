"""Shim for ``azureml.core``: re-exports ``acpt_estimator.v1.core`` (see README, "Import shims")."""

from acpt_estimator._v1_guard import check_no_real_azureml_core

check_no_real_azureml_core()

from acpt_estimator.v1.core import __all__, __dir__, __getattr__  # noqa: E402,F401
