"""The v1 object model, laid out like azureml's own modules (``v1/core/workspace.py`` is ``azureml.core.workspace``).

``compat/azureml/<path>`` re-exports ``acpt_estimator.v1.<path>``. The engine (job spec, translations, backends,
tracking, snapshot) lives outside this tree.
"""
