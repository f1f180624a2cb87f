"""exp.submit(estimator) through the real MLClient against the loopback HTTPS fake: the job PUT, uploads, retries."""

from __future__ import annotations

import re

import pytest

from acpt_estimator import Mpi, PyTorch, PyTorchConfiguration
from acpt_estimator.v1.core.environment import Environment
from acpt_estimator.exceptions import SnapshotException, UserErrorException, WorkspaceException
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.script_run_config import ScriptRunConfig
from acpt_estimator.v1.core.workspace import Workspace
from tests.fake_aml.fixtures import *  # noqa: F401,F403

pytestmark = pytest.mark.integration
JOB_PUT = r"/jobs/[^/]+$"
CURATED = "azureml:AzureML-acpt-pytorch-2.8-cuda12.6@latest"


def _job_body(fake):
    puts = [r for r in fake.calls("PUT", JOB_PUT) if r.status in (200, 201)]
    assert len(puts) == 1
    return puts[0].json()["properties"]


def test_mpi_estimator_becomes_one_v2_mpi_job(fake_aml, cloud_workspace, make_project):
    source = make_project({"train.py": "print('hi')\n", "utils/helpers.py": "X = 1\n"})
    data = cloud_workspace.get_default_datastore()
    est = PyTorch(source, entry_script="train.py", compute_target="gpu-cluster", node_count=2,
                  distributed_training=Mpi(process_count_per_node=4), use_gpu=True,
                  script_params={"--epochs": 3, "--data": data.path("mnist/").as_mount()})

    run = Experiment(cloud_workspace, "mnist-mpi").submit(est)

    assert re.fullmatch(r"mnist-mpi_\d{10}_[0-9a-f]{8}", run.id)
    body = _job_body(fake_aml)
    assert body["jobType"] == "Command"
    assert body["distribution"] == {"distributionType": "Mpi", "processCountPerInstance": 4}
    assert body["resources"]["instanceCount"] == 2
    assert body["environmentId"] == CURATED
    assert body["experimentName"] == "mnist-mpi"
    assert body["computeId"].endswith("/computes/gpu-cluster")
    ref = next(k for k in body["inputs"] if k != "acpt_job_runtime")
    assert body["inputs"][ref] == {"uri": "azureml://datastores/workspaceblobstore/paths/mnist/",
                                   "mode": "ReadOnlyMount", "jobInputType": "uri_folder"}
    assert body["command"].splitlines()[-1] == f"python train.py --epochs 3 --data ${{{{inputs.{ref}}}}}"
    assert body["environmentVariables"]["NCCL_TREE_THRESHOLD"] == "0"
    # The code went to the SAS URL the fake handed out, file by file, before the job referenced it.
    uploaded = sorted(r.path.split("/", 4)[-1] for r in fake_aml.calls("PUT", r"^/blob/devstoreaccount1/")
                      if "comp" not in r.query)
    assert [p.split("/", 1)[1] for p in uploaded] == ["train.py", "utils/helpers.py"]
    # An MPI job also gets acpt-estimator's job runtime (the horovod package) as a folder input, uploaded by the
    # SDK to the default datastore (without bytecode) and put first on PYTHONPATH by the command.
    runtime = body["inputs"]["acpt_job_runtime"]
    assert runtime["mode"] == "Download" and runtime["jobInputType"] == "uri_folder"
    assert re.fullmatch(r"azureml://datastores/workspaceblobstore/paths/LocalUpload/[0-9a-f]+/job_runtime/?",
                        runtime["uri"])
    shipped = {r.path.split("/job_runtime/", 1)[1] for r in fake_aml.calls("PUT", r"^/blob/fakeaccount/")
               if "comp" not in r.query}
    assert {"horovod/__init__.py", "horovod/torch/optimizer.py"} <= shipped
    assert not [p for p in shipped if "__pycache__" in p or p.endswith(".pyc")]
    assert body["command"].splitlines()[:2] == [
        "mkdir -p 'outputs' 'logs'", 'export PYTHONPATH="${{inputs.acpt_job_runtime}}${PYTHONPATH:+:${PYTHONPATH}}"']
    assert re.search(r"/codes/[^/]+/versions/1$", body["codeId"])
    assert fake_aml.state.job_creations == 1


def test_pytorch_distribution_estimator_and_script_run_config(fake_aml, cloud_workspace, make_project):
    source = make_project()
    exp = Experiment(cloud_workspace, "ddp")
    est = PyTorch(source, entry_script="train.py", compute_target="gpu-cluster", node_count=2,
                  process_count_per_node=4, distributed_backend="nccl", use_gpu=True)
    exp.submit(est)
    body = _job_body(fake_aml)
    assert body["distribution"] == {"distributionType": "PyTorch", "processCountPerInstance": 4}
    assert body["resources"]["instanceCount"] == 2

    fake_aml.reset()
    src = ScriptRunConfig(source, script="train.py", arguments=["--lr", 0.1], compute_target="gpu-cluster",
                          environment=Environment.get(cloud_workspace, "AzureML-acpt-pytorch-2.8-cuda12.6"),
                          distributed_job_config=PyTorchConfiguration(process_count=8, node_count=2))
    run = exp.submit(src, tags={"team": "vision"})
    body = _job_body(fake_aml)
    # v1's process_count is the total over all nodes; v2 wants it per node.
    assert body["distribution"] == {"distributionType": "PyTorch", "processCountPerInstance": 4}
    assert body["resources"]["instanceCount"] == 2
    assert body["environmentId"] == CURATED
    assert body["command"].splitlines()[-1] == "python train.py --lr 0.1"
    assert body["tags"] == {"team": "vision"}
    assert run.tags == {"team": "vision"}


def test_unchanged_code_is_uploaded_once(fake_aml, cloud_workspace, make_project):
    source = make_project()
    exp = Experiment(cloud_workspace, "dedupe")
    make = lambda: PyTorch(source, entry_script="train.py", compute_target="cpu", use_gpu=True)  # noqa: E731
    first, second = exp.submit(make()), exp.submit(make())
    assert first.id != second.id
    assert len(fake_aml.calls("POST", r"startPendingUpload$")) == 1
    assert len([r for r in fake_aml.calls("PUT", r"^/blob/") if "comp" not in r.query]) == 1
    code_ids = [r.json()["properties"]["codeId"] for r in fake_aml.calls("PUT", JOB_PUT)]
    assert len(code_ids) == 2 and code_ids[0] == code_ids[1]

    with open(f"{source}/train.py", "a") as handle:
        handle.write("print('changed')\n")
    exp.submit(make())
    assert len(fake_aml.calls("POST", r"startPendingUpload$")) == 2


def test_transient_429_and_503_are_retried_and_the_job_created_once(fake_aml, cloud_workspace, make_project):
    fake_aml.fail_next("PUT", JOB_PUT, 429, 503)
    run = Experiment(cloud_workspace, "flaky").submit(
        PyTorch(make_project(), entry_script="train.py", compute_target="cpu", use_gpu=True))
    attempts = fake_aml.calls("PUT", JOB_PUT)
    assert [r.status for r in attempts] == [429, 503, 201]
    assert {r.path for r in attempts} == {attempts[0].path}  # every retry PUT the same job name
    assert fake_aml.state.job_creations == 1 and list(fake_aml.state.jobs) == [run.id]


def test_secrets_block_the_submit_until_ignored(fake_aml, cloud_workspace, make_project):
    key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEsecret\n-----END RSA PRIVATE KEY-----\n"
    source = make_project({"train.py": "print(1)\n", ".env": "API_KEY=hunter2\n", "keys/deploy.pem": key})
    exp = Experiment(cloud_workspace, "secrets")
    est = PyTorch(source, entry_script="train.py", compute_target="cpu", use_gpu=True)
    with pytest.raises(SnapshotException) as info:
        exp.submit(est)
    message = info.value.message
    assert ".env" in message and "keys/deploy.pem" in message and ".amlignore" in message
    assert "hunter2" not in message and "MIIEsecret" not in message
    assert fake_aml.calls("PUT", r"^/blob/") == [] and fake_aml.calls("PUT", JOB_PUT) == []

    with open(f"{source}/.amlignore", "w") as handle:
        handle.write(".env\nkeys/\n")
    exp.submit(est)
    uploaded = {r.path.rsplit("/", 1)[-1] for r in fake_aml.calls("PUT", r"^/blob/") if "comp" not in r.query}
    assert uploaded == {"train.py", ".amlignore"}


def test_a_failing_credential_gives_a_short_message(fake_aml, make_project):
    from azure.core.exceptions import ClientAuthenticationError

    class NoLogin:
        def get_token(self, *scopes, **kwargs):
            raise ClientAuthenticationError("DefaultAzureCredential failed to retrieve a token from the included "
                                            "credentials.\nAttempted credentials:\n\tEnvironmentCredential: ...")

    state = fake_aml.state
    ws = Workspace(state.subscription_id, state.resource_group, state.workspace_name, auth=NoLogin())
    with pytest.raises(WorkspaceException) as info:
        Experiment(ws, "nologin").submit(PyTorch(make_project(), entry_script="train.py", compute_target="cpu",
                                                 use_gpu=True))
    message = info.value.message
    assert "az login" in message and "Attempted credentials" not in message
    assert info.value.__cause__ is None and info.value.__suppress_context__


def test_a_local_only_workspace_cannot_submit_to_azure(fake_aml, make_project, monkeypatch):
    monkeypatch.setenv("ACPT_ESTIMATOR_TARGET", "local")
    ws = Workspace.from_config()  # no config.json anywhere: a local-only workspace
    monkeypatch.delenv("ACPT_ESTIMATOR_TARGET")
    from acpt_estimator.backends import azureml

    spec = PyTorch(make_project(), entry_script="train.py", compute_target="cpu", use_gpu=True).to_job_spec()
    with pytest.raises(UserErrorException, match="config.json"):
        azureml.submit(spec, Experiment(ws, "nowhere"))
    assert fake_aml.requests == []


def test_a_wrong_workspace_name_says_which_and_where(fake_aml, make_project):
    from tests.fake_aml import FakeCredential

    state = fake_aml.state
    ws = Workspace(state.subscription_id, state.resource_group, "typo-ws", auth=FakeCredential())
    with pytest.raises(WorkspaceException) as info:
        Experiment(ws, "lost").submit(PyTorch(make_project(), entry_script="train.py", compute_target="cpu",
                                              use_gpu=True))
    assert "'typo-ws' was not found in resource group 'rg-fake'" in info.value.message
    assert "config.json" in info.value.message


def test_azure_identity_chain_failure_is_not_dumped_on_the_user(fake_aml, make_project, caplog):
    from azure.identity import ChainedTokenCredential, CredentialUnavailableError

    class NotSignedIn:
        def get_token(self, *scopes, **kwargs):
            raise CredentialUnavailableError("Azure CLI not found on path")

    state = fake_aml.state
    ws = Workspace(state.subscription_id, state.resource_group, state.workspace_name,
                   auth=ChainedTokenCredential(NotSignedIn()))
    with pytest.raises(WorkspaceException, match="az login"):
        Experiment(ws, "chain").submit(PyTorch(make_project(), entry_script="train.py", compute_target="cpu",
                                               use_gpu=True))
    assert not [r for r in caplog.records if r.name.startswith("azure.identity")]


def test_a_job_the_sdk_rejects_says_what_is_wrong_without_colour_codes(fake_aml, cloud_workspace, tmp_path):
    from azure.ai.ml import Input, command

    from acpt_estimator.backends.azureml.client import azure_errors, ml_client
    from acpt_estimator.exceptions import ExperimentExecutionException

    node = command(command="python a.py ${{inputs.d}}", compute="cpu", experiment_name="rejected",
                   environment=CURATED, inputs={"d": Input(type="uri_folder", path=str(tmp_path / "gone"))})
    with pytest.raises(ExperimentExecutionException) as info:
        with azure_errors(cloud_workspace, "submit a run to experiment 'rejected'"):
            ml_client(cloud_workspace).jobs.create_or_update(node, skip_validation=True)
    message = info.value.message
    assert message.startswith("Azure ML could not submit a run to experiment 'rejected': 1) One or more files or "
                              "folders do not exist. (x) There is no dir on target path: ")
    assert "Double-check the directory path" in message
    assert "\x1b[" not in message and "If using the CLI" not in message and "\n" not in message
    assert fake_aml.calls("PUT", JOB_PUT) == []
