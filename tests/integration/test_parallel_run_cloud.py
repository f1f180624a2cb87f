"""ParallelRunStep on Azure ML: through the real MLClient against the loopback HTTPS fake, one pipeline job with a
parallel node whose code is the step's snapshot plus acpt-estimator's adapter."""

from __future__ import annotations

import os

import pytest

from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.pipeline.core import Pipeline, PipelineData
from tests.fake_aml.fixtures import *  # noqa: F401,F403

pytestmark = pytest.mark.integration


def test_a_parallel_run_step_goes_as_a_parallel_node_with_the_adapter(fake_aml, cloud_workspace):
    """ParallelRunStep through the real MLClient: the code (snapshot + adapter) uploaded, one parallel node."""
    from acpt_estimator.v1.core.dataset import Dataset
    from acpt_estimator.v1.core.environment import Environment
    from acpt_estimator.v1.pipeline.steps import ParallelRunConfig, ParallelRunStep

    scripts = os.path.join(os.path.dirname(__file__), os.pardir, "data", "parallel_run")
    store = cloud_workspace.get_default_datastore()
    files = Dataset.File.from_files(path=(store, "images/**"))
    config = ParallelRunConfig(environment=Environment("batch"), entry_script="score_files.py",
                               source_directory=scripts, mini_batch_size="5", error_threshold=10,
                               output_action="append_row", compute_target="cpu-cluster", node_count=2,
                               process_count_per_node=4)
    step = ParallelRunStep("score-images", config, inputs=[files.as_named_input("images")],
                           output=PipelineData("scores", datastore=store), arguments=["--prefix", "p"])
    run = Experiment(cloud_workspace, "batch-scoring").submit(Pipeline(cloud_workspace, [step]))
    (put,) = [r for r in fake_aml.calls("PUT", r"/jobs/[^/]+$") if r.status in (200, 201)]
    node = put.json()["properties"]["jobs"]["score_images"]
    assert (node["type"], node["mini_batch_size"], node["resources"], node["max_concurrency_per_instance"]) == \
        ("parallel", 5, {"instance_count": 2}, 4)
    assert node["task"]["entry_script"] == "acpt_parallel/v2_entry.py"
    assert node["task"]["program_arguments"].endswith("--acpt_input_path ${{inputs.images}} --prefix p")
    assert node["inputs"]["images"]["uri"] == "azureml://datastores/workspaceblobstore/paths/images/"
    uploaded = [name for name in fake_aml.state.blobs.blobs if name.endswith(("/acpt_parallel/v2_entry.py",
                                                                               "/score_files.py"))]
    assert len(uploaded) == 2  # the step's snapshot and the adapter went up as the node's code
    assert run.wait_for_completion(show_output=False) == "Completed"
