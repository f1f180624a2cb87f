"""HyperDrive engine: v2 sweep translation, the local sweep scheduler and its samplers and early termination.

Owns: sweep semantics (sampling, policies, results). May import: the engine and backends; never acpt_estimator.v1
(a HyperDriveConfig is read through its attributes; policies and samplings by their v1 names, POLICY_NAME and
SAMPLING_NAME).
"""
