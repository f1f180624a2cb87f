"""Data asset paths come back from the service in the long, workspace-scoped form; we compare the short one."""

import pytest

from acpt_estimator.datastore_paths import short_datastore_uri

WS = ("0000-sub", "rg-Fake", "ws-fake")


@pytest.mark.parametrize("uri, expected", [
    ("azureml://subscriptions/0000-sub/resourcegroups/rg-fake/workspaces/ws-fake/datastores/workspaceblobstore/"
     "paths/cifar10/", "azureml://datastores/workspaceblobstore/paths/cifar10/"),
    ("azureml://subscriptions/0000-SUB/resourceGroups/RG-FAKE/workspaces/WS-FAKE/datastores/ds/paths/a/b.csv",
     "azureml://datastores/ds/paths/a/b.csv"),
    # another workspace's datastore is another place: kept whole
    ("azureml://subscriptions/0000-sub/resourcegroups/rg-fake/workspaces/other/datastores/ds/paths/x/",
     "azureml://subscriptions/0000-sub/resourcegroups/rg-fake/workspaces/other/datastores/ds/paths/x/"),
    ("azureml://datastores/ds/paths/x/", "azureml://datastores/ds/paths/x/"),
    ("https://account.blob.core.windows.net/c/x", "https://account.blob.core.windows.net/c/x"),
])
def test_this_workspaces_long_uris_become_short(uri, expected):
    assert short_datastore_uri(uri, *WS) == expected
