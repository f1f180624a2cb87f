"""v1 names that import fine but refuse to run, each saying what replaces it in SDK v2."""

from __future__ import annotations

from .refusal import refused_class


def unsupported(name: str, replacement: str,
                why: str = "acpt-estimator runs v1 training code, not deployment or pipelines.") -> type:
    """A class that imports (so v1 modules load) and refuses as soon as it is used (``refused_class``)."""
    return refused_class(name, why, replacement, module=__name__)


_DEPLOY = ("Deploy models with SDK v2 managed online endpoints: azure.ai.ml.entities.ManagedOnlineEndpoint and "
           "ManagedOnlineDeployment (ml_client.online_endpoints.begin_create_or_update).")
AciWebservice = unsupported("AciWebservice", _DEPLOY)
AksWebservice = unsupported("AksWebservice", _DEPLOY)
LocalWebservice = unsupported("LocalWebservice", _DEPLOY)
Webservice = unsupported("Webservice", _DEPLOY)
InferenceConfig = unsupported("InferenceConfig", _DEPLOY)
ContainerImage = unsupported("ContainerImage", _DEPLOY)
Image = unsupported("Image", _DEPLOY)
TensorFlow = unsupported(
    "TensorFlow", "For TensorFlow jobs use Estimator(..., custom_docker_image=<a TensorFlow image>) or an SDK v2 "
    "command job with a TensorFlow curated environment.",
    why="acpt-estimator translates PyTorch estimators; TensorFlow's has no ACPT environment.")
