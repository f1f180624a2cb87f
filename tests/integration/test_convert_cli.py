"""`acpt-estimator convert` runs an unchanged v1 driver offline and writes loadable v2 YAML per submission."""

import os
import shutil
import subprocess
import sys

from azure.ai.ml import load_job

DRIVER_DIR = os.path.join(os.path.dirname(__file__), os.pardir, "data", "convert_driver")


def test_convert_writes_one_loadable_yaml_per_submit(tmp_path):
    work = tmp_path / "project"
    shutil.copytree(DRIVER_DIR, work)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AZURE_", "ACPT_ESTIMATOR"))}
    out = subprocess.run([sys.executable, "-m", "acpt_estimator.cli", "convert", "driver.py", "--out", "v2"],
                         cwd=work, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "2 job(s) written" in out.stdout and "metrics {}" in out.stdout
    files = sorted(p for p in os.listdir(work / "v2") if p.endswith(".yml"))
    assert files == ["01-convert-demo.yml", "02-convert-demo.yml"]
    jobs = [load_job(str(work / "v2" / name)) for name in files]
    assert [type(j.distribution).__name__ for j in jobs] == ["MpiDistribution", "PyTorchDistribution"]
    for job in jobs:
        assert job._validate().passed
        assert os.path.samefile(os.path.join(work / "v2", job.code), work / "src")  # relative to the YAML
        assert "--data ${{inputs.mnist}}" not in job.command  # uuid-named input, see below
        assert "azureml://datastores/workspaceblobstore/paths/mnist/" in [i.path for i in job.inputs.values()]
    # The MPI job ships the job runtime (Horovod layer): exported next to the YAML, so the folder stands alone.
    runtime = jobs[0].inputs["acpt_job_runtime"].path
    assert os.path.samefile(os.path.join(work / "v2", runtime), work / "v2" / "acpt_job_runtime")
    assert os.path.isfile(work / "v2" / "acpt_job_runtime" / "horovod" / "__init__.py")
    # The pip package makes a Dockerfile build context next to the YAML, shared by both jobs (same content).
    contexts = os.listdir(work / "v2" / "environments")
    assert len(contexts) == 1
    assert "RUN pip install --no-cache-dir tqdm" in (work / "v2" / "environments" / contexts[0] / "Dockerfile").read_text()


def test_convert_without_config_fails_with_instructions(tmp_path):
    shutil.copytree(DRIVER_DIR, tmp_path / "p")
    os.remove(tmp_path / "p" / "config.json")
    out = subprocess.run([sys.executable, "-m", "acpt_estimator.cli", "convert", "driver.py", "--out", "v2"],
                         cwd=tmp_path / "p", capture_output=True, text=True, timeout=120)
    assert out.returncode != 0
    assert "config.json, could not be found" in out.stderr and "Download it from the Azure ML studio" in out.stderr


def test_arguments_after_double_dash_reach_the_driver(tmp_path):
    (tmp_path / "d.py").write_text("import sys; print('argv', sys.argv[1:])\n")
    out = subprocess.run([sys.executable, "-m", "acpt_estimator.cli", "run", "d.py", "--", "--epochs", "3"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "argv ['--epochs', '3']" in out.stdout


def test_convert_writes_a_v1_pipeline_as_one_loadable_pipeline_job(tmp_path):
    work = tmp_path / "pipeline"
    shutil.copytree(os.path.join(DRIVER_DIR, os.pardir, "convert_pipeline"), work)
    shutil.copytree(os.path.join(DRIVER_DIR, os.pardir, "pipeline_steps"), work / "src")  # the steps' scripts
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AZURE_", "ACPT_ESTIMATOR"))}
    out = subprocess.run([sys.executable, "-m", "acpt_estimator.cli", "convert", "driver.py", "--out", "v2"],
                         cwd=work, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "status NotStarted" in out.stdout
    (name,) = [p for p in os.listdir(work / "v2") if p.endswith(".yml")]
    job = load_job(str(work / "v2" / name))
    assert type(job).__name__ == "PipelineJob" and job._validate().passed
    assert sorted(job.jobs) == ["prep", "train"] and job.inputs["rows"]._data == 7  # the submitted value
    train = job.jobs["train"]
    assert train.inputs["prepared"]._data.path == "${{parent.jobs.prep.outputs.prepared}}"
    assert os.path.samefile(os.path.join(work / "v2", train.component.code), work / "src")
