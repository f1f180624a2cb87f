"""PipelineParameter where v1 allowed it besides arguments: a step's params (AML_PARAMETER_<name> variables),
runconfig_pipeline_params and MpiStep's process counts; values given at submit reach the real processes."""

from __future__ import annotations

import os

import pytest

from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.pipeline.core import Pipeline, PipelineData, PipelineParameter
from acpt_estimator.v1.pipeline.steps import MpiStep, PythonScriptStep
from tests.local_fixtures import local_workspace  # noqa: F401

pytestmark = pytest.mark.integration
SRC = os.path.join(os.path.dirname(__file__), os.pardir, "data", "pipeline_steps")


def test_params_and_process_counts_take_the_values_given_at_submit(local_workspace):
    data, model = PipelineData("prepared"), PipelineData("model")
    greet = PythonScriptStep("env_param.py", name="greet", source_directory=SRC, compute_target="cpu",
                             params={"greeting": PipelineParameter("greeting", "hello"), "fixed": 3})
    prep = PythonScriptStep("prep.py", name="prep", arguments=["--out", data, "--n", 3], outputs=[data],
                            source_directory=SRC, compute_target="cpu")
    train = MpiStep(name="train", source_directory=SRC, script_name="train.py", compute_target="cpu",
                    arguments=["--data", data, "--model", model], inputs=[data], outputs=[model], node_count=1,
                    process_count_per_node=PipelineParameter("procs", 1))
    pipeline = Pipeline(local_workspace, [greet, prep, train])
    assert pipeline.validate() == []
    exp = Experiment(local_workspace, "pipeline-params")
    run = exp.submit(pipeline)
    assert run.wait_for_completion(show_output=False) == "Completed"
    assert run.find_step_run("greet")[0].get_metrics() == {"AML_PARAMETER_fixed": "3",
                                                           "AML_PARAMETER_greeting": "hello"}
    assert run.find_step_run("train")[0].get_metrics() == {"total": 3}  # one rank: 0+1+2
    again = exp.submit(pipeline, pipeline_parameters={"greeting": "bonjour", "procs": 2})
    assert again.wait_for_completion(show_output=False) == "Completed"
    assert again.find_step_run("greet")[0].get_metrics()["AML_PARAMETER_greeting"] == "bonjour"
    assert again.find_step_run("train")[0].get_metrics() == {"total": [3, 3]}  # two ranks now
    assert again.find_step_run("prep")[0].id == run.find_step_run("prep")[0].id  # prep unchanged: reused


def test_runconfig_pipeline_params_keep_v1s_rules(local_workspace):
    from acpt_estimator.exceptions import UserErrorException, V1NotSupportedException

    nodes = PipelineParameter("nodes", 1)
    with pytest.raises(ValueError, match="Runconfig property name Target is not valid"):
        PythonScriptStep("prep.py", source_directory=SRC, runconfig_pipeline_params={"Target": nodes})
    with pytest.raises(ValueError, match=r"Invalid type \(int\) for parameter NodeCount"):
        PythonScriptStep("prep.py", source_directory=SRC, runconfig_pipeline_params={"NodeCount": 2})
    with pytest.raises(ValueError, match="Duplicate parameter NodeCount"):
        PythonScriptStep("prep.py", source_directory=SRC, params={"NodeCount": 1},
                         runconfig_pipeline_params={"NodeCount": nodes})
    with pytest.raises(V1NotSupportedException, match="TensorflowWorkerCount"):
        PythonScriptStep("prep.py", source_directory=SRC, runconfig_pipeline_params={"TensorflowWorkerCount": nodes})
    step = PythonScriptStep("env_param.py", name="counted", source_directory=SRC, compute_target="cpu",
                            runconfig_pipeline_params={"MpiProcessCountPerNode": PipelineParameter("per_node", 1)})
    with pytest.raises(UserErrorException, match=r"'counted'.*per_node.*'many' is not a positive whole number"):
        Experiment(local_workspace, "bad-count").submit(Pipeline(local_workspace, [step]),
                                                       pipeline_parameters={"per_node": "many"})
