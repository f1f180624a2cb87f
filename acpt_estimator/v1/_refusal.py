"""v1's refusal helpers live in the engine (``acpt_estimator.refusal``); this name keeps the v1 tree's imports."""

from acpt_estimator.refusal import (  # noqa: F401
    REFUSAL_MARK, is_refusal, refusal_message, refuse, refused, refused_class)
