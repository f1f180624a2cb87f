"""v1's mini_batch_size: a file count for file datasets, a size ('1024', '10KB', '10MB', '1GB') for tabular ones."""

from __future__ import annotations

import re

SIZE_PATTERN = re.compile(r"^\d+([kKmMgG][bB])?$")  # v1's rule (written ^\d+([kKmMgG][bB])*$ there)
_UNITS = {"kb": 1024, "mb": 1024 ** 2, "gb": 1024 ** 3}
DEFAULT_FILES = 10  # v1's defaults when mini_batch_size is not given
DEFAULT_BYTES = 1024 * 1024


def parse_mini_batch_size(value) -> int:
    """The number a mini_batch_size stands for (files or bytes); ValueError naming v1's rule otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError(f"mini_batch_size={value!r}: pass an int or a str such as '10', '1024KB', '10MB', '1GB'.")
    text = str(value).strip()
    if not SIZE_PATTERN.match(text):
        raise ValueError(f"mini_batch_size={value!r} does not follow v1's rule ^\\d+([kKmMgG][bB])?$: pass a file "
                         "count for file datasets ('10') or a size for tabular ones ('1024KB', '10MB', '1GB').")
    unit = text[-2:].lower()
    number = int(text[:-2]) * _UNITS[unit] if unit in _UNITS else int(text)
    if number < 1:
        raise ValueError(f"mini_batch_size={value!r} must be at least 1.")
    return number
