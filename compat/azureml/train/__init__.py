"""Shim for ``azureml.train``."""
