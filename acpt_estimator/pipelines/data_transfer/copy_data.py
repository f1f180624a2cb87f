"""Copy --source (a folder or a file) into --destination (a folder); standard library only, runs inside jobs."""

import argparse
import os
import shutil


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--source", required=True)
    parser.add_argument("--destination", required=True)
    args = parser.parse_args(argv)
    os.makedirs(args.destination, exist_ok=True)
    if os.path.isdir(args.source):
        shutil.copytree(args.source, args.destination, dirs_exist_ok=True)
    else:
        shutil.copy2(args.source, os.path.join(args.destination, os.path.basename(args.source)))
    count = sum(len(files) for _, _, files in os.walk(args.destination))
    print(f"Copied {args.source} to {args.destination} ({count} file(s) there now)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
