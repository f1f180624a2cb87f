"""Golden files pin each v1 estimator shape's v2 job; every job passes both SDK validations and round-trips."""

import os

import pytest
import yaml

from acpt_estimator.backends.azureml.translate import job_to_yaml, to_command
from acpt_estimator.job_runtime import INPUT_NAME, RUNTIME_DIR

from .golden import check_golden
from .golden_cases import CASES, SRC



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
    check_golden(case, _normalised(job, tmp_path))


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
