"""v1 ``azureml.train``."""
