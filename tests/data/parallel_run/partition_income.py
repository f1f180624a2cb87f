"""v1's partition-per-column recipe: a registered model read in init(), EntryScript logging, mini_batch_context."""
import argparse

from azureml.core.model import Model
from azureml_user.parallel_run import EntryScript


def init():
    global factor
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name", required=True)
    args, _ = parser.parse_known_args()
    with open(Model.get_model_path(args.model_name)) as handle:
        factor = float(handle.read())
    EntryScript().logger.info("model %s gives factor %s", args.model_name, factor)


def run(mini_batch, mini_batch_context):
    EntryScript().logger.info("partition %s, mini-batch %d", mini_batch_context.partition_key_value,
                              mini_batch_context.minibatch_index)
    assert len(mini_batch_context.dataset.to_pandas_dataframe()) == len(mini_batch)
    mini_batch["total_income"] = mini_batch["INCOME"].sum() * factor
    return mini_batch
