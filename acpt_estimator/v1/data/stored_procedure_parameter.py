"""v1 ``azureml.data.stored_procedure_parameter``: SQL parameters (refused) and v1's enum of their types."""

from enum import Enum

from acpt_estimator.v1._no_equivalent import define


class StoredProcedureParameterType(Enum):
    """v1's types of a stored procedure parameter (values kept)."""

    String = "String"
    Int = "Int"
    Decimal = "Decimal"
    Guid = "Guid"
    Boolean = "Boolean"
    Date = "Date"

    @staticmethod
    def from_str(code):
        """v1: the member whose value is ``code`` (``'Int'`` -> ``Int``)."""
        return StoredProcedureParameterType(code)


__all__ = sorted(define(globals()) + ["StoredProcedureParameterType"])
