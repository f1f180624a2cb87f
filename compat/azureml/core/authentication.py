"""Shim for ``azureml.core.authentication``: v1 auth objects, mapped to azure-identity credentials."""
from acpt_estimator.v1.core.authentication import (AbstractAuthentication, AzureCliAuthentication,  # noqa: F401
                                                  InteractiveLoginAuthentication, MsiAuthentication,
                                                  ServicePrincipalAuthentication)
