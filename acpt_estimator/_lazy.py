"""PEP 562 lazy names for package namespaces: a name's module is imported on first use, then cached."""

import importlib
import sys


def lazy_names(package: str, names: dict, shown_as: str | None = None):
    """``(__getattr__, __dir__)`` for ``package``.

    ``names`` maps each name to the module defining it: a submodule of ``package`` (``'run'``), or an absolute
    ``acpt_estimator...`` module. ``shown_as`` is the module name errors use (a shim's v1 name, e.g. 'azureml.core').
    """

    def __getattr__(name):
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {shown_as or package!r} has no attribute {name!r}")
        full = module if module.startswith("acpt_estimator") else f"{package}.{module}"
        value = getattr(importlib.import_module(full), name)
        vars(sys.modules[package])[name] = value  # later lookups skip __getattr__
        return value

    def __dir__():
        return sorted(set(vars(sys.modules[package])) | set(names))

    return __getattr__, __dir__
