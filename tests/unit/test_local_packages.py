"""Local runs name the job's pip packages this environment lacks, with the pip command to add them."""

from acpt_estimator import PyTorch
from acpt_estimator.backends.local.packages import missing_packages, warn_missing
from acpt_estimator.spec import EnvironmentSpec

from .golden_cases import SRC


def test_missing_and_mismatched_requirements_are_named():
    assert missing_packages(["attrs", "PyYAML>=5", "--extra-index-url https://x", "no-such-package-xyz==1.0",
                             "attrs<1"]) == ["no-such-package-xyz==1.0", f"attrs<1 (installed: {__import__('attrs').__version__})"]


def test_a_job_with_unavailable_pip_packages_warns(caplog):
    spec = PyTorch(SRC, compute_target="local", entry_script="train.py",
                   pip_packages=["tqdm", "no-such-package-xyz"]).to_job_spec()
    assert warn_missing(spec.environment) == ["no-such-package-xyz"]
    assert "pip install no-such-package-xyz" in caplog.text


def test_the_suggested_pip_line_quotes_each_requirement(caplog, tmp_path):
    import shlex
    import subprocess

    marker = tmp_path / "ran"
    hostile = f"no-such-package-xyz'$(touch {marker})"  # repr() would pick double quotes: $(...) ran
    # The estimator refuses it now (package_specs); the suggested line must stay inert for any stored spec.
    environment = EnvironmentSpec(kind="image", name="x", image="python:3.11",
                                  pip_packages=(hostile, "no-such-package-abc>=1,<2"))
    warn_missing(environment)
    line = caplog.text.split("Install them with: ", 1)[1].strip()
    assert shlex.split(line) == ["pip", "install", hostile, "no-such-package-abc>=1,<2"]
    subprocess.run(["bash", "-c", "echo " + line], check=True, capture_output=True)  # pasting it runs nothing
    assert not marker.exists()
