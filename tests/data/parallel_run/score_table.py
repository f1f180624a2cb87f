"""A v1 ParallelRunStep entry script over a tabular dataset: returns the DataFrame with a score column."""
from azureml_user.parallel_run import EntryScript


def init():
    EntryScript().logger.info("tabular init")


def run(mini_batch):
    EntryScript().logger.info("rows %d", len(mini_batch))
    result = mini_batch.copy()
    result["score"] = result["x"] * 2
    return result
