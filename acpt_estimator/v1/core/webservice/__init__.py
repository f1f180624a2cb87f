"""v1 ``azureml.core.webservice``: deployment, refused with the v2 replacement."""

from acpt_estimator.unsupported import AciWebservice, AksWebservice, LocalWebservice, Webservice
from acpt_estimator._lazy import lazy_names

__all__ = ["AciWebservice", "AksWebservice", "LocalWebservice", "Webservice"]


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    "AksEndpoint": "acpt_estimator.v1.core.webservice.aks",
    "UnknownWebservice": "acpt_estimator.v1.core.webservice.unknown_webservice",
})
