"""Game-agnostic depth-limited game-tree search.

Nothing in this package knows about Pacman: a game is any object with the
six methods of :class:`Game` (``to_move``, ``actions``, ``result``,
``outcomes``, ``is_terminal``, ``utility``), and a position is any hashable
value.

Modules, in reading order:

* :mod:`~pacsim.search.base`   -- node types, the algorithms, the protocol, the counters,
  result records;
* :mod:`~pacsim.search.transposition`  -- the bounded transposition table, and when an entry answers a node;
* :mod:`~pacsim.search.arguments` -- :class:`SearchSettings` (depth, evaluation, bounds, table, ...) and
  a search's checked arguments, as its parts receive them;
* :mod:`~pacsim.search.nodes`  -- what every node function shares: leaves, move order, the deadline;
* :mod:`~pacsim.search.plain`  -- minimax, expectimax, expectiminimax;
* :mod:`~pacsim.search.pruned` -- alpha-beta: windows and cut-offs at MAX and MIN nodes;
* :mod:`~pacsim.search.star`   -- Star1 and Star2 at chance nodes;
* :mod:`~pacsim.search.probcut` -- ChanceProbCut (forward pruning) and its model file;
* :mod:`~pacsim.search.api`    -- :func:`search` (argument checks, the root) and iterative
  deepening over any per-depth search (:func:`deepen`, :func:`deepest`, :func:`iterative_deepening`);
* :mod:`~pacsim.search.probcut_fit` -- fitting a ChanceProbCut model with searches;
* :mod:`~pacsim.search.mcts`   -- Monte Carlo tree search: :func:`mcts`.
"""

from typing import TYPE_CHECKING, Any

from pacsim.lazy import lazy_attribute
from pacsim.search.base import ALGORITHMS, CHANCE, MAX, MIN, Algorithm, Game, SearchResult, SearchStats, SearchTimeout
from pacsim.search.mcts import mcts, random_rollout, ucb1  # eager: importing the module pacsim.search.mcts would hide the function

if TYPE_CHECKING:
    from pacsim.search.api import deepen, deepest, iterative_deepening, search
    from pacsim.search.arguments import SearchSettings
    from pacsim.search.probcut import ProbCutModel
    from pacsim.search.transposition import EXACT, LOWER, UPPER, TranspositionTable

_HOMES = {
    "pacsim.search.api": ("deepen", "deepest", "iterative_deepening", "search"),
    "pacsim.search.arguments": ("SearchSettings",),
    "pacsim.search.probcut": ("ProbCutModel",),
    "pacsim.search.transposition": ("EXACT", "LOWER", "UPPER", "TranspositionTable"),
}
"""The searches themselves, imported on first use (:mod:`pacsim.lazy`): a
module that needs only the node types and results (the constants of the
kernel's kinds, an agent's move statistics) does not load every algorithm."""

__all__ = [
    "ALGORITHMS",
    "Algorithm",
    "CHANCE",
    "EXACT",
    "LOWER",
    "MAX",
    "MIN",
    "ProbCutModel",
    "UPPER",
    "Game",
    "SearchSettings",
    "SearchResult",
    "SearchStats",
    "SearchTimeout",
    "TranspositionTable",
    "deepen",
    "deepest",
    "iterative_deepening",
    "mcts",
    "random_rollout",
    "search",
    "ucb1",
]


def __getattr__(name: str) -> Any:
    return lazy_attribute(__name__, name, _HOMES)
