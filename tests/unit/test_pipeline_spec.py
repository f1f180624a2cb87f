"""Pipeline specs: a v1 step's data and parameters become tokens, links to producers and parameter specs."""

import pytest

from acpt_estimator.pipelines.spec import (ParamRef, PipelineParameterSpec, PipelineSpec, StepBuildContext, StepLink,
                                           StepSpec)
from acpt_estimator.spec import InputRef, Literal, OutputRef
from acpt_estimator.v1.pipeline.core._step_io import step_io
from acpt_estimator.v1.pipeline.core.builder import PipelineData, PipelineStep
from acpt_estimator.v1.pipeline.core.graph import PipelineParameter


class _Step(PipelineStep):
    pass


def test_pipeline_data_links_the_consumer_to_its_producer_and_parameters_become_refs():
    prepped = PipelineData("prepped")
    _Step("prep", [], [prepped], ["--out", prepped])
    lr = PipelineParameter("lr", 0.1)
    train = _Step("train", [prepped.as_download("data")], [], ["--in", prepped.as_download("data"), "--lr", lr])
    io = step_io(StepBuildContext("train", producers={"prepped": "prep"}), train._arguments, train._inputs,
                 train._outputs)
    assert io.tokens == (Literal("--in"), InputRef("data"), Literal("--lr"), ParamRef("lr"))
    (data,) = io.inputs
    assert (data.kind, data.mode, data.uri) == ("step_output", "download", "step://prep/prepped")
    assert io.links == (StepLink("data", "prep", "prepped"),)
    assert io.parameters == (PipelineParameterSpec("lr", 0.1),)
    producer = step_io(StepBuildContext("prep"), ["--out", prepped], [], [prepped])
    assert producer.tokens[1] == OutputRef("prepped") and producer.produces == ("prepped",)
    assert producer.outputs[0].path_on_datastore == "azureml/{run-id}/{output-name}"


def test_v1_port_name_and_argument_rules():
    data = PipelineData("d")
    with pytest.raises(ValueError, match=r"\[d\] is repeated"):
        _Step("s", [data], [PipelineData("d")])
    with pytest.raises(ValueError, match="not a valid, as it may contain only letters"):
        PipelineData("bad-name")
    with pytest.raises(ValueError, match="appears in arguments list but is not in the input/output lists"):
        _Step("s", [], [], ["--x", data])
    with pytest.raises(ValueError, match="does not have any producer step"):
        step_io(StepBuildContext("s"), [data.as_mount()], [data.as_mount()], [])


def test_step_spec_kinds_and_upstream_order():
    step = StepSpec(name="b", kind="command", job=None, links=(StepLink("x", "a", "out"),), run_after=("c", "a"))
    assert step.upstream == ("a", "c")
    with pytest.raises(ValueError, match="kind='spark'"):
        StepSpec(name="b", kind="spark", job=None)
    spec = PipelineSpec(steps=(step,), parameters=(PipelineParameterSpec("lr", 0.1),))
    assert spec.parameter_values({"lr": 0.5}) == {"lr": 0.5} and spec.step("b") is step


def test_validate_reports_cycles_and_the_graph_shows_edges(tmp_path):
    from acpt_estimator.v1.pipeline.core import Pipeline
    from acpt_estimator.v1.pipeline.steps import PythonScriptStep

    (tmp_path / "s.py").write_text("print(1)\n")
    data = PipelineData("d")
    a = PythonScriptStep("s.py", name="A", arguments=["--o", data], outputs=[data], source_directory=str(tmp_path))
    b = PythonScriptStep("s.py", name="B", arguments=["--i", data], inputs=[data], source_directory=str(tmp_path))
    pipeline = Pipeline(None, [b])
    assert pipeline.validate() == []
    assert pipeline.graph.edges == [("a", "b", "d")] and pipeline.graph.nodes == {"b": "B", "a": "A"}
    a.run_after(b)
    (problem,) = pipeline.validate()
    assert "cycle" in problem and "A" in problem and "B" in problem
