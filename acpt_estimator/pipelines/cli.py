"""``acpt-estimator schedules``: list local pipeline schedules and submit the ones that are due (call from cron)."""

from __future__ import annotations


def cmd_run_due(args) -> int:
    import os

    from . import schedules

    import datetime

    os.environ.setdefault("ACPT_ESTIMATOR_TARGET", "local")  # local schedules submit local pipelines
    now = None
    if args.now:
        now = datetime.datetime.fromisoformat(args.now)
        now = now if now.tzinfo else now.replace(tzinfo=datetime.timezone.utc)
    started = schedules.run_due(now=now)
    for name, run_id in started:
        print(f"schedule {name!r}: started pipeline run {run_id}")
    if not started:
        print("no schedule is due")
    return 0


def cmd_list(args) -> int:
    from . import schedules

    for record in schedules.all_schedules():
        print(f"{record['id']}  {record['status']:<8}  {record['name']}  every {record['recurrence']['interval']} "
              f"{record['recurrence']['frequency']}(s)  runs: {len(record['runs'])}")
    return 0


def add_schedule_subcommands(sub) -> None:
    schedules = sub.add_parser("schedules", help="local pipeline schedules (Schedule.create on a local workspace)")
    actions = schedules.add_subparsers(dest="action", required=True)
    run_due = actions.add_parser("run-due", help="submit every active schedule whose time has come and wait for "
                                                 "its pipeline (run it from cron, e.g. every minute)")
    run_due.add_argument("--now", help="the time to check against (ISO 8601, UTC unless it says otherwise); default: "
                                       "the current time")
    run_due.set_defaults(func=cmd_run_due)
    listing = actions.add_parser("list", help="the schedules of the local store ($ACPT_ESTIMATOR_HOME)")
    listing.set_defaults(func=cmd_list)
