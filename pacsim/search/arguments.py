"""The arguments of one :func:`pacsim.search.search`, checked, as the node
functions and the root receive them."""

from __future__ import annotations

from dataclasses import dataclass

from pacsim.search.base import Algorithm, Bounds, Evaluate, Game, LocalBounds, Order
from pacsim.search.probcut import ProbCutModel
from pacsim.search.transposition import TranspositionTable


@dataclass(frozen=True, slots=True)
class SearchArguments:
    """The arguments of one :func:`pacsim.search.search`, checked."""

    game: Game
    algorithm: str
    kind: Algorithm
    evaluate: Evaluate | None
    """Scores the positions where the depth runs out; None only without a depth limit."""
    bounds: Bounds | LocalBounds | None
    """Star1/Star2 only: ``(L, U)`` on every leaf value, or ``bounds(state, remaining)``."""
    table: TranspositionTable | None
    order: Order | None
    deadline: float | None
    probcut: ProbCutModel | None
    root_values: bool
