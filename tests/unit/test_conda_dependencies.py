"""v1 ``CondaDependencies`` as the v1 docs use it: load a file, create, edit, save; the YAML is what a job gets."""

import os

import pytest
import yaml

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.v1.core.conda_dependencies import CondaDependencies

CONDA_FILE = """name: myenv
channels:
  - conda-forge
dependencies:
  - python=3.10
  - numpy=1.26
  - pip
  - pip:
    - --extra-index-url https://my.feed/simple
    - scikit-learn==1.5.0
    - pandas
"""


@pytest.fixture
def conda_file(tmp_path):
    path = tmp_path / "conda.yml"
    path.write_text(CONDA_FILE)
    return str(path)


def test_file_path_constructor_reads_every_section(conda_file):
    cd = CondaDependencies(conda_file)
    assert list(cd.conda_channels) == ["conda-forge"]
    assert list(cd.conda_packages) == ["python=3.10", "numpy=1.26", "pip"]
    assert list(cd.pip_packages) == ["scikit-learn==1.5.0", "pandas"]
    assert list(cd.pip_options) == ["--extra-index-url https://my.feed/simple"]
    assert cd.get_python_version() == "3.10"


def test_default_object_carries_what_jobs_need_to_log_like_v1_azureml_defaults():
    cd = CondaDependencies()
    assert list(cd.pip_packages) == ["mlflow-skinny", "azureml-mlflow"]
    assert cd.get_python_version() == "3.10"
    assert cd.get_default_number_of_packages() == (1, 2)


def test_create_replaces_default_pip_packages_and_adds_conda_ones():
    cd = CondaDependencies.create(pip_packages=["torchvision", "pillow==9.2.0"], conda_packages=["scipy"],
                                  python_version="3.11")
    assert list(cd.pip_packages) == ["torchvision", "pillow==9.2.0"]
    assert list(cd.conda_packages) == ["python=3.11", "scipy"]
    plain = CondaDependencies.create()
    assert list(plain.pip_packages) == ["mlflow-skinny", "azureml-mlflow"]


def test_create_with_index_url_adds_v1_pip_options():
    cd = CondaDependencies.create(pip_indexurl="https://feed/simple", pip_packages=["x"])
    assert list(cd.pip_options) == ["--find-links https://feed/simple",
                                    "--extra-index-url https://pypi.python.org/simple"]


def test_edits_after_construction_are_in_the_serialized_file(conda_file):
    cd = CondaDependencies(conda_file)
    cd.add_pip_package("pillow==9.2.0")
    cd.add_pip_package("pandas==2.2.0")  # replaces the unpinned entry, moved to the end as v1 does
    cd.remove_pip_package("scikit-learn")
    cd.add_conda_package("scipy")
    cd.remove_conda_package("numpy=1.26")
    cd.add_channel("pytorch")
    cd.remove_channel("conda-forge")
    cd.set_pip_option("--extra-index-url https://other/simple")
    cd.set_python_version("3.11")
    data = yaml.safe_load(cd.serialize_to_string())
    assert data["channels"] == ["pytorch"]
    assert [d for d in data["dependencies"] if isinstance(d, str)] == ["python=3.11", "pip", "scipy"]
    assert next(d for d in data["dependencies"] if isinstance(d, dict))["pip"] == [
        "--extra-index-url https://other/simple", "pillow==9.2.0", "pandas==2.2.0"]
    cd.remove_pip_option("--extra-index-url")
    assert list(cd.pip_options) == []
    assert cd.as_dict() == yaml.safe_load(cd.serialize_to_string())


def test_set_pip_requirements_replaces_the_pip_section():
    cd = CondaDependencies()
    cd.set_pip_requirements(["-i https://feed/simple", "requests>=2"])
    assert list(cd.pip_packages) == ["requests>=2"] and list(cd.pip_options) == ["-i https://feed/simple"]


def test_save_and_reload_round_trip(tmp_path, conda_file):
    cd = CondaDependencies(conda_file)
    cd.add_pip_package("tqdm")
    path = str(tmp_path / "out" / "env.yml")
    os.makedirs(os.path.dirname(path))
    assert cd.save(path) == path
    assert CondaDependencies(path) == cd
    assert b"\r\n" not in open(path, "rb").read()
    rel = cd.save_to_file(str(tmp_path))
    assert rel == ".azureml/auto_conda_dependencies.yml" and os.path.isfile(tmp_path / rel)


def test_framework_helpers_replace_earlier_versions():
    cd = CondaDependencies()
    cd.add_tensorflow_pip_package(version="2.15.0")
    cd.add_tensorflow_pip_package(core_type="gpu")
    cd.add_cntk_package()
    cd.add_tensorflow_conda_package(version="2.10")
    assert [p for p in cd.pip_packages if p.startswith(("tensorflow", "cntk"))] == ["tensorflow-gpu==2.2.0",
                                                                                   "cntk==2.7"]
    assert "tensorflow=2.10" in list(cd.conda_packages)


def test_merge_requirements_and_sdk_origin():
    assert CondaDependencies.merge_requirements(["a>1", "b", "a<3"]) == ["a>1,<3", "b"]
    assert CondaDependencies.sdk_origin_url() == "https://pypi.python.org/simple"


@pytest.mark.parametrize("call, words", [
    (lambda cd: cd.remove_conda_package("python=3.10"), "python must not be removed"),
    (lambda cd: cd.add_pip_package("--upgrade"), "set_pip_option"),
    (lambda cd: cd.set_pip_option("numpy"), "add_pip_package"),
    (lambda cd: cd.add_cntk_package("tpu"), "Only accept 'cpu' or 'gpu'"),
    (lambda cd: cd.set_pip_requirements("numpy\npandas"), "list of lines"),
    (lambda cd: cd.add_conda_package(""), "conda_package=''"),
])
def test_bad_edits_say_what_to_do(call, words):
    with pytest.raises(UserErrorException, match=words):
        call(CondaDependencies())


def test_bad_files_and_paths_are_named(tmp_path):
    with pytest.raises(UserErrorException, match="no such file"):
        CondaDependencies(str(tmp_path / "missing.yml"))
    (tmp_path / "bad.yml").write_text("name: x\nbuild: 1\n")
    with pytest.raises(UserErrorException, match="unknown build key"):
        CondaDependencies(str(tmp_path / "bad.yml"))
    with pytest.raises(UserErrorException, match="directory"):
        CondaDependencies().save(str(tmp_path))
    with pytest.raises(UserErrorException, match="does not exist"):
        CondaDependencies().save(str(tmp_path / "nope" / "env.yml"))
    no_python = CondaDependencies(_underlying_structure={"name": "x", "dependencies": ["numpy"]})
    with pytest.raises(UserErrorException, match="Python package is missing"):
        no_python.save(str(tmp_path / "env.yml"))
