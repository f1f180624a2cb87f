"""v1 ``azureml.pipeline.core.schedule``: recurring submissions of a published pipeline.

Local schedules (the store) do not fire by themselves: ``acpt-estimator schedules run-due`` (from cron, e.g. every
minute) submits each active schedule whose time has come. On an Azure ML workspace a schedule is a v2 JobSchedule
with a RecurrenceTrigger, fired by the service.
"""

from __future__ import annotations

import datetime

from acpt_estimator.services import services_for
from acpt_estimator.v1 import _params
from acpt_estimator.v1._refusal import refused
from acpt_estimator.v1.core.datastore import Datastore
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.pipeline.core.published_pipeline import PublishedPipeline
from acpt_estimator.v1.pipeline.core.run import PipelineRun

from ._time_zone import TimeZone


_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


class ScheduleRecurrence:
    """How often a schedule fires: ``frequency`` (Minute, Hour, Day, Week, Month) x ``interval``, optionally at
    ``hours``/``minutes`` on ``week_days``, from ``start_time`` in ``time_zone``."""

    def __init__(self, frequency, interval, start_time=None, time_zone=None, hours=None, minutes=None,
                 week_days=None, time_of_day=None):
        if time_of_day is not None:
            hour, _, minute = str(time_of_day).partition(":")
            hours, minutes = [int(hour)], [int(minute or 0)]
        if isinstance(start_time, str):
            start_time = datetime.datetime.fromisoformat(start_time)
        self.frequency, self.interval, self.start_time, self.time_zone = frequency, interval, start_time, time_zone
        self.hours, self.minutes, self.week_days, self.time_of_day = hours, minutes, week_days, time_of_day

    def validate(self):
        """v1's checks, with its messages."""
        if self.frequency not in ["Minute", "Hour", "Day", "Week", "Month"]:
            raise ValueError("Invalid value for frequency, only one of Minute, Hour, Day, Week, or Month accepted")
        if not isinstance(self.interval, int) or self.interval < 1:
            raise ValueError("Interval must be an integer greater than 0.")
        if self.frequency not in ["Day", "Week"] and self.hours is not None:
            raise ValueError("Can only specify hours if frequency is Week or Day.")
        if self.frequency not in ["Day", "Week"] and self.minutes is not None:
            raise ValueError("Can only specify minutes if frequency is Week or Day.")
        if self.frequency != "Week" and self.week_days is not None:
            raise ValueError("Can only specify week days if frequency is Week.")
        if any(h < 0 or h > 23 for h in self.hours or []):
            raise ValueError("Hours must be between 0 and 23.")
        if any(m < 0 or m > 59 for m in self.minutes or []):
            raise ValueError("Minutes must be between 0 and 59.")
        if any(d not in _DAYS for d in self.week_days or []):
            raise ValueError("Week days must be a list of str, accepted values: Monday, Tuesday, Wednesday, "
                             "Thursday, Friday, Saturday, Sunday.")
        if self.time_zone is not None and not isinstance(self.time_zone, TimeZone):
            raise ValueError("Time zone is not a valid TimeZone enum.")
        if self.start_time is not None and self.time_zone is None:
            raise ValueError("Must specify time_zone if start_time is provided.")

    def _to_dict(self, created: datetime.datetime) -> dict:
        start = self.start_time or created
        return {"frequency": self.frequency, "interval": self.interval, "start_time": start.isoformat(),
                "time_zone": self.time_zone.value if self.time_zone is not None else None, "hours": self.hours,
                "minutes": self.minutes, "week_days": self.week_days}

    @classmethod
    def _from_dict(cls, data: dict):
        zone = next((z for z in TimeZone if z.value == data.get("time_zone")), None)
        start = data.get("start_time")  # always set locally; a v2 schedule made elsewhere may have none
        return cls(data["frequency"], data["interval"], datetime.datetime.fromisoformat(start) if start else None,
                   zone, data.get("hours"), data.get("minutes"), data.get("week_days"))


class Schedule:
    """A recurring submission of a published pipeline (or a pipeline endpoint's default version)."""

    def __init__(self, workspace, id, name, description, pipeline_id, status, recurrence, datastore_name,
                 polling_interval, data_path_parameter_name, continue_on_step_failure, path_on_datastore,
                 _schedule_provider=None, pipeline_endpoint_id=None):
        self._workspace, self._id, self._name, self._description = workspace, id, name, description
        self._pipeline_id, self._status, self._recurrence = pipeline_id, status, recurrence
        self._datastore_name, self._polling_interval = datastore_name, polling_interval
        self._data_path_parameter_name, self._continue_on_step_failure = data_path_parameter_name, \
            continue_on_step_failure
        self._path_on_datastore, self._pipeline_endpoint_id = path_on_datastore, pipeline_endpoint_id

    @classmethod
    def _from_record(cls, record, workspace):
        return cls(workspace, record["id"], record["name"], record["description"], record.get("pipelineId"),
                   record["status"], ScheduleRecurrence._from_dict(record["recurrence"]), None, None, None,
                   record.get("continueOnStepFailure"), None, pipeline_endpoint_id=record.get("pipelineEndpoint"))

    id = property(lambda self: self._id)
    name = property(lambda self: self._name)
    description = property(lambda self: self._description)
    pipeline_id = property(lambda self: self._pipeline_id)
    pipeline_endpoint_id = property(lambda self: self._pipeline_endpoint_id)
    status = property(lambda self: self._status)
    recurrence = property(lambda self: self._recurrence)
    datastore_name = property(lambda self: self._datastore_name)
    polling_interval = property(lambda self: self._polling_interval)
    data_path_parameter_name = property(lambda self: self._data_path_parameter_name)
    continue_on_step_failure = property(lambda self: self._continue_on_step_failure)
    path_on_datastore = property(lambda self: self._path_on_datastore)

    @staticmethod
    def create(workspace, name, pipeline_id, experiment_name, recurrence=None, description=None,
               pipeline_parameters=None, wait_for_provisioning=False, wait_timeout=3600, datastore=None,
               polling_interval=5, data_path_parameter_name=None, continue_on_step_failure=None,
               path_on_datastore=None, _workflow_provider=None, _service_endpoint=None):
        """A schedule of published pipeline ``pipeline_id`` (local: run by ``acpt-estimator schedules run-due``)."""
        _params.check("Schedule.create", polling_interval=polling_interval, path_on_datastore=path_on_datastore,
                      data_path_parameter_name=data_path_parameter_name)
        del wait_for_provisioning  # local: in force once written; Azure ML: always waited for (wait_timeout)
        published = services_for(workspace).published_pipelines.get(pipeline_id)  # it must exist
        return Schedule._create(workspace, name, published, experiment_name, recurrence, description,
                                pipeline_parameters, datastore, continue_on_step_failure, wait_timeout)

    @staticmethod
    def create_for_pipeline_endpoint(workspace, name, pipeline_endpoint_id, experiment_name, recurrence=None,
                                     description=None, pipeline_parameters=None, wait_for_provisioning=False,
                                     wait_timeout=3600, datastore=None, polling_interval=5,
                                     data_path_parameter_name=None, continue_on_step_failure=None,
                                     path_on_datastore=None, _workflow_provider=None, _service_endpoint=None):
        """A schedule of the endpoint's default version (on Azure ML, the version that is the default now)."""
        _params.check("Schedule.create_for_pipeline_endpoint", polling_interval=polling_interval,
                      path_on_datastore=path_on_datastore, data_path_parameter_name=data_path_parameter_name)
        del wait_for_provisioning  # local: in force once written; Azure ML: always waited for (wait_timeout)
        services = services_for(workspace)
        endpoint = services.pipeline_endpoints.get(pipeline_endpoint_id)
        published = services.published_pipelines.get(endpoint["versions"][endpoint["defaultVersion"]])
        return Schedule._create(workspace, name, published, experiment_name, recurrence, description,
                                pipeline_parameters, datastore, continue_on_step_failure, wait_timeout,
                                endpoint_id=pipeline_endpoint_id, endpoint=endpoint)

    @staticmethod
    def _checked(workspace, experiment_name, recurrence, datastore):
        """v1's checks of a new schedule; datastore-polling schedules refuse (no v2 trigger watches a datastore)."""
        if datastore is not None or recurrence is None:
            from acpt_estimator.v1._refusal import refuse

            refuse("Schedule.create(datastore=...)", "schedules that poll a datastore for changed files were a v1 "
                   "service feature with no v2 trigger.", "a recurrence (ScheduleRecurrence) whose pipeline reads "
                   "the datastore path, or an Event Grid trigger outside Azure ML (a storage BlobCreated event "
                   "subscription that calls a function submitting the published pipeline)")
        if not isinstance(recurrence, ScheduleRecurrence):
            raise ValueError("recurrence must be a ScheduleRecurrence.")
        recurrence.validate()
        Experiment(workspace, experiment_name)  # v1's experiment-name rules

    @staticmethod
    def _create(workspace, name, published, experiment_name, recurrence, description, pipeline_parameters,
                datastore, continue_on_step_failure, wait_timeout, **endpoint):
        Schedule._checked(workspace, experiment_name, recurrence, datastore)
        created = services_for(workspace).schedules.create(
            name, published, experiment_name, recurrence._to_dict(datetime.datetime.now(datetime.timezone.utc)),
            description, pipeline_parameters, _values_of(pipeline_parameters), continue_on_step_failure,
            wait_timeout, **endpoint)
        return Schedule._from_record(created, workspace)

    @staticmethod
    def get(workspace, id, _workflow_provider=None, _service_endpoint=None):
        return Schedule._from_record(services_for(workspace).schedules.get(id), workspace)

    @staticmethod
    def list(workspace, active_only=True, pipeline_id=None, pipeline_endpoint_id=None, _workflow_provider=None,
             _service_endpoint=None):
        records = services_for(workspace).schedules.list(active_only)
        return [Schedule._from_record(r, workspace) for r in records
                if (not active_only or r["status"] == "Active")
                and (pipeline_id is None or r.get("pipelineId") == pipeline_id)
                and (pipeline_endpoint_id is None or r.get("pipelineEndpoint") == pipeline_endpoint_id)]

    @staticmethod
    def get_all(workspace, active_only=True, pipeline_id=None, pipeline_endpoint_id=None, _workflow_provider=None,
                _service_endpoint=None):
        return Schedule.list(workspace, active_only, pipeline_id, pipeline_endpoint_id)

    @staticmethod
    def get_schedules_for_pipeline_id(workspace, pipeline_id, _workflow_provider=None, _service_endpoint=None):
        return Schedule.list(workspace, active_only=False, pipeline_id=pipeline_id)

    @staticmethod
    def get_schedules_for_pipeline_endpoint_id(workspace, pipeline_endpoint_id, _workflow_provider=None,
                                               _service_endpoint=None):
        return Schedule.list(workspace, active_only=False, pipeline_endpoint_id=pipeline_endpoint_id)

    def update(self, name=None, description=None, recurrence=None, pipeline_parameters=None, status=None,
               wait_for_provisioning=False, wait_timeout=3600, datastore=None, polling_interval=None,
               data_path_parameter_name=None, continue_on_step_failure=None, path_on_datastore=None):
        _params.check("Schedule.update", polling_interval=polling_interval, path_on_datastore=path_on_datastore,
                      data_path_parameter_name=data_path_parameter_name)
        if datastore is not None:
            self._checked(None, None, None, datastore)  # refuses, as create does
        if status not in (None, "Active", "Disabled"):
            raise ValueError(f"status={status!r}: use 'Active' or 'Disabled'.")
        del wait_for_provisioning  # local: written at once; Azure ML: always waited for (within wait_timeout)
        if recurrence is not None:
            recurrence.validate()
            recurrence = recurrence._to_dict(datetime.datetime.now(datetime.timezone.utc))
        record = services_for(self._workspace).schedules.update(
            self._id, name, description, recurrence, pipeline_parameters, _values_of(pipeline_parameters), status,
            continue_on_step_failure, wait_timeout)
        self.__dict__.update(Schedule._from_record(record, self._workspace).__dict__)

    def _set_status(self, status, wait_timeout):
        record = services_for(self._workspace).schedules.set_enabled(self._id, status == "Active", wait_timeout)
        self.__dict__.update(Schedule._from_record(record, self._workspace).__dict__)

    def disable(self, wait_for_provisioning=False, wait_timeout=3600):
        del wait_for_provisioning  # local: written at once; Azure ML: always waited for (within wait_timeout)
        self._set_status("Disabled", wait_timeout)

    def enable(self, wait_for_provisioning=False, wait_timeout=3600):
        del wait_for_provisioning  # local: written at once; Azure ML: always waited for (within wait_timeout)
        self._set_status("Active", wait_timeout)

    def get_pipeline_runs(self):
        """The pipeline runs this schedule started, newest first."""
        experiment_name, run_ids = services_for(self._workspace).schedules.runs(self._id)
        experiment = Experiment(self._workspace, experiment_name)
        return [PipelineRun(experiment, run_id) for run_id in run_ids]

    def get_last_pipeline_run(self):
        runs = self.get_pipeline_runs()
        return runs[0] if runs else None

    load_yaml = refused("Schedule.load_yaml", "v1's schedule YAML has no v2 reader.",
                        "a v2 schedule YAML (az ml schedule create --file schedule.yml)")

    def __repr__(self):
        return f"Schedule(name={self._name!r}, id={self._id!r}, status={self._status!r})"


def _values_of(pipeline_parameters):
    """The parameter values of a published pipeline's spec for ``pipeline_parameters`` (DataPaths become inputs)."""
    from acpt_estimator.v1.pipeline.core._submit import parameter_values

    return lambda spec: parameter_values(spec, pipeline_parameters)


__all__ = ["Datastore", "Experiment", "PipelineRun", "PublishedPipeline", "Schedule", "ScheduleRecurrence",
           "TimeZone"]
