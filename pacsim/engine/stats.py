"""What an agent may report about one of its moves.

It lives in the engine because the game loop records it; agents build it
(:mod:`pacsim.agents.api` re-exports it), and the engine needs nothing else
of them.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass, fields

from pacsim.errors import AgentError

FAST, PYTHON = "fast", "python"
BACKENDS = (FAST, PYTHON)
"""What can have searched a move: pacsim's compiled kernel or Python code."""


@dataclass(frozen=True, slots=True)
class MoveStats:
    """The cost and result of the thinking behind one move (every field optional)."""

    generated: int = 0
    """Successor positions created by the search."""
    evaluated: int = 0
    """Positions scored by the evaluation or the game's utility."""
    cutoffs: int = 0
    """Nodes left before all their successors were searched."""
    seconds: float = 0.0
    """Wall time of the thinking."""
    depth: int = 0
    """Tree levels searched below the position (the last finished depth when deepening)."""
    max_depth: int = 0
    """Deepest tree level visited."""
    value: float | None = None
    """The value the agent gave the position (its chosen move's value), if it has one: always a float."""
    iterations: int = 0
    """Iterations run (MCTS playouts, deepening rounds, ...)."""
    simulated: int = 0
    """Moves simulated in playouts (MCTS)."""
    backend: str = PYTHON
    """``fast`` when pacsim's compiled kernel searched the move; ``python`` for any Python code."""

    def __post_init__(self) -> None:
        """Counts become ints >= 0, seconds a finite float >= 0, the value a
        finite float or None: an agent's odd numbers (NaN, 2.5 nodes, a
        numpy scalar) fail its own move, not the run that stores them."""
        counts = (self.generated, self.evaluated, self.cutoffs, self.depth, self.max_depth, self.iterations, self.simulated)
        value = self.value
        if (type(self.seconds) is float and 0.0 <= self.seconds < math.inf and set(map(type, counts)) == _INT
                and min(counts) >= 0 and (value is None or (type(value) is float and math.isfinite(value)))
                and self.backend in BACKENDS):
            return  # the usual numbers (once per move of every game): nothing to convert
        for item in fields(self):
            given = getattr(self, item.name)
            if item.name == "backend":
                if given not in BACKENDS:
                    raise AgentError(f"MoveStats backend={given!r} must be one of {', '.join(BACKENDS)}")
                continue
            if item.name == "value":
                checked = None if given is None else _real(item.name, given)
            elif item.name == "seconds":
                checked = _real(item.name, given)
                if checked < 0:
                    raise AgentError(f"MoveStats seconds={given!r} must be at least 0")
            else:
                checked = _count(item.name, given)
            if checked is not given:
                object.__setattr__(self, item.name, checked)


_INT = {int}


def _count(name: str, given: object) -> int:
    try:
        count = operator.index(given)  # type: ignore[arg-type]  # refused below
    except TypeError:
        raise AgentError(f"MoveStats {name}={given!r} must be a whole number") from None
    if isinstance(given, bool) or count < 0:
        raise AgentError(f"MoveStats {name}={given!r} must be a whole number at least 0")
    return given if type(given) is int else int(count)


def _real(name: str, given: object) -> float:
    try:
        number = float(given)  # type: ignore[arg-type]  # refused below
    except (TypeError, ValueError, OverflowError):
        raise AgentError(f"MoveStats {name}={given!r} must be a number") from None
    if isinstance(given, bool) or not math.isfinite(number):
        raise AgentError(f"MoveStats {name}={given!r} must be a finite number")
    return given if type(given) is float else number
