"""The ``convert`` backend: each submission is written as native v2 YAML instead of being sent."""

from __future__ import annotations

import datetime
import os
import re
import uuid

import yaml

from ..run_handle import RunHandle
from ..target import capture_dir

_written: list[str] = []


def submit(spec, experiment) -> "CapturedRun":
    """Translate, validate and write ``<n>-<experiment>.yml`` (plus any environment build context)."""
    from .azureml import sdk
    from .azureml.translate import to_command

    job = sdk.to_job(to_command(spec, context_root=environments_dir()))
    return write_job(job, spec, experiment)


def submit_pipeline(spec, experiment, values: dict, regenerate_outputs: bool = False) -> "CapturedPipeline":
    """Translate a PipelineSpec to one v2 PipelineJob, validate it and write it as YAML."""
    from .azureml.pipeline_translate import to_pipeline_job

    job = to_pipeline_job(spec, values, context_root=environments_dir(), regenerate_outputs=regenerate_outputs)
    captured = write_job(job, _PipelineTarget(spec), experiment)
    return CapturedPipeline(spec, captured)


class _PipelineTarget:
    """What CapturedRun reads from a spec (compute target, environment) for a whole pipeline."""

    def __init__(self, spec):
        targets = [s.job.compute.target for s in spec.steps if s.job is not None]
        self.compute = type("Compute", (), {"target": targets[0] if targets else None})()
        self.environment = None


class CapturedPipeline:
    """The pipeline handle of a captured pipeline: nothing runs, every step reads NotStarted."""

    captured = True  # waiting on it returns at once, without an error

    def __init__(self, spec, captured):
        self.spec, self.captured = spec, captured

    @property
    def id(self):
        return self.captured.id

    def get_status(self):
        return "NotStarted"

    def wait(self, timeout=None):
        return True

    def cancel(self):
        return None

    def steps(self):
        return {s.name: {"displayName": s.display_name, "status": "NotStarted", "runId": None, "reused": False,
                         "outputs": {}} for s in self.spec.steps}

    def step_runs(self):
        return {}

    def outputs(self, node):
        return {}

    def all_outputs(self):
        return {}

    def error(self):
        return None

    def run(self, experiment):
        return self.captured


def environments_dir() -> str:
    return os.path.join(os.path.abspath(capture_dir()), "environments")


def write_job(job, spec, experiment) -> "CapturedRun":
    """Write an already translated v2 job (command or sweep) as YAML next to the others."""
    from .azureml.translate import job_to_yaml

    out_dir = os.path.abspath(capture_dir())
    os.makedirs(out_dir, exist_ok=True)
    data = yaml.safe_load(job_to_yaml(job))
    _make_paths_relative(data, out_dir)
    index = len([n for n in os.listdir(out_dir) if n.endswith(".yml")]) + 1
    name = f"{index:02d}-{re.sub(r'[^A-Za-z0-9_.-]', '-', experiment.name)}.yml"
    path = os.path.join(out_dir, name)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("# Written by acpt-estimator convert; submit with: az ml job create --file " + name + "\n")
        yaml.safe_dump(data, handle, sort_keys=False)
    _written.append(path)
    print(f"acpt-estimator convert: wrote {path}")
    return CapturedRun(experiment, spec, path)


def _make_paths_relative(data: dict, out_dir: str) -> None:
    """load_job resolves paths against the YAML's folder, so relative paths keep the export movable."""
    if isinstance(data.get("trial"), dict):  # sweep jobs keep code and environment in the trial
        _make_paths_relative(data["trial"], out_dir)
    for node in (data.get("jobs") or {}).values():  # pipeline nodes and their components
        _make_paths_relative(node, out_dir)
    if isinstance(data.get("component"), dict):
        _make_paths_relative(data["component"], out_dir)
    if isinstance(data.get("code"), str) and os.path.isabs(data["code"]):
        data["code"] = os.path.relpath(data["code"], out_dir)
    build = (data.get("environment") or {}).get("build") if isinstance(data.get("environment"), dict) else None
    if build and os.path.isabs(build.get("path", "")):
        build["path"] = os.path.relpath(build["path"], out_dir)
    for item in (data.get("inputs") or {}).values():
        path = item.get("path") if isinstance(item, dict) else None
        if isinstance(path, str) and os.path.isabs(path) and os.path.exists(path):
            item["path"] = os.path.relpath(_exported_folder(path, out_dir), out_dir)


def _exported_folder(path: str, out_dir: str) -> str:
    """The job runtime lives inside the installed package: copy it next to the YAML so the export stands alone."""
    from ..job_runtime import RUNTIME_DIR
    from ..snapshot import copy_snapshot

    if os.path.realpath(path) != os.path.realpath(RUNTIME_DIR):
        return path
    target = os.path.join(out_dir, "acpt_job_runtime")
    if not os.path.isdir(target):
        copy_snapshot(RUNTIME_DIR, target)  # honours its .amlignore (no bytecode)
    return target


def written_files() -> list[str]:
    return list(_written)


class CapturedRun(RunHandle):
    """Stands in for a run that was written to YAML (v1 wraps it in a ScriptRun), so the driver runs on unchanged."""

    def __init__(self, experiment, spec, yaml_path):
        self._experiment = experiment
        self._spec = spec
        self.yaml_path = yaml_path
        self._id = f"{experiment.name}_{int(datetime.datetime.now().timestamp())}_{uuid.uuid4().hex[:8]}"
        # Tags and properties set by the driver are kept in memory: nothing runs, but later driver lines still read them.
        self._tags: dict = {}
        self._properties: dict = {"acpt_estimator.captured_to": yaml_path}

    @property
    def id(self):
        return self._id

    def get_status(self):
        return "NotStarted"

    def get_details(self):
        return {"runId": self._id, "target": self._spec.compute.target, "status": "NotStarted",
                "properties": dict(self._properties), "tags": dict(self._tags), "logFiles": {}}

    def wait_for_completion(self, show_output=False, wait_post_processing=False, raise_on_error=True):
        if show_output:
            print(f"RunId: {self._id}\n(captured to {self.yaml_path}; not run)")
        return self.get_details()

    def get_metrics(self, name=None):
        return {}

    def get_file_names(self):
        return []

    def download_file(self, name, output_file_path=None, _validate_checksum=False):
        print(f"(captured run: nothing to download for {name})")

    def download_files(self, prefix=None, output_directory=None, output_paths=None, batch_size=100,
                       append_prefix=True, timeout_seconds=None):
        return None

    def register_model(self, model_name, model_path=None, tags=None, properties=None, model_framework=None,
                       model_framework_version=None, description=None, datasets=None, sample_input_dataset=None,
                       sample_output_dataset=None, resource_configuration=None, **kwargs):
        print(f"(captured run: model {model_name!r} would be registered from {model_path or model_name})")
        return None

    def cancel(self):
        return None

    def get_children(self, recursive=False, tags=None, properties=None, type=None, status=None,
                     _rehydrate_runs=True):
        return iter(())

    def get_tags(self) -> dict:
        return dict(self._tags)

    def set_tags(self, tags) -> None:
        self._tags.update({k: str(v) if v is not None else "" for k, v in dict(tags).items()})

    def remove_tags(self, tags) -> None:
        for key in tags:
            self._tags.pop(key, None)

    @property
    def properties(self) -> dict:
        return dict(self._properties)

    def add_properties(self, properties) -> None:
        self._properties.update({k: str(v) for k, v in dict(properties).items()})

    def upload_file(self, name, path_or_stream, datastore_name=None):
        print(f"(captured run: {name} would be uploaded; not run)")

    def upload_folder(self, name, path, datastore_name=None):
        print(f"(captured run: folder {name} would be uploaded; not run)")

    def get_environment(self):
        return self._spec.environment

    def get_portal_url(self):
        return "file://" + self.yaml_path
