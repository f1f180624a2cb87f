"""Which v1 parameters a function of the v1 tree accepts and never reads (the scan behind test_v1_params.py).

A v1 parameter (from ../shared/spec/v1-surface.json) counts as handled when the function (or the v1 class's
method it inherits) reads it: an explicit parameter loaded in the body, or its name as a string in the body
(``kwargs.get('x')``), or ``**kwargs`` handed on whole to another call. A function that only refuses (its body
raises, calls ``refuse(...)``, or it is made by ``refused(...)``) handles all of them. A parameter ``del``-eted in
the body is handled on purpose (a comment there says why its value cannot change the result). ``**kwargs`` that
nobody reads handles nothing. Parameters whose names start with ``_`` are v1 internals (v1's own plumbing between
its classes, never documented for callers) and are not checked.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import json
import os
import textwrap

SPEC = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "spec", "v1-surface.json")


def spec_path() -> str:
    for candidate in (SPEC, "/work/shared/spec/v1-surface.json"):
        if os.path.isfile(candidate):
            return candidate
    raise FileNotFoundError("v1-surface.json (../shared/spec) is needed for the v1 parameter scan")


def _ours(module: str):
    return importlib.import_module("acpt_estimator.v1" + module[len("azureml"):])


def _function(owner, name: str):
    raw = inspect.getattr_static(owner, name, None) if inspect.isclass(owner) else getattr(owner, name, None)
    if isinstance(raw, (staticmethod, classmethod)):
        raw = raw.__func__
    if isinstance(raw, property):
        raw = raw.fget
    return raw if inspect.isfunction(raw) else None


def function_of(owner, name: str):
    """The plain function behind a class member (static/class method or property unwrapped), else None; for a
    constructor made by a metaclass (``Run(experiment, run_id)``), the metaclass's ``__call__``."""
    found = _function(owner, name)
    if found is None and name == "__init__" and inspect.isclass(owner):
        call = getattr(type(owner), "__call__", None)
        found = call if inspect.isfunction(call) else None
    return found


@functools.lru_cache(maxsize=None)
def _tree(func):
    try:
        source = textwrap.dedent(inspect.getsource(func))
    except (OSError, TypeError):
        return None
    node = ast.parse(source).body[0]
    return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def _refuses_only(node) -> bool:
    """Only raises (a refusal), or only declares (``...``: a protocol whose backends implement it)."""
    body = [n for n in node.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
                                         and isinstance(n.value.value, str))]
    declares = all(isinstance(n, ast.Pass) or (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
                                               and n.value.value is Ellipsis) for n in body)
    refusal = (lambda n: isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)
               and isinstance(n.value.func, ast.Name) and n.value.func.id == "refuse")
    return declares or all(isinstance(n, ast.Raise) or refusal(n) for n in body)


def explicit_names(node) -> set:
    args = node.args
    return {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}


def unread(func, v1_params) -> list[str]:
    """The v1 parameters ``func`` accepts and never reads (see the module docstring)."""
    node = _tree(func)
    if node is None or _refuses_only(node) or getattr(func, "_v1_refusal", False):
        return []
    args = node.args
    explicit = explicit_names(node)
    kwargs = args.kwarg.arg if args.kwarg else None
    loaded, strings, forwarded = set(), set(), False
    for sub in ast.walk(ast.Module(body=node.body, type_ignores=[])):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Load, ast.Del)):
            loaded.add(sub.id)
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            strings.add(sub.value)
        elif isinstance(sub, ast.Call) and any(k.arg is None and isinstance(k.value, ast.Name)
                                               and k.value.id == kwargs for k in sub.keywords):
            forwarded = True
        elif kwargs and isinstance(sub, ast.Call) and any(isinstance(a, ast.Name) and a.id == kwargs
                                                          for a in sub.args):
            forwarded = True  # handed on as a dict (dict(kwargs), f(kwargs))
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == "locals":
            loaded |= explicit_names(node)  # every parameter handed on (a configuration object keeps them)
    missing = []
    for name in v1_params:
        if name in ("self", "cls") or name.startswith("_") or name in strings:
            continue
        if name in explicit:
            if name not in loaded:
                missing.append(name)
        elif kwargs and not forwarded:
            missing.append(name)
    return missing


def scan() -> dict:
    """{'azureml.module:Class.member': [unread v1 parameters]} over the v1 surface."""
    with open(spec_path(), encoding="utf-8") as handle:
        surface = json.load(handle)
    found = {}
    for module, names in surface.items():
        try:
            ours = _ours(module)
        except ImportError:
            continue
        for name, entry in names.items():
            target = getattr(ours, name, None)
            if target is None:
                continue
            members = entry.get("members") or {} if entry.get("kind") == "class" else {"": entry}
            for member, info in members.items():
                params = [p["name"] for p in info.get("params") or [] if p.get("kind") not in
                          ("VAR_POSITIONAL", "VAR_KEYWORD")]
                if not params:
                    continue
                func = _function(target, member) if member else (target if inspect.isfunction(target) else None)
                if func is None:
                    continue
                missing = unread(func, params)
                if missing:
                    found[f"{module}:{name}{'.' + member if member else ''}"] = missing
    return found


def _spec(name: str):
    with open(os.path.join(os.path.dirname(spec_path()), name), encoding="utf-8") as handle:
        return json.load(handle)


def _names(params) -> list:
    return [p if isinstance(p, str) else p["name"] for p in params or []
            if isinstance(p, str) or p.get("kind") not in ("VAR_POSITIONAL", "VAR_KEYWORD")]


def v1_index() -> tuple[dict, dict]:
    """({(class name, member): v1 parameter names}, {function name: names}) from the three v1 spec files; a class
    name's entries are merged over the modules that export it (v1 re-exports one class under several paths). The
    pipeline classes' entries are keyed ``(name, member, 'pipeline')``: they apply in the v1 pipeline tree only
    (``azureml.pipeline.core.graph.DataType`` is not ``azureml.data.dataset_factory.DataType``)."""
    members, functions = {}, {}
    for module, names in _spec("v1-surface.json").items():
        for name, entry in names.items():
            if entry.get("kind") == "class":
                for member, info in (entry.get("members") or {}).items():
                    members.setdefault((name, member), set()).update(_names(info.get("params")))
            else:
                functions.setdefault(name, set()).update(_names(entry.get("params")))
    for key, params in _spec("v1-signatures.json").items():
        members.setdefault((key.split(":")[-1], "__init__"), set()).update(_names(params))
    for name, entry in _spec("v1-pipeline-classes.json").items():
        for member, info in (entry.get("members") or {}).items():
            members.setdefault((name, member, "pipeline"), set()).update(_names(info.get("params")))
    return members, functions


def _modules():
    import pkgutil

    import acpt_estimator.v1 as root

    for info in pkgutil.walk_packages(root.__path__, "acpt_estimator.v1."):
        yield importlib.import_module(info.name)


def scan_tree() -> dict:
    """{'module:Class.member' or 'module:function': [unread v1 parameters]} over every public class and function
    defined in the v1 tree (inherited methods included: a v1 class's member is checked where it is defined)."""
    members, functions = v1_index()
    found = {}
    for module in _modules():
        for name, obj in vars(module).items():
            if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
                continue
            if inspect.isclass(obj):
                pipeline = module.__name__.startswith("acpt_estimator.v1.pipeline")
                checks = [(f"{name}.{key[1]}", function_of(obj, key[1]), p) for key, p in members.items()
                          if key[0] == name and (len(key) == 2 or pipeline)]
            elif inspect.isfunction(obj):
                checks = [(name, obj, functions.get(name, ()))]
            else:
                continue
            for label, func, params in checks:
                missing = unread(func, sorted(params)) if func is not None and params else []
                if missing:
                    found[f"{module.__name__}:{label}"] = missing
    return found
