"""v1 ``azureml.pipeline``: pipelines, refused with the v2 replacement."""


