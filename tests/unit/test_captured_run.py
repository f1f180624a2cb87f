"""A run captured by `acpt-estimator convert` answers the whole Run protocol, so the rest of the driver runs on."""

from acpt_estimator.backends.capture import CapturedRun
from acpt_estimator.spec import JobSpec


class _Experiment:
    name = "convert-demo"


def test_captured_run_keeps_tags_and_properties_and_runs_nothing(tmp_path):
    (tmp_path / "train.py").write_text("print('hi')\n")
    spec = JobSpec(source_directory=str(tmp_path), entry_script="train.py")
    run = CapturedRun(_Experiment(), spec, str(tmp_path / "01-convert-demo.yml"))
    run.set_tags({"stage": "baseline", "epochs": 3})
    run.tag("owner", "ml-team")
    run.remove_tags(["stage"])
    run.add_properties({"dataset": "mnist"})
    assert run.get_tags() == {"epochs": "3", "owner": "ml-team"}
    assert run.properties["dataset"] == "mnist"
    assert run.get_details()["tags"] == {"epochs": "3", "owner": "ml-team"}
    assert list(run.get_children()) == [] and run.get_status() == "NotStarted"
    assert run.get_environment() is spec.environment
