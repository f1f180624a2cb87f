"""A v1 ParallelRunStep entry script over a file dataset: EntryScript's logger, argparse arguments, one line per file."""
import argparse
import os

from azureml_user.parallel_run import EntryScript


def init():
    global prefix
    parser = argparse.ArgumentParser()
    parser.add_argument("--prefix", required=True)
    prefix = parser.parse_known_args()[0].prefix
    EntryScript().logger.info("init with prefix %s", prefix)


def run(mini_batch):
    EntryScript().logger.info("run over %d files", len(mini_batch))
    print(f"scoring {len(mini_batch)} files")
    return [f"{prefix}:{os.path.basename(path)}:{os.path.getsize(path)}" for path in mini_batch]
