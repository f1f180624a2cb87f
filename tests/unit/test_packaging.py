"""setup.cfg lists every package folder (acpt_estimator/ and the compat/azureml shims), so none is left out."""

import configparser
import os

from setuptools import find_namespace_packages

ROOT = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir)


def test_setup_cfg_lists_every_package():
    config = configparser.ConfigParser()
    config.read(os.path.join(ROOT, "setup.cfg"))
    listed = set(config["options"]["packages"].split())
    tree = set(find_namespace_packages(os.path.join(ROOT, "compat"), include=["azureml", "azureml.*"]))
    tree |= set(find_namespace_packages(ROOT, include=["acpt_estimator", "acpt_estimator.*"]))
    tree = {p for p in tree if not p.endswith("__pycache__")}
    assert listed == tree
