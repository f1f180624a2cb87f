"""The ``acpt-estimator`` command line: ``convert`` a v1 driver to v2 YAML, run drivers locally."""

from __future__ import annotations

import argparse
import os
import runpy
import sys

from . import target


def _run_driver(driver: str, driver_args: list[str]) -> None:
    """Run an unchanged driver script as ``__main__``, as ``python DRIVER.py args`` would."""
    if not os.path.isfile(driver):
        raise SystemExit(f"acpt-estimator: driver script {driver!r} does not exist.")
    sys.argv = [driver] + list(driver_args)
    sys.path.insert(0, os.path.dirname(os.path.abspath(driver)))
    runpy.run_path(driver, run_name="__main__")


def cmd_convert(args) -> int:
    out = os.path.abspath(args.out)
    os.environ[target.CAPTURE_VAR] = out
    from .backends import capture

    _run_driver(args.driver, args.driver_args)
    files = capture.written_files()
    if not files:
        print(f"acpt-estimator convert: {args.driver} submitted no job; nothing written.", file=sys.stderr)
        return 1
    print(f"acpt-estimator convert: {len(files)} job(s) written to {out}")
    return 0


def cmd_run(args) -> int:
    os.environ[target.TARGET_VAR] = "local"
    _run_driver(args.driver, args.driver_args)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="acpt-estimator", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    convert = sub.add_parser("convert", help="run a v1 driver with every Experiment.submit written as v2 YAML")
    convert.add_argument("driver", help="the unchanged v1 driver script (its own arguments go after --)")
    convert.add_argument("--out", required=True, help="folder for the v2 YAML files and environment contexts")
    convert.set_defaults(func=cmd_convert)
    run = sub.add_parser("run", help="run a v1 driver with every submission forced onto this machine")
    run.add_argument("driver", help="the unchanged v1 driver script (its own arguments go after --)")
    run.set_defaults(func=cmd_run)
    from .onnx.cli import add_onnx_subcommands

    add_onnx_subcommands(sub)
    from .horovod_build import add_horovod_subcommands

    add_horovod_subcommands(sub)
    from .pipelines.cli import add_schedule_subcommands

    add_schedule_subcommands(sub)
    return parser


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # Everything after the first "--" belongs to the driver script (convert/run), never to us.
    driver_args = argv[argv.index("--") + 1:] if "--" in argv else []
    args = build_parser().parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    args.driver_args = driver_args
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
