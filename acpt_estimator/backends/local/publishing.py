"""The local store's publishing services (``acpt_estimator.services``): published pipelines, pipeline endpoints
and schedules as JSON files (``published.py``, ``schedule_store.py``); local schedules fire through
``acpt-estimator schedules run-due``."""

from __future__ import annotations

import os
import time

from . import published as store
from . import schedule_store


class LocalPublishedPipelines:
    def publish(self, spec, name, description, version, continue_on_step_failure) -> dict:
        return store.publish(spec, name, description, version, continue_on_step_failure)

    def get(self, published_id) -> dict:
        return store.get(published_id)

    def list(self, active_only=True) -> list:
        return store.all_published()

    def set_status(self, published_id, status) -> dict:
        return store.set_status(published_id, status)

    def spec(self, record):
        return store.spec_of(record)

    def endpoint(self, published_id, component_id) -> str:
        """The store file of the published pipeline (v1's REST URL has no local counterpart)."""
        from .store import file_uri, home

        return file_uri(f"{home()}/published/{published_id}.json")

    def submit(self, record, experiment, values, continue_on_step_failure):
        """Run the published spec again (its steps' snapshots are taken now, from their folders)."""
        import attrs

        from ...pipelines.dispatch import submit_spec

        spec = attrs.evolve(store.spec_of(record), experiment_name=experiment.name,
                            continue_on_step_failure=bool(continue_on_step_failure),
                            tags={"azureml.pipelineid": record["id"]})
        return submit_spec(spec, experiment, values, False)


class LocalPipelineEndpoints:
    """Records as the store keeps them, plus ``id`` (the name) and ``endpoint`` (the store file)."""

    def _shown(self, record) -> dict:
        from .store import file_uri

        return dict(record, id=record["name"], endpoint=file_uri(store.endpoint_path(record["name"])))

    def _stored(self, name) -> dict:
        record = store.get_endpoint(name)
        if record is None:
            raise ValueError(f"No pipeline endpoint {name!r} in the local store.")
        return record

    def _save(self, record) -> dict:
        store.save_endpoint(record)
        return self._shown(record)

    def publish(self, name, description, published_id) -> dict:
        if store.get_endpoint(name) is not None:
            raise ValueError(f"Pipeline endpoint {name!r} already exists; add versions with "
                             "PipelineEndpoint.get(ws, name=...).add_default(published_pipeline).")
        return self._save({"name": name, "description": description, "status": "Active", "defaultVersion": "0",
                           "versions": {"0": published_id}, "createdTime": time.time()})

    def get(self, name) -> dict:
        return self._shown(self._stored(name))

    def list(self) -> list:
        return [self._shown(r) for r in store.all_endpoints()]

    def add(self, name, published_id, make_default) -> dict:
        record = self._stored(name)
        version = str(max(int(v) for v in record["versions"]) + 1)
        record["versions"][version] = published_id
        if make_default:
            record["defaultVersion"] = version
        return self._save(record)

    def set_default(self, name, version) -> dict:
        record = self._stored(name)
        record["defaultVersion"] = str(version)
        return self._save(record)

    def rename(self, name, new_name) -> dict:
        record = self._stored(name)
        store.endpoint_path(new_name)  # the new name is checked first
        os.unlink(store.endpoint_path(name))
        record["name"] = new_name
        return self._save(record)

    def set_status(self, name, status) -> dict:
        record = self._stored(name)
        record["status"] = status
        return self._save(record)

    def submit(self, record, version, published, experiment, values):
        """The version's published pipeline, run again as ``PublishedPipeline.submit`` does."""
        return LocalPublishedPipelines().submit(published, experiment, values, published["continueOnStepFailure"])


class LocalSchedules:
    """Schedules in the store: in force once written (nothing to wait for); parameters are kept as given and
    checked when the schedule fires."""

    def create(self, name, published, experiment_name, recurrence, description, pipeline_parameters, values_of,
               continue_on_step_failure, wait_timeout, endpoint_id=None, endpoint=None) -> dict:
        target = {"pipelineEndpoint": endpoint_id} if endpoint_id else {"pipelineId": published["id"]}
        return schedule_store.create({"name": name, "description": description, "experimentName": experiment_name,
                                      "recurrence": recurrence, "pipelineParameters": dict(pipeline_parameters or {}),
                                      "continueOnStepFailure": continue_on_step_failure, **target})

    def get(self, schedule_id) -> dict:
        return schedule_store.get(schedule_id)

    def list(self, active_only=True) -> list:
        return schedule_store.all_schedules()

    def update(self, schedule_id, name, description, recurrence, pipeline_parameters, values_of, status,
               continue_on_step_failure, wait_timeout) -> dict:
        fields = {"name": name, "description": description, "status": status, "recurrence": recurrence,
                  "continueOnStepFailure": continue_on_step_failure,
                  "pipelineParameters": dict(pipeline_parameters) if pipeline_parameters is not None else None}
        return self._write(schedule_id, fields)

    def set_enabled(self, schedule_id, enabled, wait_timeout) -> dict:
        return self._write(schedule_id, {"status": "Active" if enabled else "Disabled"})

    def runs(self, schedule_id) -> tuple:
        """(the experiment's name, the ids of the pipeline runs the schedule started, newest first)."""
        record = schedule_store.get(schedule_id)
        return record["experimentName"], list(reversed(record["runs"]))

    def _write(self, schedule_id, fields) -> dict:
        record = schedule_store.get(schedule_id)
        record.update({k: v for k, v in fields.items() if v is not None})
        schedule_store.save(record)
        return record
