"""``azureml.core.run`` in v2 jobs without azureml-core (see ``__init__.py``)."""
from . import Run  # noqa: F401
