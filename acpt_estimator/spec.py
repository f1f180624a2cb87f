"""JobSpec: the frozen, backend-neutral description of one training job."""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping, Union

import attrs

from .job_checks import check_arguments, check_entry_script, check_environment_variables, check_shm_size, check_tags


def _frozen_map(value: Mapping | None) -> Mapping[str, str]:
    return MappingProxyType(dict(value or {}))


@attrs.frozen
class Literal:
    """A literal argv token. ``$VAR``/``${VAR}`` inside it is expanded by the job's shell, as in v1.

    ``expand=False`` for values that are data, not argument templates (a HyperDrive trial's sampled value: the
    cloud service pastes it into single quotes, so locally it must not be expanded either).
    """

    value: str
    expand: bool = True


@attrs.frozen
class InputRef:
    """An argv token that becomes the job-side path of the data input ``name``."""

    name: str


@attrs.frozen
class OutputRef:
    """An argv token that becomes the job-side path of the data output ``name``."""

    name: str


@attrs.frozen
class SearchRef:
    """An argv token that becomes a HyperDrive trial's sampled value of parameter ``name``."""

    name: str


ArgToken = Union[Literal, InputRef, OutputRef, SearchRef]


@attrs.frozen
class DataInput:
    """A data input: a datastore path or a dataset, with the mode the job sees it in.

    ``name`` is the v2 input name (a Python identifier); ``reference_name`` is v1's name, which
    scripts see as ``$AZUREML_DATAREFERENCE_<reference_name>`` or ``run.input_datasets[...]``.
    """

    name: str
    reference_name: str
    kind: str  # "datastore" | "dataset" | "local"
    mode: str  # "mount" | "download" | "direct"
    uri_type: str  # "uri_folder" | "uri_file"
    uri: str  # azureml://datastores/<ds>/paths/<p>, azureml:<name>:<version>, or a local path
    datastore: str | None = None
    path_on_datastore: str = ""
    dataset_name: str | None = None
    dataset_version: str | None = None
    definition: str = ""  # a dataset's JSON definition (type, paths under the input, steps, mode) for the job


@attrs.frozen
class DataOutput:
    """A data output the job writes to (v1 ``as_upload`` / output data references)."""

    name: str
    reference_name: str
    uri: str
    datastore: str | None = None
    path_on_datastore: str = ""  # may hold v1's {run-id} and {output-name}, filled in by each backend
    mode: str = "upload"  # "upload" (after the job) | "mount" (written in place)
    overwrite: bool = False  # upload: replace files already at the destination
    registration: str = ""  # JSON {name, description, tags, type, transformations}: register when the job completes


@attrs.frozen
class Distribution:
    """How many processes run where, and how they talk: one normalised form of all v1 spellings."""

    kind: str = "none"  # "none" | "mpi" | "pytorch"
    node_count: int = 1
    process_count_per_node: int = 1
    backend: str | None = None  # "gloo" | "nccl" for kind "pytorch"
    spelling: str = "none"  # what the user wrote, for messages: "distributed_backend='mpi'", "Mpi()", ...

    @property
    def world_size(self) -> int:
        return self.node_count * self.process_count_per_node


@attrs.frozen
class EnvironmentSpec:
    """Where the job runs: a curated/registered environment, an image, or a Dockerfile build.

    kind "curated": ``name`` (e.g. ``AzureML-acpt-pytorch-2.8-cuda12.6``) with ``version`` or ``label``.
    kind "registered": a workspace environment ``name`` with ``version`` or ``label``.
    kind "image": ``image`` plus an optional ``conda_file`` (YAML text).
    kind "build": ``dockerfile`` text plus ``context_files`` ((relative path, text), ...) for the context, or a
    user's build folder ``context_dir`` (its own Dockerfile when ``dockerfile`` is None).
    ``name``/``version`` of image/build kinds are content hashes, so equal inputs reuse one image.
    """

    kind: str
    name: str | None = None
    version: str | None = None
    label: str | None = None
    image: str | None = None
    conda_file: str | None = None
    dockerfile: str | None = None
    context_files: tuple = ()
    context_dir: str | None = None
    dockerfile_path: str = "Dockerfile"  # inside context_dir
    torch_version: str | None = None
    description: str = ""
    pip_packages: tuple = ()  # what the job asked pip for (pip_packages + requirements file), checked by local runs
    user_managed: bool = False  # nothing installed on top: the job checks at start that run.log(...) can reach the run


@attrs.frozen
class ComputeSpec:
    """Where the job is placed: a named cluster, serverless (``target=None``) or this machine."""

    target: str | None = None
    vm_size: str | None = None
    vm_priority: str | None = None  # "dedicated" | "lowpriority"

    @property
    def is_local(self) -> bool:
        return self.target == "local"


@attrs.frozen
class JobSpec:
    """Everything a backend needs to run one job; built by ``PyTorch.to_job_spec()`` with no I/O."""

    source_directory: str
    entry_script: str | None
    arguments: tuple = ()
    command: str | None = None  # ScriptRunConfig(command=...): replaces "python entry_script args"
    inputs: tuple = ()
    outputs: tuple = ()
    environment_variables: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen_map)
    distribution: Distribution = Distribution()
    environment: EnvironmentSpec = EnvironmentSpec(kind="curated")
    compute: ComputeSpec = ComputeSpec()
    max_run_duration_seconds: int | None = None
    shm_size: str | None = None
    experiment_name: str | None = None
    display_name: str | None = None
    tags: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen_map, validator=lambda _s, _a, value:
                                          check_tags(dict(value)))

    def __attrs_post_init__(self):
        # However the spec was built (estimator, ScriptRunConfig changed after construction, a sweep trial), what
        # reaches the processes is checked before a backend writes a run folder or a command.
        check_entry_script(self.entry_script)
        check_arguments([t.value for t in self.arguments if isinstance(t, Literal)])
        check_environment_variables(dict(self.environment_variables))
        check_shm_size(self.shm_size)

    def input_named(self, name: str) -> DataInput:
        for item in self.inputs:
            if item.name == name:
                return item
        raise KeyError(name)
