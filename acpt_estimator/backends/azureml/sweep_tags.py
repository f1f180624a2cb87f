"""How a v2 sweep keeps v1's trial values: per-trial tags of the sweep run, and the v1 names of its parameters."""

from __future__ import annotations

PARAMETER_NAMES = "acpt.v1.parameter_names"


def trial_tag(sweep_tags: dict, trial_id: str):
    """A trial's values as the service tagged the sweep run: ``_aml_system_<trial id>``, older ``<trial id>``
    (azureml-train-core's HyperDriveRun.get_hyperparameters reads both)."""
    for key in (f"_aml_system_{trial_id}", trial_id):
        if key in sweep_tags:
            return sweep_tags[key]
    return None


def parameter_names(config) -> dict:
    """{v2 search-space name: the v1 name the user gave} (``'--batch-size'`` became ``batch_size``)."""
    from ...hyperdrive.sweep import input_name_for

    return {input_name_for(name): name for name in config._sampling.parameter_space}
