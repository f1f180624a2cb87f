"""v1 ``azureml.core.webservice``: deployment, refused with the v2 replacement."""

from acpt_estimator.unsupported import AciWebservice, AksWebservice, LocalWebservice, Webservice

__all__ = ["AciWebservice", "AksWebservice", "LocalWebservice", "Webservice"]
