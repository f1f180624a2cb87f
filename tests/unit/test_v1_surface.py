"""The whole v1 training surface (tests/data/v1-surface.json, from the v1 wheels) is present and every refusal refuses.

Each public name of the listed v1 modules imports from its shim; each member of the core classes exists and accepts
v1's parameter names; each member that has no equivalent here raises V1NotSupportedException naming itself and
its v2 replacement. Whether a working member behaves like v1 is for the behaviour tests to show.
"""

import importlib
import inspect
import json
import os
import re

import pytest

from tests import v1_params

from acpt_estimator.exceptions import V1NotSupportedException
from acpt_estimator.v1._refusal import is_refusal

SURFACE = json.load(open(os.path.join(os.path.dirname(__file__), os.pardir, "data", "v1-surface.json")))
NAMES = sorted((mod, name) for mod, entry in SURFACE.items() for name in entry)
CLASSES = {}
for _mod, _entry in sorted(SURFACE.items()):
    for _name, _spec in sorted(_entry.items()):
        if _spec["kind"] == "class" and _spec.get("members"):
            CLASSES.setdefault((_spec["defined_in"], _name), (_mod, _name, _spec["members"]))
MEMBERS = sorted((mod, name, member, spec) for mod, name, members in CLASSES.values() for member, spec in members.items())


def _class(mod, name):
    return getattr(importlib.import_module(mod), name)


def _assigned_in_class(cls, attr) -> bool:
    """v1 properties that are plain instance attributes here (``self.name = ...``) count as present."""
    for klass in cls.__mro__[:-1]:
        try:
            src = inspect.getsource(klass)
        except (OSError, TypeError):
            continue
        if re.search(r"self\." + re.escape(attr) + r"\s*(:[^=]+)?=[^=]", src):
            return True
    return False


def _static(cls, member):
    try:
        return inspect.getattr_static(cls, member)
    except AttributeError:
        return None


@pytest.mark.parametrize("mod, name", NAMES, ids=[f"{m}:{n}" for m, n in NAMES])
def test_v1_name_imports_from_its_module(mod, name):
    assert getattr(importlib.import_module(mod), name, None) is not None


@pytest.mark.parametrize("mod, name, member, spec", MEMBERS, ids=[f"{n}.{m}" for _, n, m, _ in MEMBERS])
def test_v1_member_exists_and_takes_v1_parameters(mod, name, member, spec):
    cls = _class(mod, name)
    present = _static(cls, member) is not None or hasattr(cls, member) or (
        spec["kind"] in ("property", "attribute") and _assigned_in_class(cls, member))
    assert present, f"{name}.{member} is missing"
    if spec["kind"] not in ("method", "classmethod", "staticmethod"):
        return
    wanted = [p["name"] for p in spec.get("params") or []
              if not p["name"].startswith("_") and p["kind"] not in ("VAR_POSITIONAL", "VAR_KEYWORD")]
    params = inspect.signature(getattr(cls, member)).parameters
    takes_kwargs = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    # **kwargs counts only where the body reads those names or hands kwargs on (never when it swallows them).
    func = v1_params.function_of(cls, member)
    absorbed = [p for p in wanted if p not in params]
    if is_refusal(inspect.getattr_static(cls, member, None)) or is_refusal(getattr(cls, member, None)):
        swallowed = set()  # a refusal: every argument is answered by the refusal
    else:
        swallowed = set(v1_params.unread(func, absorbed)) if takes_kwargs and func is not None else set(absorbed)
    missing = [p for p in absorbed if not takes_kwargs or p in swallowed]
    assert not missing, f"{name}.{member} does not accept v1 parameters {missing}"


def _refusals():
    found = []
    for mod, name, member, _ in MEMBERS:
        try:
            cls = _class(mod, name)
        except (ImportError, AttributeError):
            continue  # reported by the two tests above
        if is_refusal(_static(cls, member)):
            found.append((mod, name, member))
    return found


REFUSALS = _refusals()


@pytest.fixture(autouse=True)
def _local_runs_forced(monkeypatch):
    """As v1_surface_check.py runs: no Azure is reachable, so lookups stay on this machine."""
    monkeypatch.setenv("ACPT_ESTIMATOR_TARGET", "local")


@pytest.mark.parametrize("mod, name, member", REFUSALS, ids=[f"{n}.{m}" for _, n, m in REFUSALS])
def test_refused_member_names_itself_and_the_v2_replacement(mod, name, member):
    cls = _class(mod, name)
    with pytest.raises(V1NotSupportedException) as err:
        getattr(cls, member)()
    assert member in err.value.message and "Use instead:" in err.value.message
