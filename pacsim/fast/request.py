"""What a search asks of the kernel, and what the kernel covers.

A search Pacman describes the search it wants as a :class:`SearchRequest`
(one field per search setting, agent-free); :func:`declined` says why the
kernel cannot run it, or ``None``, and :func:`pacsim.fast.search.run_request`
runs it.  What the kernel covers is :data:`COVERED`, derived from the one
record of algorithms, :data:`pacsim.search.ALGORITHMS`.  To cover a new
setting, widen :data:`COVERED` (or the rule in :func:`declined`) and teach
:func:`~pacsim.fast.search.run_request` to pass it on.

Importing this module needs neither numba nor numpy.
"""

from __future__ import annotations

from dataclasses import dataclass

from pacsim.fast import MAX_CELLS, available
from pacsim.search import ALGORITHMS, CHANCE


@dataclass(frozen=True)
class SearchRequest:
    """One search of a Pacman position, as the kernel would run it."""

    algorithm: str
    """A name in :data:`pacsim.search.ALGORITHMS`."""
    kinds: tuple[str, ...]
    """The node kind of every agent: MAX for Pacman, then each ghost's (MIN or CHANCE)."""
    evaluation: str
    """The cut-off evaluation by name; a name the kernel does not know (a
    plugin's, or an agent's own) is declined."""
    levels: int
    """Tree levels to search (the deepest, with ``time``)."""
    step: int
    """Tree levels of one round (every agent moving once, and the slip
    node): iterative deepening goes ``step``, ``2 * step``, ..."""
    cells: int
    """Open cells of the maze (the kernel's tables grow with their square)."""
    model: str = "uniform"
    """The chance nodes' ghost model by name (a ghost spec)."""
    trust: float = 1.0
    """Weight of the model's distribution, mixed with uniform for the rest."""
    slip: float = 0.0
    """Probability that Pacman's chosen move fails (a chance node after MAX)."""
    table: int = 0
    """Transposition-table entries (0: none)."""
    probcut: str = ""
    """ChanceProbCut model file (empty: none)."""
    time: float = 0.0
    """Seconds for iterative deepening up to ``levels`` (0: search ``levels`` at once)."""
    root_values: bool = False
    """Search every root move exactly (its value is reported)."""
    own_game: str = ""
    """What makes the searched game differ from the built-in Pacman game
    (e.g. a subclass's own ``game_for()``), or empty."""


@dataclass(frozen=True)
class Coverage:
    """What the kernel runs."""

    algorithms: dict[str, bool]
    """Algorithm name -> whether it prunes (alpha-beta)."""
    evaluations: tuple[str, ...]
    models: tuple[str, ...]
    max_cells: int


COVERED = Coverage(
    # Every algorithm that searches chance nodes without pruning them (Star1/Star2 are Python only).
    algorithms={name: pruned for name, (_, pruned, chance_mode) in ALGORITHMS.items() if chance_mode is None},
    evaluations=("score", "careful"),
    models=("uniform", "random", "directional"),
    max_cells=MAX_CELLS,
)


def declined(request: SearchRequest) -> str | None:
    """Why the kernel cannot run ``request`` here, or ``None`` when it can."""
    return available() or settings_declined(request) or maze_declined(request.cells)


def settings_declined(request: SearchRequest) -> str | None:
    """Why the kernel cannot run ``request`` on any maze, or ``None``."""
    if request.algorithm not in COVERED.algorithms:
        return f"the fast path does not cover algorithm={request.algorithm} (it runs {', '.join(COVERED.algorithms)})"
    if request.evaluation not in COVERED.evaluations:
        return f"the fast path does not cover eval={request.evaluation} (it knows {', '.join(COVERED.evaluations)})"
    if request.model not in COVERED.models:
        return f"the fast path does not cover model={request.model} (it knows {', '.join(COVERED.models)})"
    if request.table:
        return "the fast path does not cover table (transposition tables)"
    if request.probcut:
        return "the fast path does not cover probcut (ChanceProbCut)"
    if request.own_game:
        return f"the fast path does not cover {request.own_game}"
    refused = set(request.kinds) - ALGORITHMS[request.algorithm][0]
    if refused:
        return f"algorithm={request.algorithm} cannot search {' and '.join(sorted(refused))} nodes"
    return None


def maze_declined(cells: int) -> str | None:
    """Why the kernel cannot search a maze of ``cells`` open cells, or ``None``."""
    if cells > COVERED.max_cells:
        return f"the fast path does not cover a maze of {cells} cells (it takes {COVERED.max_cells})"
    return None


def chance_model(request: SearchRequest) -> str:
    """The model the kernel's chance nodes use: the request's when it has any."""
    return request.model if CHANCE in request.kinds else "uniform"
