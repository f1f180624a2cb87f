"""The table of names v1 accepted and refused (and with which exception), shared by the local and cloud tests."""

from __future__ import annotations

import os

from acpt_estimator.exceptions import UserErrorException, WebserviceException

# (kind, name): v1 accepted these. Datasets and environments: azureml-core checked nothing and sent the name on;
# experiments: `^[a-zA-Z0-9][\w\-]{0,254}$` (Unicode \w); models: `^[a-zA-Z0-9][a-zA-Z0-9\-\._]{0,254}$`;
# datastores: the service's "alphanumeric characters and _".
ACCEPTED = [
    ("dataset", "my dataset"), ("dataset", "Iris data (2020)"), ("dataset", "a/b"), ("dataset", ".hidden"),
    ("dataset", "données"), ("dataset", "..\\x"), ("dataset", "d" * 300),
    ("experiment", "my-exp_1"), ("experiment", "expérience"), ("experiment", "e" * 255),
    ("datastore", "my_store_1"), ("datastore", "MyStore"),
    ("model", "my.model-1_a"), ("model", "m" * 255),
    ("environment", "my env"), ("environment", "env/with/slash"),
]
# (kind, name, v1's exception class)
REFUSED = [
    ("dataset", "", UserErrorException), ("dataset", "x\n", UserErrorException), ("dataset", "a\0b", UserErrorException),
    ("experiment", "my exp", UserErrorException), ("experiment", "-x", UserErrorException),
    ("experiment", "é", UserErrorException), ("experiment", "e" * 256, UserErrorException),
    ("experiment", "exp\n", UserErrorException),
    ("datastore", "my-store", UserErrorException), ("datastore", "my store", UserErrorException),
    ("datastore", "../x", UserErrorException),
    ("model", "my model", WebserviceException), ("model", "-m", WebserviceException),
    ("model", "m" * 256, WebserviceException), ("model", "m/x", WebserviceException),
    ("environment", 5, TypeError),
]
METRIC_NAMES = ["acc (%)", "loss/val", "Training loss", "a.b", "日本"]
TAGS = {"key with space": "v", "path/like": "x", "ünï": "ok"}


def use(kind: str, name, ws, tmp_path):
    """Do with ``name`` what v1 code does with a name of that kind; returns the name read back."""
    from acpt_estimator.v1.core.dataset import Dataset
    from acpt_estimator.v1.core.datastore import Datastore
    from acpt_estimator.v1.core.environment import Environment
    from acpt_estimator.v1.core.experiment import Experiment
    from acpt_estimator.v1.core.model import Model

    if kind == "dataset":
        ds = ws.get_default_datastore()
        Dataset.File.from_files(path=(ds, "d/**")).register(ws, name)
        assert name in Dataset.get_all(ws)
        return Dataset.get_by_name(ws, name).name
    if kind == "experiment":
        return Experiment(ws, name).name
    if kind == "datastore":
        Datastore.register_azure_blob_container(ws, name, "container", "account", account_key="a2V5")
        return Datastore.get(ws, name).name
    if kind == "model":
        path = tmp_path / "model.pt"
        path.write_text("w")
        Model.register(ws, str(path), name)
        return Model(ws, name).name
    if kind == "environment":
        env = Environment(name)
        env.python.user_managed_dependencies = True
        env.register(ws)
        return Environment.get(ws, name).name
    raise AssertionError(kind)


def outside(root) -> list:
    """What was written next to ``root`` (the store's folder) rather than inside it."""
    return sorted(p for p in os.listdir(os.path.dirname(root)) if p != os.path.basename(root))
