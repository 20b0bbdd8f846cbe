"""What an agent may report about one of its moves.

It lives in the engine because the game loop records it; agents build it
(:mod:`pacsim.agents.api` re-exports it), and the engine needs nothing else
of them.
"""

from __future__ import annotations

from dataclasses import dataclass


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
    """The value the agent gave the position (its chosen move's value), if it has one."""
    iterations: int = 0
    """Iterations run (MCTS playouts, deepening rounds, ...)."""
    simulated: int = 0
    """Moves simulated in playouts (MCTS)."""
