"""One way for a member without an equivalent to refuse: it names the member, why, and the v2 replacement.

Use ``refused(...)`` as a class attribute (a method, classmethod, staticmethod or property of v1's name); calling it
(or reading it, for a property) raises ``V1NotSupportedException``. Every refusal is marked, so the surface test
can find and call each one.
"""

from __future__ import annotations

from acpt_estimator.exceptions import V1NotSupportedException

REFUSAL_MARK = "__v1_refusal__"


def refusal_message(member: str, why: str, replacement: str) -> str:
    return f"{member} is not supported by acpt-estimator: {why} Use instead: {replacement}"


def refuse(member: str, why: str, replacement: str):
    """Raise the one refusal exception for ``member`` (e.g. ``'Workspace.delete'``)."""
    raise V1NotSupportedException(refusal_message(member, why, replacement))


class refused:
    """A descriptor standing for a v1 member that refuses: ``delete = refused('Workspace.delete', why, v2)``.

    ``kind`` is ``'method'`` (default; also works when called on the class, like a classmethod/staticmethod) or
    ``'property'`` (raises on read).
    """

    def __init__(self, member: str, why: str, replacement: str, kind: str = "method"):
        if kind not in ("method", "property"):
            raise ValueError(f"kind={kind!r}: use 'method' or 'property'")
        self.member, self.why, self.replacement, self.kind = member, why, replacement, kind
        setattr(self, REFUSAL_MARK, True)

    def _raise(self, *args, **kwargs):
        refuse(self.member, self.why, self.replacement)

    def __get__(self, instance, owner=None):
        if self.kind == "property" and instance is not None:
            self._raise()
        return self._raise

    def __set_name__(self, owner, name):
        self.__name__ = name


def is_refusal(obj) -> bool:
    return bool(getattr(obj, REFUSAL_MARK, False))


class _RefusedClass(type):
    """Metaclass of a v1 class with no equivalent: constructing it, or using any public member, refuses."""

    def __call__(cls, *args, **kwargs):
        refuse(cls.__name__, cls._why, cls._replacement)

    def __getattr__(cls, attribute):  # AksCompute.provisioning_configuration(...), Webservice.list(ws)
        if attribute.startswith("_"):
            raise AttributeError(attribute)
        return refused(f"{cls.__name__}.{attribute}", cls._why, cls._replacement).__get__(None, cls)


def refused_class(name: str, why: str, replacement: str, module: str | None = None) -> type:
    """A v1 class that imports (so v1 modules load) and refuses as soon as it is constructed or used."""
    body = {"_why": why, "_replacement": replacement, REFUSAL_MARK: True,
            "__doc__": f"v1 ``{name}``: not supported. {why} Use instead: {replacement}"}
    if module:
        body["__module__"] = module
    return _RefusedClass(name, (), body)
