"""v1 names that import fine but refuse to run, each saying what replaces it in SDK v2."""

from __future__ import annotations

from .exceptions import UserErrorException


class _Refusing(type):
    """Metaclass: constructing the class, or calling anything on it, raises with the v2 replacement."""

    def _refuse(cls, *args, **kwargs):
        raise UserErrorException(f"{cls.__name__} is not supported by acpt-estimator, which runs v1 training code. "
                                 f"{cls._replacement}")

    def __call__(cls, *args, **kwargs):
        cls._refuse()

    def __getattr__(cls, attribute):  # AciWebservice.deploy_configuration(...), Webservice.list(ws)
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        return cls._refuse


def unsupported(name: str, replacement: str) -> type:
    """A class that imports (so v1 modules load) and raises as soon as it is used."""
    return _Refusing(name, (), {"_replacement": replacement, "__doc__": f"v1 ``{name}``: refused. {replacement}"})


_DEPLOY = ("Deploy models with SDK v2 managed online endpoints: azure.ai.ml.entities.ManagedOnlineEndpoint and "
           "ManagedOnlineDeployment (ml_client.online_endpoints.begin_create_or_update).")
AciWebservice = unsupported("AciWebservice", _DEPLOY)
AksWebservice = unsupported("AksWebservice", _DEPLOY)
LocalWebservice = unsupported("LocalWebservice", _DEPLOY)
Webservice = unsupported("Webservice", _DEPLOY)
InferenceConfig = unsupported("InferenceConfig", _DEPLOY)
ContainerImage = unsupported("ContainerImage", _DEPLOY)
TensorFlow = unsupported(
    "TensorFlow", "For TensorFlow jobs use Estimator(..., custom_docker_image=<a TensorFlow image>) or an SDK v2 "
    "command job with a TensorFlow curated environment.")
_PIPELINES = ("Build pipelines with SDK v2 (azure.ai.ml.dsl.pipeline); single training jobs keep working through "
              "Experiment.submit.")
Pipeline = unsupported("Pipeline", _PIPELINES)
PipelineData = unsupported("PipelineData", _PIPELINES)
PythonScriptStep = unsupported("PythonScriptStep", _PIPELINES)
EstimatorStep = unsupported("EstimatorStep", _PIPELINES)
HyperDriveStep = unsupported("HyperDriveStep", _PIPELINES)
