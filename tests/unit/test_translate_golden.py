"""Golden files pin each v1 estimator shape's v2 job; every job passes both SDK validations and round-trips."""

import os

import pytest
import yaml

from acpt_estimator.backends.azureml.translate import job_to_yaml, to_command
from acpt_estimator.job_runtime import INPUT_NAME, RUNTIME_DIR

from .golden_cases import CASES, SRC

GOLDEN = os.path.join(os.path.dirname(__file__), os.pardir, "data", "golden")
REGENERATE = os.environ.get("ACPT_REGENERATE_GOLDEN") == "1"


def _normalised(job, context_root) -> dict:
    data = yaml.safe_load(job_to_yaml(job))  # what users get from convert
    data["code"] = os.path.relpath(data["code"], os.path.abspath(SRC)).replace(".", "<source_directory>", 1)
    build = (data.get("environment") or {}).get("build") if isinstance(data.get("environment"), dict) else None
    if build:
        build["path"] = build["path"].replace(str(context_root), "<context_root>")
    runtime = (data.get("inputs") or {}).get(INPUT_NAME)
    if runtime:  # the installed package's folder: differs per machine
        runtime["path"] = os.path.relpath(runtime["path"], RUNTIME_DIR).replace(".", "<job_runtime>", 1)
    return data


@pytest.mark.parametrize("case", sorted(CASES))
def test_translation_matches_golden_file(case, tmp_path):
    job = to_command(CASES[case]().to_job_spec(experiment_name="golden"), context_root=tmp_path)._to_job()
    actual = _normalised(job, tmp_path)
    path = os.path.join(GOLDEN, f"{case}.yml")
    if REGENERATE:
        with open(path, "w", encoding="utf-8") as handle:
            yaml.safe_dump(actual, handle, sort_keys=False)
    with open(path, encoding="utf-8") as handle:
        assert actual == yaml.safe_load(handle), f"regenerate with ACPT_REGENERATE_GOLDEN=1 and review the diff of {path}"


@pytest.mark.parametrize("case", sorted(CASES))
def test_translated_job_round_trips_through_load_job(case, tmp_path):
    from azure.ai.ml import load_job

    node = to_command(CASES[case]().to_job_spec(experiment_name="golden"), context_root=tmp_path)
    job = node._to_job()
    path = tmp_path / "job.yml"
    path.write_text(job_to_yaml(job))
    loaded = load_job(str(path))
    assert loaded._validate().passed
    loaded._to_job()._validate()
    reloaded = loaded._to_job()
    assert reloaded.command == job.command
    assert reloaded.resources.instance_count == job.resources.instance_count
    assert type(reloaded.distribution) is type(job.distribution)
    assert {k: (v.path, v.mode) for k, v in (reloaded.inputs or {}).items()} == \
        {k: (v.path, v.mode) for k, v in (job.inputs or {}).items()}
    assert reloaded.environment_variables == job.environment_variables
