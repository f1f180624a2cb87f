"""``azureml.core.model`` in v2 jobs without azureml-core (see ``__init__.py``): ``Model.get_model_path``."""

from acpt_models import find_model_path, not_found_message


class ModelNotFoundException(Exception):
    """v1's exception for a model the script cannot find."""


class Model:
    """Only what scripts call inside a job: ``Model.get_model_path(name, version=None)``."""

    @staticmethod
    def get_model_path(model_name, version=None, _workspace=None):
        path = find_model_path(model_name, version)
        if path is None:
            raise ModelNotFoundException(not_found_message(model_name, version))
        return path


__all__ = ["Model", "ModelNotFoundException"]
