"""A loopback HTTPS fake of the Azure ML REST endpoints that the real azure-ai-ml client talks to."""

from .server import FakeAzureML, FakeCredential, JobScript

__all__ = ["FakeAzureML", "FakeCredential", "JobScript"]
