"""An entry script whose second worker is still in init() after the first has scored every mini-batch."""
import os
import time

from azureml_user.parallel_run import EntryScript


def init():
    if EntryScript().agent_name != "process000":
        time.sleep(float(os.environ.get("SLOW_INIT_SECONDS", "3")))
    EntryScript().logger.info("init done")


def run(mini_batch):
    EntryScript().logger.info("scored %d", len(mini_batch))
    return [len(mini_batch)]
