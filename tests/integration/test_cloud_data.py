"""v1 data calls on a cloud workspace, through the real MLClient and the loopback HTTPS fake."""

from __future__ import annotations

import os

import pytest

from acpt_estimator import PyTorch
from acpt_estimator.v1.core.dataset import Dataset
from acpt_estimator.exceptions import UserErrorException, WebserviceException
from acpt_estimator.v1.core.experiment import Experiment
from tests.fake_aml.fixtures import *  # noqa: F401,F403

pytestmark = pytest.mark.integration


def test_dataset_registration_is_a_data_asset_put_and_get_by_name_reads_it(cloud_workspace, fake_aml):
    ds = cloud_workspace.get_default_datastore()
    dataset = Dataset.File.from_files(path=(ds, "cifar10/**"))
    registered = dataset.register(cloud_workspace, "cifar", description="v1 dataset", tags={"k": "v"})
    assert (registered.name, registered.version) == ("cifar", "1")
    puts = fake_aml.calls("PUT", r".*/data/cifar/versions/1")
    assert len(puts) == 1
    body = puts[0].json()["properties"]
    assert body["dataUri"] == "azureml://datastores/workspaceblobstore/paths/cifar10/"
    assert body["dataType"] == "uri_folder" and body["description"] == "v1 dataset"
    # The same definition again is the same version; another path needs create_new_version=True.
    assert dataset.register(cloud_workspace, "cifar").version == "1"
    other = Dataset.File.from_files(path=(ds, "cifar100/**"))
    with pytest.raises(UserErrorException, match="create_new_version=True"):
        other.register(cloud_workspace, "cifar")
    assert other.register(cloud_workspace, "cifar", create_new_version=True).version == "2"

    fetched = Dataset.get_by_name(cloud_workspace, "cifar", version=1)
    assert fetched.version == "1" and fetched.paths[0][1] == "cifar10/**"  # the v1 glob round-trips
    with pytest.raises(UserErrorException, match="'missing' .* is not registered in workspace"):
        Dataset.get_by_name(cloud_workspace, "missing")


def test_job_put_carries_datastore_and_dataset_inputs_with_modes(cloud_workspace, fake_aml, make_project):
    ds = cloud_workspace.get_default_datastore()
    train = Dataset.File.from_files(path=(ds, "train/**")).register(cloud_workspace, "train-files")
    est = PyTorch(make_project(), compute_target="cpu-cluster", entry_script="train.py",
                  script_params={"--mnist": ds.path("mnist").as_mount(), "--cfg": ds.path("cfg/c.json").as_download(),
                                 "--out": ds.path("results").as_upload()},
                  inputs=[train.as_named_input("train").as_mount()])
    Experiment(cloud_workspace, "data").submit(est)
    job = fake_aml.calls("PUT", r".*/jobs/[^/]+$")[-1].json()["properties"]
    inputs = {k: (v.get("uri"), v.get("mode"), v["jobInputType"]) for k, v in job["inputs"].items()}
    modes = {uri: (mode, kind) for uri, mode, kind in inputs.values()}
    assert modes["azureml://datastores/workspaceblobstore/paths/mnist/"] == ("ReadOnlyMount", "uri_folder")
    assert modes["azureml://datastores/workspaceblobstore/paths/cfg/c.json"] == ("Download", "uri_file")
    assert inputs["train"][0].endswith("/data/train-files/versions/1") and inputs["train"][1] == "ReadOnlyMount"
    output = next(iter(job["outputs"].values()))
    assert (output["uri"], output["mode"]) == ("azureml://datastores/workspaceblobstore/paths/results", "Upload")
    assert 'export AZUREML_DATAREFERENCE_train="${{inputs.train}}"' in job["command"]


def test_upload_sends_new_files_once_and_refuses_silent_overwrites(cloud_workspace, fake_aml, tmp_path):
    """The blob upload goes to https://<account>.blob.core.windows.net, tunnelled to the fake by its proxy."""
    data = tmp_path / "data"
    (data / "sub").mkdir(parents=True)
    (data / "a.txt").write_text("a")
    (data / "sub" / "b.txt").write_text("b")
    ds = cloud_workspace.get_default_datastore()
    ref = ds.upload(src_dir=str(data), target_path="mnist", show_progress=False)
    assert ref.path_on_datastore == "mnist"
    assert fake_aml.calls("POST", r".*/datastores/workspaceblobstore/listSecrets")
    blobs = fake_aml.state.blobs.blobs
    assert blobs["fakeaccount/azureml-blobstore-fake/mnist/a.txt"] == b"a"
    assert blobs["fakeaccount/azureml-blobstore-fake/mnist/sub/b.txt"] == b"b"

    def blob_puts():
        return len(fake_aml.calls("PUT", r"/blob/fakeaccount/azureml-blobstore-fake/mnist/.*"))

    sent = blob_puts()
    ds.upload(src_dir=str(data), target_path="mnist", show_progress=False)
    assert blob_puts() == sent  # identical content: nothing re-uploaded
    (data / "a.txt").write_text("changed")
    with pytest.raises(UserErrorException, match=r"would overwrite 1 different file\(s\), e\.g\. a\.txt"):
        ds.upload(src_dir=str(data), target_path="mnist", show_progress=False)
    assert blobs["fakeaccount/azureml-blobstore-fake/mnist/a.txt"] == b"a"
    ds.upload(src_dir=str(data), target_path="mnist", overwrite=True, show_progress=False)
    assert blobs["fakeaccount/azureml-blobstore-fake/mnist/a.txt"] == b"changed"
    assert blob_puts() == sent + 1
    with pytest.raises(UserErrorException, match="upload source folder .*nope.* does not exist"):
        ds.upload(src_dir=str(tmp_path / "nope"))


def test_a_file_over_64_mib_goes_up_in_blocks_with_its_md5_and_a_rerun_skips_it(cloud_workspace, fake_aml, tmp_path):
    """azure-storage-blob uploads files over 64 MiB in blocks, for which the service keeps no Content-MD5."""
    data = tmp_path / "big"
    data.mkdir()
    (data / "weights.bin").write_bytes(os.urandom(1024) * (65 * 1024))  # 65 MiB
    ds = cloud_workspace.get_default_datastore()
    ds.upload(src_dir=str(data), target_path="big", show_progress=False)
    path = "fakeaccount/azureml-blobstore-fake/big/weights.bin"
    assert fake_aml.calls("PUT", r"/big/weights\.bin$")[-1].query.get("comp") == "blocklist"
    assert fake_aml.state.blobs.md5[path]  # sent by us with the block list
    sent = len(fake_aml.calls("PUT", r"/big/weights\.bin$"))
    ds.upload(src_dir=str(data), target_path="big", show_progress=False)  # no "would overwrite"
    assert len(fake_aml.calls("PUT", r"/big/weights\.bin$")) == sent


def test_blobs_without_md5_are_compared_by_size_then_left_alone_as_v1_did(cloud_workspace, fake_aml, tmp_path):
    """Blobs that another tool uploaded in blocks have no Content-MD5 to compare with."""
    blobs = fake_aml.state.blobs
    root = "fakeaccount/azureml-blobstore-fake/other/"
    blobs.blobs.update({root + "same.txt": b"1234", root + "longer.txt": b"123"})
    data = tmp_path / "data"
    data.mkdir()
    (data / "same.txt").write_bytes(b"abcd")  # same size, no MD5: an existing target, skipped as v1 skipped it
    (data / "longer.txt").write_bytes(b"abcd")
    ds = cloud_workspace.get_default_datastore()
    with pytest.raises(UserErrorException, match=r"would overwrite 1 different file\(s\), e\.g\. longer\.txt"):
        ds.upload(src_dir=str(data), target_path="other", show_progress=False)
    (data / "longer.txt").unlink()
    ds.upload(src_dir=str(data), target_path="other", show_progress=False)
    assert blobs.blobs[root + "same.txt"] == b"1234"
    ds.upload(src_dir=str(data), target_path="other", overwrite=True, show_progress=False)
    assert blobs.blobs[root + "same.txt"] == b"abcd" and blobs.md5[root + "same.txt"]


def test_a_storage_account_that_refuses_the_upload_says_which_role_to_ask_for(cloud_workspace, fake_aml, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "a.txt").write_text("a")
    fake_aml.fail_next("PUT", r"^/blob/fakeaccount/azureml-blobstore-fake/denied/a\.txt$", 403)
    with pytest.raises(UserErrorException, match=r"refused the upload .*'Storage Blob Data Contributor'"):
        cloud_workspace.get_default_datastore().upload(src_dir=str(data), target_path="denied", show_progress=False)
    assert "fakeaccount/azureml-blobstore-fake/denied/a.txt" not in fake_aml.state.blobs.blobs


def test_hostile_paths_and_names_are_refused_before_any_request(cloud_workspace, fake_aml, tmp_path):
    (tmp_path / "a.txt").write_text("a")
    ds = cloud_workspace.get_default_datastore()
    before = len(fake_aml.calls("PUT", r".*")) + len(fake_aml.calls("POST", r".*"))
    with pytest.raises(UserErrorException, match=r"target_path='\.\./\.\./x' climbs out"):
        ds.upload(str(tmp_path), target_path="../../x", show_progress=False)
    with pytest.raises(UserErrorException, match="is not a valid dataset name"):
        Dataset.File.from_files(path=(ds, "x/**")).register(cloud_workspace, "x\n")
    assert len(fake_aml.calls("PUT", r".*")) + len(fake_aml.calls("POST", r".*")) == before


def test_model_names_are_checked_before_any_request(cloud_workspace, fake_aml, tmp_path):
    from acpt_estimator.v1.core.model import Model

    (tmp_path / "model.pt").write_text("w")
    with pytest.raises(WebserviceException, match="model_name='m\\\\n' is not a valid model name"):
        Model.register(cloud_workspace, str(tmp_path / "model.pt"), "m\n")
    assert fake_aml.calls("PUT", r".*/models/.*") == []


def test_a_long_upload_renews_the_datastores_sas_instead_of_failing(cloud_workspace, fake_aml, tmp_path):
    """listSecrets answers a SAS valid for an hour, even for an account-key datastore (recorded); when the storage
    account refuses an expired one, a fresh SAS is fetched and the upload goes on."""
    data = tmp_path / "data"
    data.mkdir()
    for index in range(5):
        (data / f"part{index}.bin").write_bytes(bytes([index]) * 10)
    fake_aml.state.sas_max_requests = 2  # each SAS "expires" after two blob requests
    ds = cloud_workspace.get_default_datastore()
    ds.upload(src_dir=str(data), target_path="long", show_progress=False)
    blobs = fake_aml.state.blobs.blobs
    assert all(blobs[f"fakeaccount/azureml-blobstore-fake/long/part{i}.bin"] == bytes([i]) * 10 for i in range(5))
    secrets = fake_aml.calls("POST", r"/datastores/workspaceblobstore/listSecrets$")
    assert len(secrets) >= 3 and secrets[0].json() == {"expirableSecret": True, "expireAfterHours": 1}
    refused = [c for c in fake_aml.calls("PUT", r"^/blob/") if c.status == 403]
    assert refused  # the expired SAS was refused, then the same file went up with a fresh one
    ds.download(target_path=str(tmp_path / "back"), prefix="long", show_progress=False)
    assert (tmp_path / "back" / "long" / "part4.bin").read_bytes() == bytes([4]) * 10
