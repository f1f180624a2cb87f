"""The private azure-ai-ml/azure-identity names in backends/azureml/sdk.py still exist and behave: fails on SDK moves."""

from __future__ import annotations

import configparser
import importlib
import importlib.metadata
import logging
import os

import pytest

from acpt_estimator.backends.azureml import sdk, stream

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_the_installed_azure_ai_ml_is_the_tested_minor_and_setup_cfg_caps_it():
    installed = importlib.metadata.version("azure-ai-ml")
    assert installed.startswith(sdk.TESTED_AZURE_AI_ML + "."), (
        f"azure-ai-ml {installed} is installed but backends/azureml/sdk.py was checked against "
        f"{sdk.TESTED_AZURE_AI_ML}: re-check its private names, then update TESTED_AZURE_AI_ML and setup.cfg")
    config = configparser.ConfigParser()
    config.read(os.path.join(ROOT, "setup.cfg"))
    requirement = [r for r in config["options.extras_require"]["azure"].split("\n") if r.startswith("azure-ai-ml")]
    major, minor = (int(x) for x in sdk.TESTED_AZURE_AI_ML.split("."))
    assert requirement == [f"azure-ai-ml>={major}.{minor},<{major}.{minor + 1}"]


@pytest.mark.parametrize("name", sdk.NOISY_LOGGERS + (sdk.CREDENTIAL_CHAIN_LOGGER,))
def test_the_silenced_loggers_are_still_the_modules_loggers(name):
    module = importlib.import_module(name)  # ModuleNotFoundError here: the SDK moved the module
    loggers = [v for v in vars(module).values() if isinstance(v, logging.Logger)]
    assert [lg.name for lg in loggers] == [name], f"{name} no longer logs under its module name"


def _command(command_text):
    from azure.ai.ml import command

    return command(command=command_text, environment="azureml:AzureML-acpt-pytorch-2.8-cuda12.6@latest",
                   compute="cpu", inputs={"lr": 0.1}, experiment_name="sdk-check")


def test_node_and_job_checks_run_through_the_wrapped_private_methods():
    good = _command("python -c 1 --lr ${{inputs.lr}}")
    assert sdk.node_errors(good) == []
    job = sdk.to_job(good)
    assert type(job).__name__ == "CommandJob"
    sdk.check_job(job)
    data = sdk.job_dict(job)
    assert data["experiment_name"] == "sdk-check" and data["inputs"]["lr"] == 0.1

    from azure.ai.ml.exceptions import ValidationException

    with pytest.raises(ValidationException, match="does not contain 'nope'"):
        sdk.check_job(sdk.to_job(_command("python -c 1 ${{inputs.nope}}")))
    assert sdk.node_errors(_command(None)) != []  # no command


def test_a_pipeline_job_is_checked_through_the_wrapped_private_method():
    from azure.ai.ml.entities import PipelineJob

    good = PipelineJob(jobs={"a": _command("python -c 1 --lr ${{inputs.lr}}")}, inputs={"lr": 0.1})
    assert sdk.pipeline_errors(good) == []
    from azure.ai.ml import command

    no_compute = command(command="python -c 1", environment="azureml:AzureML-acpt-pytorch-2.8-cuda12.6@latest")
    assert "Compute not set" in str(sdk.pipeline_errors(PipelineJob(jobs={"b": no_compute})))


def test_a_sweep_node_has_the_same_private_checks():
    from azure.ai.ml.sweep import Choice

    sweep = _command("python -c 1 --lr ${{inputs.lr}}")(lr=Choice([0.1, 0.01])).sweep(
        sampling_algorithm="random", primary_metric="acc", goal="Maximize")
    assert sdk.node_errors(sweep) != []  # no limits yet
    sweep.set_limits(max_total_trials=2)
    assert sdk.node_errors(sweep) == [] and type(sdk.to_job(sweep)).__name__ == "SweepJob"


def test_waiting_stops_where_jobs_stream_stops():
    from azure.ai.ml.operations._run_history_constants import RunHistoryConstants

    assert set(stream.STOP_WAITING) == set(RunHistoryConstants.TERMINAL_STATUSES)


def test_the_streamed_logs_are_those_jobs_stream_picks():
    import re

    from azure.ai.ml.constants._job.job import JobLogPattern

    for name in ("user_logs/std_log.txt", "user_logs/std_log_process_0.txt", "azureml-logs/70_driver_log.txt",
                 "azureml-logs/hyperdrive.txt"):
        assert stream.primary_log({name: "url"}) == name
        assert any(re.match(p, name) for p in (JobLogPattern.COMMON_RUNTIME_STREAM_LOG_PATTERN,
                                               JobLogPattern.COMMAND_JOB_LOG_PATTERN,
                                               JobLogPattern.SWEEP_JOB_LOG_PATTERN))


def test_the_rest_operations_behind_v1_compute_workspace_and_model_members_exist():
    from azure.ai.ml import MLClient
    from azure.ai.ml._restclient.arm_ml_service.models import ComputeResource
    from azure.ai.ml.entities import Compute

    from tests.fake_aml import FakeCredential

    client = MLClient(FakeCredential(), "sub", "rg", "ws", enable_telemetry=False)  # no request at construction
    for operation, method in ((client.compute._operation, "get"), (client.compute._operation, "list"),
                              (client.workspaces._operation, "get"),
                              (client.models._model_versions_operation, "delete")):
        assert callable(getattr(operation, method))
    body = {"name": "cpu", "properties": {"computeType": "AmlCompute", "provisioningState": "Succeeded",
                                          "properties": {"vmSize": "STANDARD_D2_V2", "currentNodeCount": 2}}}
    rest = ComputeResource(body)
    assert rest.as_dict() == body and Compute._from_rest_object(rest).size == "STANDARD_D2_V2"
