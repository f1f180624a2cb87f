"""v1 ``azureml.exceptions``: the exception classes v1 code catches."""

from acpt_estimator.exceptions import *  # noqa: F401,F403
from acpt_estimator.exceptions import __all__  # noqa: F401
