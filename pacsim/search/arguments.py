"""What one :func:`pacsim.search.search` is asked: :class:`SearchSettings`, the
user's value, and :class:`SearchArguments`, the checked whole that the node
functions and the root receive."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from pacsim.errors import SearchError
from pacsim.search.base import Algorithm, Bounds, Evaluate, Game, LocalBounds, Order
from pacsim.search.probcut import ProbCutModel
from pacsim.search.transposition import TranspositionTable


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How deep and how :func:`~pacsim.search.search` searches: all but the
    game, the position and the algorithm.  Make one and reuse it;
    ``search(..., settings, depth=4)`` changes a field for one search."""

    depth: int | None = None
    """Tree levels below the root (MAX, MIN and CHANCE levels alike); None: to terminal positions."""
    evaluate: Evaluate | None = None
    """``evaluate(state)`` scores the positions where the depth runs out; needed with a depth."""
    bounds: Bounds | LocalBounds | None = None
    """star1 and star2 (which need it): ``(L, U)`` on every utility and evaluate
    value, or ``bounds(state, remaining) -> (L, U)`` on every value within
    ``remaining`` levels below ``state``; the other algorithms ignore it."""
    table: TranspositionTable | None = None
    """Reuses results at equal remaining depth (:mod:`pacsim.search.transposition`)."""
    order: Order | None = None
    """``order(state, actions)`` reorders the moves of MAX and MIN nodes: never the
    value, but among equal-valued root moves the first in the reordered list wins."""
    root_values: bool = False
    """Fill ``action_values`` with every root move's exact value (pruned searches
    then search each root move with a full window, which costs more)."""
    deadline: float | None = None
    """A ``time.perf_counter()`` instant; once passed the search raises
    :class:`~pacsim.search.SearchTimeout`."""
    probcut: ProbCutModel | None = None
    """star1 and star2 only: ChanceProbCut, forward pruning that may change the value and the move."""


SETTING_NAMES = tuple(field.name for field in fields(SearchSettings))


def with_changes(settings: SearchSettings, changes: dict[str, Any]) -> SearchSettings:
    """``settings`` with the fields named in ``changes`` replaced (the keywords
    of :func:`~pacsim.search.search`), or a SearchError naming a bad one."""
    if not isinstance(settings, SearchSettings):
        raise SearchError(f"settings must be a SearchSettings (or give depth=..., evaluate=... as keywords), "
                          f"not {settings!r}")
    unknown = [name for name in changes if name not in SETTING_NAMES]
    if unknown:
        raise SearchError(f"unknown search option {unknown[0]!r}; known: {', '.join(SETTING_NAMES)}")
    return replace(settings, **changes) if changes else settings


@dataclass(frozen=True, slots=True)
class SearchArguments:
    """The arguments of one :func:`pacsim.search.search`, checked."""

    game: Game
    algorithm: str
    kind: Algorithm
    settings: SearchSettings
    """Checked; a star search's global ``bounds`` are a pair of finite numbers ``L <= U``."""
