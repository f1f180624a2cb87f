"""v1's ``TimeZone`` of a schedule's recurrence: the Windows time zone names Azure ML takes (v1 and v2 alike)."""

from __future__ import annotations

import re
from enum import Enum

from ....pipelines.windows_zones import WINDOWS_TO_IANA

# v1's member names are the Windows names without spaces and punctuation ("UTC-11" -> UTC11,
# "Pacific Standard Time (Mexico)" -> PacificStandardTimeMexico), in the same order as CLDR's table.
TimeZone = Enum("TimeZone", [(re.sub(r"[^0-9A-Za-z]", "", name), name) for name in WINDOWS_TO_IANA],
                module=__name__)
TimeZone.__doc__ = "v1's time zones of a recurrence (Windows names, as Azure ML takes them)."
