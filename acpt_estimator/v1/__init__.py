"""The v1 object model, laid out like azureml's own modules (``v1/core/workspace.py`` is ``azureml.core.workspace``).

``compat/azureml/<path>`` re-exports ``acpt_estimator.v1.<path>``. Owns what users touch: v1 classes validate like
v1, turn themselves into the engine's neutral specs (JobSpec; data objects' ``to_input_spec()``/``to_output_spec()``),
call the engine/backends, and wrap what comes back (run handles -> ``Run``/``ScriptRun``/``HyperDriveRun``, model
records -> ``Model``). May import: anything in acpt_estimator; nothing outside this tree imports it (but the public
door and compat/).
"""
