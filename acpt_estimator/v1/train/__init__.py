"""v1 ``azureml.train``: estimators and HyperDrive (configs, expressions, HyperDriveRun over a sweep handle).

May import the engine (spec, distribution, hyperdrive/) and backends; never imported by them.
"""
