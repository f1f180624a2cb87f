"""When local schedules (``backends/local/schedule_store.py``) fire: ``run_due`` (what the ``acpt-estimator
schedules run-due`` command does; call it from cron) submits the ones whose time has come."""

from __future__ import annotations

import datetime as dt
import math
from types import SimpleNamespace

from ..exceptions import UserErrorException
from ..backends.local import published
from ..backends.local.schedule_store import all_schedules, published_for, save
from .windows_zones import WINDOWS_TO_IANA

UTC = dt.timezone.utc
_UNITS = {"Minute": dt.timedelta(minutes=1), "Hour": dt.timedelta(hours=1)}
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
def zone(name: str | None):
    from zoneinfo import ZoneInfo

    if name is None:
        return UTC
    if name not in WINDOWS_TO_IANA:
        raise UserErrorException(f"Time zone {name!r} is not one of v1's TimeZone values (Windows time zone names "
                                 "such as 'Pacific Standard Time'); pass a member of azureml.pipeline.core.schedule."
                                 "TimeZone, e.g. TimeZone.UTC.")
    return ZoneInfo(WINDOWS_TO_IANA[name])


def slots(recurrence: dict, after: dt.datetime, until: dt.datetime):
    """The times (UTC) the recurrence fires in (after, until]."""
    tz = zone(recurrence.get("time_zone"))
    start = dt.datetime.fromisoformat(recurrence["start_time"])
    anchor = (start if start.tzinfo else start.replace(tzinfo=tz)).astimezone(UTC)
    frequency, interval = recurrence["frequency"], int(recurrence["interval"])
    if frequency in _UNITS:
        period = _UNITS[frequency] * interval
        k = max(0, math.floor((after - anchor) / period) + 1)
        while anchor + k * period <= until:
            if anchor + k * period > after:
                yield anchor + k * period
            k += 1
        return
    if frequency == "Month":
        local = anchor.astimezone(tz)
        for k in range(0, 100000):
            month = local.month - 1 + k * interval
            year, month = local.year + month // 12, month % 12 + 1
            day = min(local.day, [31, 29 if year % 4 == 0 and (year % 100 or year % 400 == 0) else 28, 31, 30, 31,
                                  30, 31, 31, 30, 31, 30, 31][month - 1])
            moment = local.replace(year=year, month=month, day=day).astimezone(UTC)
            if moment > until:
                return
            if moment > after:
                yield moment
        return
    local_anchor = anchor.astimezone(tz)
    hours = recurrence.get("hours") or [local_anchor.hour]
    minutes = recurrence.get("minutes") or ([0] if recurrence.get("hours") else [local_anchor.minute])
    week_days = recurrence.get("week_days") or [_DAYS[local_anchor.weekday()]]
    day = max(local_anchor.date(), after.astimezone(tz).date() - dt.timedelta(days=8 * interval))
    while dt.datetime.combine(day, dt.time(), tz).astimezone(UTC) <= until:
        offset = (day - local_anchor.date()).days
        if frequency == "Day":
            fires = offset % interval == 0
        else:  # Week: every interval-th week counted from the anchor's week
            week = (offset + local_anchor.weekday()) // 7
            fires = week % interval == 0 and _DAYS[day.weekday()] in week_days
        if fires:
            for hour in sorted(hours):
                for minute in sorted(minutes):
                    moment = dt.datetime.combine(day, dt.time(hour, minute), tz).astimezone(UTC)
                    if after < moment <= until and moment >= anchor:
                        yield moment
        day += dt.timedelta(days=1)


def run_due(now: dt.datetime | None = None, store_home=None) -> list:
    """Submit every active schedule that fired since it last ran (once, however many times it fired: v1 did not
    catch up missed runs); returns [(schedule name, pipeline run id)]."""
    from .local import submit

    now = now or dt.datetime.now(UTC)
    started = []
    for record in all_schedules(store_home):
        if record["status"] != "Active":
            continue
        after = dt.datetime.fromtimestamp(record["lastFired"] or record["createdTime"], UTC)
        fired = list(slots(record["recurrence"], after, now))
        if not fired:
            continue
        target = published_for(record, store_home)
        if target["status"] != "Active":
            continue
        spec = published.spec_of(target)
        values = spec.parameter_values(record.get("pipelineParameters") or {})
        experiment = SimpleNamespace(name=record["experimentName"], workspace=None)
        run = submit(spec, experiment, values)
        record["lastFired"] = fired[-1].timestamp()
        record["runs"].append(run.id)
        save(record, store_home)  # before waiting: a second cron call must not start it again
        started.append((record["name"], run.id))
        run.wait()  # the pipeline runs in this process: it ends before the command returns
    return started
