"""Vocabulary shared by every search module: node types, the algorithms, the
game protocol, a search's counters, result and statistics records, the
timeout exception.

Nothing here knows about Pacman; a game is anything with the six methods of
:class:`Game`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from pacsim.errors import SearchError

MAX = "max"
"""``Game.to_move`` result: the maximising player chooses."""
MIN = "min"
"""``Game.to_move`` result: the minimising player chooses."""
CHANCE = "chance"
"""``Game.to_move`` result: nature draws a successor from ``Game.outcomes``."""

NODE_TYPES = (MAX, MIN, CHANCE)


class Algorithm(NamedTuple):
    """What a search algorithm handles and how."""

    node_types: frozenset[str]
    """The node types it can search."""
    pruned: bool
    """Whether it prunes (alpha-beta windows), or searches every node."""
    chance_mode: str | None
    """``"star1"`` or ``"star2"``: how a pruned search cuts at chance nodes."""


ALGORITHMS: dict[str, Algorithm] = {
    "minimax": Algorithm(frozenset({MAX, MIN}), False, None),
    "alphabeta": Algorithm(frozenset({MAX, MIN}), True, None),
    "expectimax": Algorithm(frozenset({MAX, CHANCE}), False, None),
    "expectiminimax": Algorithm(frozenset({MAX, MIN, CHANCE}), False, None),
    "star1": Algorithm(frozenset({MAX, MIN, CHANCE}), True, "star1"),
    "star2": Algorithm(frozenset({MAX, MIN, CHANCE}), True, "star2"),
}
"""Every algorithm :func:`pacsim.search.search` runs, by name."""

NEGATIVE_INFINITY = -math.inf
POSITIVE_INFINITY = math.inf

# How many nodes are visited between two looks at the clock.  perf_counter()
# costs about as much as visiting a node, so looking every node would halve
# the speed; every 2048 nodes keeps the overshoot to a millisecond or two.
DEADLINE_CHECK_INTERVAL = 2048


class Game(Protocol):
    """Any two-player zero-sum game with optional chance, seen from MAX.

    States must be hashable when a transposition table is used.  Positions
    are never mutated by the search.
    """

    def to_move(self, state: Hashable) -> str:
        """Who acts at a non-terminal ``state``: ``MAX``, ``MIN`` or ``CHANCE``."""
        ...

    def actions(self, state: Hashable) -> Sequence[Any]:
        """The moves at a MAX or MIN ``state``, as an ordered, indexable
        sequence.  Ties between equal-valued moves go to the earliest."""
        ...

    def result(self, state: Hashable, action: Any) -> Hashable:
        """The position reached by playing ``action`` in ``state``."""
        ...

    def outcomes(self, state: Hashable) -> Sequence[tuple[Any, Hashable]]:
        """``[(probability, successor), ...]`` at a CHANCE ``state``.

        Probabilities are used as given (never renormalised); they must not
        be negative.
        """
        ...

    def is_terminal(self, state: Hashable) -> bool:
        """Whether the game is over at ``state``."""
        ...

    def utility(self, state: Hashable) -> Any:
        """MAX's payoff at a terminal ``state`` (a real number)."""
        ...


Evaluate = Callable[[Hashable], Any]
Bounds = tuple[Any, Any]
LocalBounds = Callable[[Hashable, Any], Bounds]
Order = Callable[[Hashable, Any], Any]
ValueFunction = Callable[[Hashable, Any, Any, Any, int], Any]
"""A search's node function: ``value(state, alpha, beta, remaining, level)``
(a plain search ignores the window)."""


class SearchObserver(Protocol):
    """Whoever watches a search node by node (:mod:`pacsim.search.trace`
    records the tree), told at named points what happens.

    An observed search puts :func:`~pacsim.search.nodes.observed` in front
    of its node function once, when it is made (the recursion calls the
    name it rebinds); the chance nodes call their hooks only when an
    observer is given.  A search without one therefore runs its own code,
    at its own speed."""

    def search_started(self, counters: SearchCounters) -> None:
        """The counters the search counts into, before its first node."""
        ...

    def node_entered(self, state: Hashable, alpha: Any, beta: Any, remaining: Any, level: int) -> None:
        """A node function called: ``state`` at tree level ``level`` with
        ``remaining`` levels to search, in the window ``[alpha, beta]``
        (both None in an unpruned search)."""
        ...

    def node_valued(self, value: Any) -> None:
        """The node entered last and not yet valued returns ``value``."""
        ...

    def chance_bounded(self, lower: Any, upper: Any) -> None:
        """Star1/Star2: the bounds ``[lower, upper]`` on each successor of the
        chance node being searched, before any is searched or probed."""
        ...

    def probe_started(self, outcome: int, move: Any) -> None:
        """Star2: the first move ``move`` of successor ``outcome`` is about to
        be searched to bound that successor (its node is entered next)."""
        ...

    def probe_ended(self) -> None:
        """Star2: the probe begun last has its value."""
        ...

    def leaf_pinned(self, outcome: int, probability: Any, state: Hashable, terminal: bool, value: Any) -> None:
        """Star2: successor ``outcome``, a leaf, valued while probing (no node function call)."""
        ...


class SearchCounters:
    """What a search has cost so far, counted by every part of it: the root,
    the node functions, Star1/Star2 at chance nodes and ChanceProbCut."""

    __slots__ = ("cutoffs", "deepest", "evaluated", "generated", "probcuts")

    def __init__(self) -> None:
        self.generated = 0
        self.evaluated = 0
        self.cutoffs = 0
        self.deepest = 0
        self.probcuts = 0

    def stats(self, seconds: float) -> SearchStats:
        return SearchStats(generated=self.generated, evaluated=self.evaluated, cutoffs=self.cutoffs,
                           seconds=seconds, max_depth=self.deepest, probcuts=self.probcuts)


class SearchTimeout(Exception):
    """The deadline given to :func:`search` passed before the search ended.

    Deliberately not a :class:`~pacsim.errors.PacsimError`: running out of
    time is an expected event for the caller (iterative deepening keeps its
    last complete result), not a user mistake.
    """


@dataclass(frozen=True, slots=True)
class SearchStats:
    """What one search cost."""

    generated: int
    """Successor positions created: one per ``result()`` call and one per
    successor returned by ``outcomes()``."""
    evaluated: int
    """Calls of ``utility`` (terminal positions) and ``evaluate`` (depth
    cut-off) together."""
    cutoffs: int
    """Nodes left before all their successors were searched (alpha-beta
    prunes, Star1/Star2 chance-node cuts, Star2 probe cuts)."""
    seconds: float
    """Wall-clock time of the search, measured with ``time.perf_counter``."""
    max_depth: int
    """Deepest tree level visited; the root is level 0."""
    iterations: int = 0
    """Monte Carlo tree search only: selection-expansion-rollout-backup rounds run."""
    simulated: int = 0
    """Monte Carlo tree search only: moves played in rollouts (outside the tree)."""
    tree_nodes: int = 0
    """Monte Carlo tree search only: nodes in the tree when the search ended."""
    probcuts: int = 0
    """Chance nodes cut by ChanceProbCut's prediction (forward pruning; not
    counted in ``cutoffs``, which only count exact prunes)."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The answer of one search."""

    value: Any
    """The root's game value for MAX (expectiminimax value, or its
    depth-limited estimate when ``depth`` was given)."""
    action: Any
    """The best root move for the player to move at the root (MAX: highest
    value, MIN: lowest, first in ``actions()`` order on ties); ``None`` at a
    terminal root, a CHANCE root or ``depth=0``."""
    stats: SearchStats
    """What the search cost."""
    depth: int | None = None
    """The depth limit searched (tree levels below the root); ``None`` means
    to terminal positions."""
    action_values: tuple[tuple[Any, Any], ...] = ()
    """``(action, value)`` for every root move in search order, each value
    exact; only filled when ``root_values=True`` was asked for.  Monte Carlo
    tree search fills it with each root move's mean rollout value."""
    action_visits: tuple[tuple[Any, int], ...] = ()
    """Monte Carlo tree search only: ``(action, visits)`` for every root move."""


def node_type_error(algorithm: str, node_type: Any) -> SearchError:
    """The error for an algorithm meeting a node type it cannot handle."""
    if node_type not in NODE_TYPES:
        return SearchError(
            f"{algorithm}: to_move() returned {node_type!r}; expected MAX, MIN or CHANCE"
        )
    return SearchError(f"{algorithm} cannot handle {node_type.upper()} nodes")


def no_moves_error(state: Any) -> SearchError:
    """The error for a non-terminal position without moves or outcomes."""
    return SearchError(f"non-terminal position has no moves or outcomes: {state!r}")
