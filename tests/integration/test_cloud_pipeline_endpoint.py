"""v1 PipelineEndpoints on an Azure ML workspace, through the real MLClient against the loopback fake: a v2 batch
endpoint whose deployments are the published pipeline components, invoked (a pipeline job) with new parameters."""

from __future__ import annotations

import datetime

import pytest

from acpt_estimator.exceptions import V1NotSupportedException
from acpt_estimator.v1.pipeline.core import (PipelineEndpoint, PublishedPipeline, Schedule, ScheduleRecurrence,
                                             TimeZone)
from tests.fake_aml.fixtures import *  # noqa: F401,F403
from tests.integration.test_cloud_publishing import _fast_lro, _pipeline  # noqa: F401

pytestmark = pytest.mark.integration


def test_a_pipeline_endpoint_is_a_batch_endpoint_of_published_pipeline_components(fake_aml, cloud_workspace):
    first = _pipeline(cloud_workspace).publish("scoring pipeline", version="1")
    second = _pipeline(cloud_workspace).publish("scoring pipeline", version="2")
    endpoint = PipelineEndpoint.publish(cloud_workspace, "Scoring Endpoint", "scores nightly", first)
    v2_name = endpoint.id
    assert v2_name.startswith("scoring-endpoint-") and len(v2_name) <= 32
    resource = fake_aml.state.batch_endpoints[v2_name]
    assert resource["properties"]["description"] == "scores nightly"
    assert resource["properties"]["defaults"] == {"deploymentName": "version-0"}
    deployment = fake_aml.state.batch_deployments[(v2_name, "version-0")]["properties"]
    config = deployment["deploymentConfiguration"]
    assert config["deploymentConfigurationType"] == "PipelineComponent"
    assert config["componentId"]["assetId"].endswith("/components/scoring_pipeline_" +
                                                     first.id.split("_")[-1].split(":")[0] + "/versions/1")
    assert (endpoint.name, endpoint.default_version, endpoint.status) == ("Scoring Endpoint", "0", "Active")
    assert endpoint.endpoint == f"{fake_aml.url}/batch-scoring/{v2_name}/jobs"
    assert first.endpoint == endpoint.endpoint  # v1's REST URL of a published pipeline: the endpoint deploying it
    with pytest.raises(Exception, match="already exists"):
        PipelineEndpoint.publish(cloud_workspace, "Scoring Endpoint", "again", first)

    endpoint.add(second)
    assert [(v.version, v.pipeline.id) for v in endpoint.list_versions()] == [("0", first.id), ("1", second.id)]
    assert endpoint.default_version == "0"
    endpoint.set_default(second)
    assert fake_aml.state.batch_endpoints[v2_name]["properties"]["defaults"] == {"deploymentName": "version-1"}
    again = PipelineEndpoint.get(cloud_workspace, name="Scoring Endpoint")
    assert (again.id, again.default_version, again.get_pipeline().id) == (v2_name, "1", second.id)
    assert again.get_pipeline("0").id == first.id
    assert [p.id for p in again.list_pipelines()] == [first.id, second.id]
    assert [e.name for e in PipelineEndpoint.list(cloud_workspace)] == ["Scoring Endpoint"]

    run = again.submit("endpoint-runs", pipeline_parameters={"text": "through the endpoint"})
    (invoked,) = fake_aml.state.invocations
    assert (invoked["endpoint"], invoked["deployment"]) == (v2_name, "version-1")
    assert invoked["body"]["properties"]["inputData"]["text"] == {"jobInputType": "Literal",
                                                                  "value": "through the endpoint"}
    assert invoked["body"]["properties"]["properties"] == {"experimentName": "endpoint-runs"}
    job = fake_aml.state.jobs[run.id].body["properties"]
    assert job["jobType"] == "Pipeline" and job["componentId"].endswith("/versions/2")
    assert job["experimentName"] == "endpoint-runs"
    assert run.wait_for_completion(show_output=False) == "Completed"
    assert sorted(s.name for s in run.get_steps()) == ["read", "write"]  # the service ran the component's nodes
    again.submit("endpoint-runs", pipeline_version="0")
    assert fake_aml.state.invocations[-1]["deployment"] == "version-0"
    with pytest.raises(ValueError, match="has versions \\['0', '1'\\]"):
        again.submit("endpoint-runs", pipeline_version="7")

    with pytest.raises(V1NotSupportedException, match="begin_delete"):
        again.disable()
    again.enable()  # always active: nothing to change
    with pytest.raises(V1NotSupportedException, match="cannot change"):
        again.set_name("renamed")
    newest = _pipeline(cloud_workspace).publish("scoring pipeline", version="3")
    with pytest.raises(V1NotSupportedException, match="PipelineEndpoint.publish"):
        newest.endpoint
    again.add_default(newest)
    assert (again.default_version, again.get_pipeline().id) == ("2", newest.id)
    assert newest.endpoint == endpoint.endpoint


def test_a_schedule_of_a_pipeline_endpoint_is_a_job_schedule_of_its_default_component(fake_aml, cloud_workspace):
    published = _pipeline(cloud_workspace).publish("nightly", version="3")
    PipelineEndpoint.publish(cloud_workspace, "nightly-endpoint", "d", published)
    recurrence = ScheduleRecurrence(frequency="Day", interval=1, start_time=datetime.datetime(2026, 3, 1, 6, 30),
                                    time_zone=TimeZone.UTC)
    with pytest.warns(UserWarning, match="does not change it"):
        schedule = Schedule.create_for_pipeline_endpoint(cloud_workspace, "via endpoint", "nightly-endpoint",
                                                         "scheduled", recurrence=recurrence,
                                                         pipeline_parameters={"text": "s"})
    job = fake_aml.state.schedules[schedule.id]["action"]["jobDefinition"]
    assert job["componentId"].endswith("/components/nightly/versions/3") and job["inputs"]["text"]["value"] == "s"
    assert (schedule.pipeline_id, schedule.pipeline_endpoint_id) == (published.id, "nightly-endpoint")
    assert [s.id for s in Schedule.get_schedules_for_pipeline_endpoint_id(cloud_workspace, "nightly-endpoint")] == \
        [schedule.id]
    assert PublishedPipeline.get(cloud_workspace, published.id).endpoint.endswith("/nightly-endpoint/jobs")


def test_an_endpoint_submit_passes_a_datapath_parameter_as_a_folder_input(fake_aml, cloud_workspace):
    from acpt_estimator.v1.data.datapath import DataPath, DataPathComputeBinding
    from acpt_estimator.v1.pipeline.core import Pipeline, PipelineParameter
    from acpt_estimator.v1.pipeline.steps import PythonScriptStep
    from tests.integration.test_cloud_publishing import SRC

    store = cloud_workspace.get_default_datastore()
    raw = PipelineParameter("raw", DataPath(store, "raw/2024"))
    step = PythonScriptStep("read_in.py", name="read", arguments=["--in", (raw, DataPathComputeBinding(mode="mount"))],
                            source_directory=SRC, compute_target="cpu-cluster")
    published = Pipeline(cloud_workspace, [step]).publish("reader", version="1")
    endpoint = PipelineEndpoint.publish(cloud_workspace, "reader-endpoint", "reads", published)
    run = endpoint.submit("endpoint-runs", pipeline_parameters={"raw": DataPath(store, "raw/2025")})
    (invoked,) = fake_aml.state.invocations
    wire = invoked["body"]["properties"]["inputData"]["raw"]
    assert wire == {"jobInputType": "UriFolder", "uri": "azureml://datastores/workspaceblobstore/paths/raw/2025/"}
    assert fake_aml.state.jobs[run.id].body["properties"]["inputs"]["raw"]["uri"] == wire["uri"]
    with pytest.raises(Exception, match="pipeline_parameters \\['nope'\\]"):
        endpoint.submit("endpoint-runs", pipeline_parameters={"nope": 1})
    published.disable()
    with pytest.raises(ValueError, match="Disabled; enable"):
        endpoint.submit("endpoint-runs")
