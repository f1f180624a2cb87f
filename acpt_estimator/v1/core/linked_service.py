"""v1 ``azureml.core.linked_service``: Synapse workspace links, refused with the v2 replacement."""

from acpt_estimator.v1._refusal import refused_class
from acpt_estimator._lazy import lazy_names

_WHY = "linked services connected v1 workspaces to Synapse for v1 pipelines."
_V2 = ("attach the Synapse Spark pool with azure.ai.ml.entities.SynapseSparkCompute and "
       "ml_client.compute.begin_attach, or use serverless Spark (azure.ai.ml.spark)")
LinkedService = refused_class("LinkedService", _WHY, _V2, module=__name__)
SynapseWorkspaceLinkedServiceConfiguration = refused_class("SynapseWorkspaceLinkedServiceConfiguration", _WHY, _V2,
                                                           module=__name__)
LinkedServiceConfiguration = refused_class("LinkedServiceConfiguration", _WHY, _V2, module=__name__)

__all__ = ["LinkedService", "LinkedServiceConfiguration", "SynapseWorkspaceLinkedServiceConfiguration"]


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    "UserErrorException": "acpt_estimator.exceptions",
})
