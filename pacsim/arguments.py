"""Arguments given from Python, checked at the public entry points
(:func:`pacsim.play`, :func:`pacsim.run`, the learning environments) so that
a wrong type or range is one :class:`~pacsim.errors.ConfigError` naming the
argument, never a failure deep inside a game or a JSON file that cannot be
written later.

Integers may be any integer type (``numpy.int64(3)`` is 3, stored as a plain
``int``); ``bool`` and floats are refused even when whole (``games=1e7``).
"""

from __future__ import annotations

import operator
from typing import Any

from pacsim.errors import ConfigError


def integer(value: Any, name: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` as a plain ``int`` in ``minimum..maximum`` (either bound optional)."""
    if isinstance(value, bool):
        raise ConfigError(f"{name}={value!r}: must be an integer, not a bool")
    try:
        number = operator.index(value)  # int and numpy's integers; not float, str or None
    except TypeError:
        raise ConfigError(f"{name}={value!r}: must be an integer, not {type(value).__name__}") from None
    if minimum is not None and number < minimum:
        raise ConfigError(f"{name}={number}: must be at least {minimum}")
    if maximum is not None and number > maximum:
        raise ConfigError(f"{name}={number}: must be at most {maximum:,}")
    return number


def text(value: Any, name: str, example: str) -> str:
    """``value`` when it is a non-empty string (an agent spec, a layout name)."""
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{name}={value!r}: must be a non-empty string such as {example!r}")
    return value
