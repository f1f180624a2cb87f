"""v1 dataset filter expressions (``ds.filter((ds['Store'] == 2) & (ds['Brand'] != 'x'))``): comparisons of
columns with constants, combined with ``&``, ``|`` and ``~``; kept as JSON steps the job runtime evaluates."""

from __future__ import annotations

from acpt_estimator.exceptions import UserErrorException

_SCALARS = (str, int, float, bool, type(None))


class Expression:
    """A boolean expression over a dataset's columns (what ``dataset.filter`` takes)."""

    def __init__(self, tree: dict):
        self.tree = tree

    def __and__(self, other):
        return Expression({"op": "and", "args": [self.tree, _tree(other, "&")]})

    def __or__(self, other):
        return Expression({"op": "or", "args": [self.tree, _tree(other, "|")]})

    def __invert__(self):
        return Expression({"op": "not", "args": [self.tree]})

    def __bool__(self):
        raise UserErrorException("A dataset expression has no truth value here: combine expressions with &, | and ~ "
                                 "(not and/or/not), with parentheses: (ds['a'] == 1) & (ds['b'] > 2).")

    def __repr__(self) -> str:
        return f"Expression({self.tree!r})"


def _tree(other, operator: str) -> dict:
    if not isinstance(other, Expression):
        raise UserErrorException(f"'{operator}' combines dataset expressions such as ds['a'] == 1; got {other!r}.")
    return other.tree


class ColumnExpression:
    """``dataset['column']``: compared with a constant it becomes an Expression."""

    def __init__(self, column: str):
        self.column = column

    def _compare(self, op: str, value):
        if not isinstance(value, _SCALARS):
            raise UserErrorException(f"dataset[{self.column!r}] {op} {value!r}: compare a column with a str, int, float "
                                     "or bool constant (column-to-column comparisons need the pandas DataFrame).")
        return Expression({"op": op, "column": self.column, "value": value})

    def __eq__(self, value):  # noqa: D105 - an expression, as dataprep's
        return self._compare("==", value)

    def __ne__(self, value):
        return self._compare("!=", value)

    def __lt__(self, value):
        return self._compare("<", value)

    def __le__(self, value):
        return self._compare("<=", value)

    def __gt__(self, value):
        return self._compare(">", value)

    def __ge__(self, value):
        return self._compare(">=", value)

    def is_in(self, values):
        items = list(values)
        if not items:
            raise UserErrorException(f"dataset[{self.column!r}].is_in([]): pass at least one value.")
        tree = self._compare("==", items[0]).tree
        for item in items[1:]:
            tree = {"op": "or", "args": [tree, self._compare("==", item).tree]}
        return Expression(tree)

    __hash__ = None

    def __repr__(self) -> str:
        return f"dataset[{self.column!r}]"


def check(expression) -> dict:
    if not isinstance(expression, Expression):
        from acpt_estimator.v1._refusal import refusal_message

        raise UserErrorException(refusal_message(
            "Dataset.filter(<dataprep expression>)", "only comparisons of columns with constants (ds['col'] == 5, "
            "combined with &, |, ~) are evaluated here; other dataprep expressions ran on v1's engine.",
            "filter the pandas DataFrame (df[df['col'] > 5]), or an MLTable's filter() (azure-ai-ml/mltable)"))
    return expression.tree
