"""v1 ParallelRunStep's runtime: split the inputs into mini-batches and run ``init()``/``run()`` in worker processes.

Ships inside jobs with the rest of ``job_runtime`` (standard library at import; pandas only for tabular inputs).
``python -m acpt_parallel.driver`` (or ``acpt_estimator.job_runtime.acpt_parallel.driver``) is the step's command.
"""
