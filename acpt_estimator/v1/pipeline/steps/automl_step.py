"""v1 ``azureml.pipeline.steps.automl_step``: AutoML in a pipeline (no v2 equivalent here; refuses at submit)."""

from types import SimpleNamespace

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.v1._refusal import refused_class
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.conda_dependencies import CondaDependencies
from acpt_estimator.v1.core.runconfig import RunConfiguration
from acpt_estimator.v1.data.dataset_consumption_config import DatasetConsumptionConfig
from acpt_estimator.v1.data.output_dataset_config import OutputTabularDatasetConfig
from acpt_estimator.v1.data.tabular_dataset import TabularDataset
from acpt_estimator.v1.pipeline.core.builder import PipelineData, PipelineStep
from acpt_estimator.v1.pipeline.core.graph import ParamDef, TrainingOutput
from acpt_estimator.v1.pipeline.core.pipeline_output_dataset import PipelineOutputTabularDataset
from acpt_estimator.v1.pipeline.core._refused_steps import no_equivalent

_WHY = "acpt-estimator runs training code; AutoML runs on the v2 service with its own job types."
_V2 = "a v2 AutoML node in the pipeline: azure.ai.ml.automl.classification(...)/regression(...)/forecasting(...)"
DIRECT_MODE = "direct"


class ConfigException(UserErrorException):
    """v1 AutoML's configuration error (raised by AutoMLConfig, which is refused here)."""


AutoMLConfig = refused_class("AutoMLConfig", _WHY, _V2, module=__name__)
AutoMLRun = refused_class("AutoMLRun", _WHY, "ml_client.jobs.get(name) on the v2 AutoML job", module=__name__)
AutoMLStepRun = refused_class("AutoMLStepRun", _WHY, "ml_client.jobs.get(name) on the v2 AutoML node's job",
                              module=__name__)
AutoMLStep = no_equivalent("AutoMLStep", _WHY, _V2, __name__, (
    "name", "automl_config", "inputs", "outputs", "script_repl_params", "allow_reuse", "version", "hash_paths",
    "enable_default_model_output", "enable_default_metrics_output"))
AutoMLStep.AUTOML_CONFIG_PARAM_NAME = "AutoMLConfig"
AutoMLStep.DEFAULT_METRIC_PREFIX = "default_metrics_"
AutoMLStep.DEFAULT_MODEL_PREFIX = "default_model_"
# v1 re-exported AutoML's helper modules here; they have nothing to offer without AutoML.
constants = dataprep_utilities = dataset_utilities = SimpleNamespace(__doc__=f"v1 AutoML helpers. {_WHY} {_V2}")

__all__ = ["AutoMLConfig", "AutoMLRun", "AutoMLStep", "AutoMLStepRun", "CondaDependencies", "ConfigException",
           "DIRECT_MODE", "DatasetConsumptionConfig", "Experiment", "OutputTabularDatasetConfig", "ParamDef",
           "PipelineData", "PipelineOutputTabularDataset", "PipelineStep", "RunConfiguration", "TabularDataset",
           "TrainingOutput", "constants", "dataprep_utilities", "dataset_utilities"]
