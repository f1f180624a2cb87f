"""PEP 562 lazy names for package namespaces: a name's module is imported on first use, then cached."""

import importlib
import sys


def lazy_names(package: str, names: dict, shown_as: str | None = None):
    """``(__getattr__, __dir__)`` for ``package``.

    ``names`` maps each name to the module defining it: a submodule of ``package`` (``'run'``), or an absolute
    ``acpt_estimator...`` module; ``'module:attribute'`` when the object has another name there (a v1 alias).
    ``shown_as`` is the module name errors use (a shim's v1 name, e.g. 'azureml.core').
    """

    def __getattr__(name):
        defined = vars(sys.modules[package])
        if name in defined:  # asked through a shim that forwards its __getattr__ here
            return defined[name]
        where = names.get(name)
        if where is None:
            raise AttributeError(f"module {shown_as or package!r} has no attribute {name!r}")
        module, _, attribute = where.partition(":")
        full = module if module.startswith("acpt_estimator") else f"{package}.{module}"
        value = getattr(importlib.import_module(full), attribute or name)
        defined[name] = value  # later lookups skip __getattr__
        return value

    def __dir__():
        return sorted(set(vars(sys.modules[package])) | set(names))

    return __getattr__, __dir__
