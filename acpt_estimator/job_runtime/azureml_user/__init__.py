"""``azureml_user`` as v1's ParallelRunStep runtime provided it to entry scripts (see ``parallel_run``)."""
