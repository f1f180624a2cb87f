"""One way for a v1 member without an equivalent to refuse: it names the member, why, and the v2 replacement.

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
