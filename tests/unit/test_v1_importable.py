"""Everything a v1 module exports imports from that module (tests/data/v1-importable.json, read from the v1 wheels).

Each module imports and has each of v1's names; a name v1 re-exported is the same object wherever it is
imported from; a name with no equivalent refuses when used, naming the v2 replacement; constants and enums keep
v1's values (the image constants name the images this project's translation uses).
"""

import importlib
import inspect
import json
import logging
import os
import re
import subprocess
import sys

import pytest

from acpt_estimator import environments
from acpt_estimator.exceptions import V1NotSupportedException
from acpt_estimator.v1._refusal import is_refusal

SURFACE = json.load(open(os.path.join(os.path.dirname(__file__), os.pardir, "data", "v1-importable.json")))
MODULES = sorted(SURFACE)
# v1 itself defines these names twice (runconfig's sections vs the data classes; the pipeline graph's own DataType
# and Module, and a pipeline run's RUNNING_STATES): two objects there too.
DISTINCT_IN_V1 = {"Dataset", "DataPath", "MountOptions", "UploadOptions", "DataType", "Module", "RUNNING_STATES"}


def _objects():
    found = {}
    for module in MODULES:
        for name in SURFACE[module]:
            found.setdefault(name, []).append((module, getattr(importlib.import_module(module), name)))
    return found


@pytest.mark.parametrize("module", MODULES)
def test_every_v1_name_imports_from_its_module_and_is_the_mirror_object(module):
    shim = importlib.import_module(module)
    mirror = importlib.import_module("acpt_estimator.v1." + module.removeprefix("azureml."))
    missing = [name for name in SURFACE[module] if not hasattr(shim, name)]
    assert not missing, f"{module} lacks {missing}"
    for name in SURFACE[module]:
        assert getattr(shim, name) is getattr(mirror, name), f"{module}.{name}"


def test_a_name_v1_re_exported_is_one_object_everywhere():
    for name, places in _objects().items():
        if name in DISTINCT_IN_V1:
            continue
        first_module, first = places[0]
        for module, value in places[1:]:
            assert value is first, f"{module}.{name} is not {first_module}.{name}"


def _refusing():
    seen = {}
    for name, places in _objects().items():
        for module, value in places:
            if is_refusal(value) and (inspect.isclass(value) or inspect.isfunction(value)):
                seen.setdefault(id(value), (f"{module}.{name}", value))
    return sorted(seen.values(), key=lambda item: item[0])


REFUSING = _refusing()


def test_there_are_refusing_names_to_check():
    assert len(REFUSING) > 100  # webservices, images, compute attach configs, databricks, datastores, ...


@pytest.mark.parametrize("where, value", REFUSING, ids=[w for w, _ in REFUSING])
def test_a_name_with_no_equivalent_refuses_when_used_naming_the_v2_replacement(where, value):
    name = where.rsplit(".", 1)[1]
    with pytest.raises(V1NotSupportedException) as refusal:
        value("an", argument=1)
    assert re.fullmatch(rf"{name}(\(\))? is not supported by acpt-estimator: .+ Use instead: \S.+",
                        refusal.value.message), refusal.value.message
    if inspect.isclass(value):  # v1's class-level factories refuse the same way
        with pytest.raises(V1NotSupportedException) as refusal:
            value.deploy_configuration(cpu_cores=1)
        assert refusal.value.message.startswith(f"{name}.deploy_configuration is not supported by acpt-estimator")


def test_image_constants_name_the_images_the_translation_uses():
    from azureml.core.environment import DEFAULT_CPU_IMAGE, DEFAULT_GPU_IMAGE
    from azureml.core.runconfig import MPI_CPU_IMAGE, MPI_GPU_IMAGE

    assert DEFAULT_CPU_IMAGE == MPI_CPU_IMAGE == environments.DEFAULT_CPU_IMAGE
    assert DEFAULT_GPU_IMAGE == MPI_GPU_IMAGE == environments.default_acpt().image
    request = environments.EnvironmentRequest(use_gpu=False)
    assert environments.resolve(request).image == DEFAULT_CPU_IMAGE


def test_constants_and_enums_keep_v1_values():
    from azureml.core.conda_dependencies import PIP, VERSION_REGEX
    from azureml.core.runconfig import LOCAL_RUNCONFIG_NAME, SUPPORTED_PYTORCH_BACKENDS
    from azureml.core.workspace import WORKSPACE_DEFAULT_BLOB_STORE_NAME
    from azureml.data.constants import MOUNT_MODE, ROLE_ID_OF_READER
    from azureml.data.dataset_type_definitions import FileType, HistogramCompareMethod
    from azureml.data.stored_procedure_parameter import StoredProcedureParameterType
    from azureml.train.hyperdrive.run import PrimaryMetricGoal
    from azureml.train.hyperdrive.runconfig import MAX_DURATION_MINUTES, TERMINAL_STATES

    assert (PIP, LOCAL_RUNCONFIG_NAME, SUPPORTED_PYTORCH_BACKENDS) == ("pip", "local", ["nccl", "gloo"])
    assert VERSION_REGEX.search("python=3.10.4").group() == "3.10.4"
    assert (WORKSPACE_DEFAULT_BLOB_STORE_NAME, MOUNT_MODE) == ("workspaceblobstore", "mount")
    assert ROLE_ID_OF_READER == "acdd72a7-3385-48ef-bd42-f606fba81ae7"
    assert (FileType.ZIP.value, HistogramCompareMethod.ENERGY.value) == ("Zip", 1)
    assert StoredProcedureParameterType.Guid.value == "Guid"
    assert PrimaryMetricGoal.MAXIMIZE.value == "MAXIMIZE"
    assert (MAX_DURATION_MINUTES, TERMINAL_STATES) == (10080, ["Canceled", "Completed", "Failed"])


def test_v1_exceptions_are_catchable_with_v1_hierarchy():
    from azureml.exceptions import AuthenticationException, UserErrorException, WebserviceException
    from azureml.train.hyperdrive.exceptions import (HyperDriveConfigException, HyperDriveException,
                                                     HyperDriveNotImplementedException)

    assert issubclass(AuthenticationException, UserErrorException)
    assert issubclass(HyperDriveNotImplementedException, HyperDriveConfigException)
    assert issubclass(HyperDriveConfigException, HyperDriveException)
    assert WebserviceException("gone", status_code=404).status_code == 404


def test_telemetry_activity_logs_to_the_given_logger_only(caplog):
    from azureml.telemetry.activity import log_activity, monitor_with_activity

    logger = logging.getLogger("v1_importable_test")

    @monitor_with_activity(logger, "train")
    def train():
        return 3

    with caplog.at_level(logging.INFO, logger="v1_importable_test"):
        assert train() == 3
        with pytest.raises(ValueError), log_activity(logger, "bad"):
            raise ValueError("x")
    messages = [r.getMessage() for r in caplog.records]
    assert messages[0] == "ActivityStarted, train"
    assert messages[1].startswith("ActivityCompleted: Activity=train, HowEnded=Success")
    assert "HowEnded=Failure" in messages[3] and messages[3].endswith("Exception=ValueError")


def test_new_logging_level_and_diagnostic_log(tmp_path):
    from azureml.core import diagnostic_log
    from azureml.core.util import NewLoggingLevel

    logger = logging.getLogger("azureml.v1_importable_test")
    logger.setLevel(logging.INFO)
    with NewLoggingLevel("azureml.v1_importable_test", logging.ERROR) as inside:
        assert inside.level == logging.ERROR
    assert logger.level == logging.INFO
    diagnosed = logging.getLogger("azureml.v1_importable_test_diagnosed")  # no level of its own: azureml's applies
    with diagnostic_log(str(tmp_path / "debug.log")):
        diagnosed.debug("captured line")
    diagnosed.debug("after the block")
    text = (tmp_path / "debug.log").read_text()
    assert "captured line" in text and "after the block" not in text


def test_urllib_request_works_after_import_azureml_core_without_importing_it_eagerly():
    code = ("import sys; import azureml.core; eager = 'urllib.request' in sys.modules; import urllib; "
            "print(eager, callable(urllib.request.urlopen), urllib.parse.quote('a b'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "a%20b"]
