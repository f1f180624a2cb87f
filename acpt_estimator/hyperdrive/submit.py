"""Route a HyperDriveConfig to the capture, local or cloud backend."""

from __future__ import annotations

import importlib

from ..exceptions import HyperDriveConfigException


def submit_hyperdrive(config, experiment, backend: str, tags=None):
    if backend == "capture":
        from ..backends import capture
        from .sweep import to_sweep_job

        job = to_sweep_job(config, experiment_name=experiment.name, tags=tags, context_root=capture.environments_dir())
        return capture.write_job(job, config.trial_spec(experiment.name, tags), experiment)
    module = importlib.import_module(f"acpt_estimator.backends.{'local' if backend == 'local' else 'azureml'}")
    submit = getattr(module, "submit_sweep", None)
    if submit is None:
        raise HyperDriveConfigException(
            f"HyperDrive runs on the {backend} backend are not available in this version of acpt-estimator; "
            "export the sweep with acpt_estimator.to_v2_job(config) or `acpt-estimator convert`.")
    return submit(config, experiment, tags=tags)
