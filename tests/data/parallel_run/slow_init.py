"""An entry script whose second worker is still in init() after the first has scored every mini-batch."""
import time

from azureml_user.parallel_run import EntryScript


def init():
    if EntryScript().agent_name != "process000":
        time.sleep(3)
    EntryScript().logger.info("init done")


def run(mini_batch):
    return [len(mini_batch)]
