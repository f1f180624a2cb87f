"""v1 ``azureml.core.private_endpoint``: workspace networking, refused with the v2 replacement."""

from acpt_estimator.v1._refusal import refused_class
from acpt_estimator._lazy import lazy_names

_WHY = "private endpoints are workspace networking, managed outside training code."
_V2 = ("azure.ai.ml.entities.PrivateEndpoint in Workspace(...) with ml_client.workspaces.begin_create, or "
       "`az network private-endpoint create`")
PrivateEndPoint = refused_class("PrivateEndPoint", _WHY, _V2, module=__name__)
PrivateEndPointConfig = refused_class("PrivateEndPointConfig", _WHY, _V2, module=__name__)

__all__ = ["PrivateEndPoint", "PrivateEndPointConfig"]


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    "InteractiveLoginAuthentication": "acpt_estimator.v1.core.authentication",
})
