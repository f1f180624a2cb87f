"""Shim for ``azureml.core.webservice``: imports work; deploying refuses, naming the v2 replacement."""
from acpt_estimator.unsupported import AciWebservice, AksWebservice, LocalWebservice, Webservice  # noqa: F401
