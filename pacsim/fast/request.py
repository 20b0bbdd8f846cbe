"""What a search asks of the kernel, and what the kernel covers.

A search Pacman describes the search it wants as a :class:`SearchRequest`
(one field per search setting, agent-free); :func:`declined` says why the
kernel cannot run it, or ``None``, and :func:`pacsim.fast.search.run_request`
runs it.  What the kernel covers is :data:`COVERED`, read from the tables
:mod:`pacsim.fast.kinds` declares beside the kernel; to cover a new setting,
widen those (or the rule in :func:`declined`) and teach
:func:`~pacsim.fast.translate.translate` its numbers.

Importing this module needs neither numba nor numpy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pacsim.fast import MAX_CELLS, available
from pacsim.fast.kinds import KERNEL_ALGORITHMS, KERNEL_EVALUATIONS, KERNEL_MODELS, ChanceMode, GhostKind
from pacsim.fast.view import registered, registered_ghost
from pacsim.search import ALGORITHMS, CHANCE

ADVERSARIAL = GhostKind.ADVERSARIAL.label
"""The built-in adversarial ghost as a chance model (``model=adversarial``)."""
DEFAULT_ADVERSARY = (2, 1.0)
"""The adversarial ghost's default ``(depth, p)``."""


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
    """Transposition-table entries (0: none); the kernel keeps its own
    table, which the caller passes to :func:`~pacsim.fast.search.run_request`."""
    adversary: tuple[int, float] | None = None
    """``(depth, p)`` of the built-in adversarial ghost when ``model`` is it
    (the kernel runs its chase search at every chance node)."""
    probcut: str = ""
    """ChanceProbCut model file (empty: none)."""
    time: float = 0.0
    """Seconds for iterative deepening up to ``levels`` (0: search ``levels`` at once)."""
    root_values: bool = False
    """Search every root move exactly (its value is reported)."""
    own_game: str = ""
    """What makes the searched game differ from the built-in Pacman game
    (e.g. a subclass's own ``game_for()``), or empty."""


def round_request(kinds: tuple[str, ...], evaluation: str, levels: int, cells: int, algorithm: str = "expectimax",
                  **settings: Any) -> SearchRequest:
    """A request of ``levels`` levels whose round is every agent of ``kinds``
    once (the short form warm-up, the ahead-of-time build and bench write);
    ``settings`` are the other fields, and ``model="adversarial"`` without
    an ``adversary`` plays the adversarial ghost's defaults."""
    if settings.get("model") == ADVERSARIAL:
        settings.setdefault("adversary", DEFAULT_ADVERSARY)
    return SearchRequest(algorithm=algorithm, kinds=tuple(kinds), evaluation=evaluation, levels=levels,
                         step=len(kinds), cells=cells, **settings)


@dataclass(frozen=True)
class Coverage:
    """What the kernel runs."""

    algorithms: dict[str, bool]
    """Algorithm name -> whether it prunes (alpha-beta, Star1/Star2)."""
    evaluations: tuple[str, ...]
    models: tuple[str, ...]
    max_cells: int


COVERED = Coverage(
    # Every algorithm, with or without a table: Star1/Star2 with the local bounds of the evaluations below.
    algorithms={name: pruned for name, (pruned, _) in KERNEL_ALGORITHMS.items()},
    evaluations=tuple(KERNEL_EVALUATIONS),
    models=tuple(KERNEL_MODELS),
    max_cells=MAX_CELLS,
)


def declined(request: SearchRequest) -> str | None:
    """Why the kernel cannot run ``request`` here, or ``None`` when it can."""
    return available() or settings_declined(request) or maze_declined(request.cells) or own_declined(request)


def own_declined(request: SearchRequest) -> str | None:
    """Why numba cannot compile the request's own evaluation (with its
    bounds for Star1/Star2) or own ghost model (:mod:`pacsim.fast.view`),
    or ``None`` (or none to compile)."""
    star_mode = KERNEL_ALGORITHMS.get(request.algorithm, (False, ChanceMode.PLAIN))[1] != ChanceMode.PLAIN
    reason = own_evaluation_declined(request.evaluation, bounds=star_mode)
    if reason is not None:
        return reason
    model = chance_model(request)
    ghost = registered_ghost(model)
    if ghost is None:
        return None
    from pacsim.fast.own import compiled, ghost_arguments  # numba: only once the kernel may run

    reason = compiled(ghost, ghost_arguments())[1]
    return None if reason is None else f"model={model}: {reason}"


def own_evaluation_declined(evaluation: str, bounds: bool = False) -> str | None:
    """Why numba cannot compile ``evaluation`` when it is a kernel evaluation
    (with its bounds if ``bounds``), or ``None``."""
    function = registered(evaluation)
    if function is None:
        return None
    from pacsim.fast.own import compiled  # numba: only once the kernel may run

    reason = compiled(function)[1]
    if reason is None and bounds:
        from pacsim.fast.own_searches import compiled_bounds

        reason = compiled_bounds(function)[1]
    return None if reason is None else f"eval={evaluation}: {reason}"


def settings_declined(request: SearchRequest) -> str | None:
    """Why the kernel cannot run ``request`` on any maze, or ``None``."""
    if request.algorithm not in COVERED.algorithms:
        return f"the fast path does not cover algorithm={request.algorithm} (it runs {', '.join(COVERED.algorithms)})"
    if request.evaluation not in COVERED.evaluations and registered(request.evaluation) is None:
        return f"the fast path does not cover eval={request.evaluation} (it knows {', '.join(COVERED.evaluations)})"
    if registered_ghost(request.model) is not None:
        if star_search(request):
            return f"the fast path covers model={request.model} (a kernel ghost) in the plain searches only (no Star1/Star2 or table)"
    elif request.model not in COVERED.models or (request.model == ADVERSARIAL and request.adversary is None):
        return f"the fast path does not cover model={request.model} (it knows {', '.join(COVERED.models)}, or a kernel ghost)"
    if request.probcut:
        return "the fast path does not cover probcut (ChanceProbCut's forward pruning)"
    if request.own_game:
        return f"the fast path does not cover {request.own_game}"
    refused = set(request.kinds) - ALGORITHMS[request.algorithm][0]
    if refused:
        return f"algorithm={request.algorithm} cannot search {' and '.join(sorted(refused))} nodes"
    return None


def game_loop_declined(request: SearchRequest) -> str | None:
    """Why the whole-game loop (:mod:`pacsim.fast.gameloop`) cannot play a
    Pacman making ``request`` at every move, or ``None``: it runs the plain
    search only, not the star search (:mod:`pacsim.fast.star`)."""
    reason = declined(request)
    if reason is None and star_search(request):
        return "whole games in the kernel cover the plain search only (no Star1/Star2, table or adversarial model)"
    return reason


def star_search(request: SearchRequest) -> bool:
    """Whether the kernel runs ``request`` with its star search
    (:mod:`pacsim.fast.star`): Star1/Star2 chance nodes, a transposition
    table or the adversarial model; else the plain one (:mod:`pacsim.fast.kernel`)."""
    return (KERNEL_ALGORITHMS[request.algorithm][1] != ChanceMode.PLAIN or request.table > 0
            or chance_model(request) == ADVERSARIAL)


def maze_declined(cells: int) -> str | None:
    """Why the kernel cannot search a maze of ``cells`` open cells, or ``None``."""
    if cells > COVERED.max_cells:
        return f"the fast path does not cover a maze of {cells} cells (it takes {COVERED.max_cells})"
    return None


def chance_model(request: SearchRequest) -> str:
    """The model the kernel's chance nodes use: the request's when it has any."""
    return request.model if CHANCE in request.kinds else "uniform"


@dataclass(frozen=True)
class MctsRequest:
    """One MCTS search of a Pacman position, as the kernel would run it
    (``MctsPacman.analyze`` with the same options and seed)."""

    ghosts: str
    """The ghosts in the tree: ``chance`` or ``min``."""
    evaluation: str
    """The rollouts' evaluation by name (a name the kernel does not know,
    but for a kernel evaluation of :mod:`pacsim.fast.view`, is declined)."""
    iterations: int
    """Iterations of the search (0: none, a time budget only)."""
    c: float
    """UCB1's exploration constant."""
    rollout: str
    rollout_depth: int
    model: str = "uniform"
    """The chance nodes' and rollouts' ghost model by name."""
    time: float = 0.0
    """Seconds per move (0: none)."""
    own_game: str = ""
    """What makes the searched game differ from the built-in one, or empty."""


MCTS_COVERED = ("random", "uniform")
"""The MCTS rollout policy and ghost model the kernel runs (any evaluation of
:data:`COVERED`, or a kernel evaluation)."""


def mcts_declined(request: MctsRequest, cells: int) -> str | None:
    """Why the kernel cannot run ``request`` on a maze of ``cells`` open
    cells, or ``None`` when it can (a kernel evaluation is compiled to know)."""
    return mcts_settings_declined(request) or maze_declined(cells) or own_evaluation_declined(request.evaluation)


def mcts_settings_declined(request: MctsRequest) -> str | None:
    """Why the kernel cannot run ``request`` on any maze, or ``None``;
    compiles nothing (an MCTS Pacman asks when it is made)."""
    rollout, model = MCTS_COVERED
    reasons = (
        (request.rollout != rollout, f"the fast path does not cover mcts rollout={request.rollout} (it runs {rollout})"),
        (request.model != model, f"the fast path does not cover mcts model={request.model} (it knows {model})"),
        (request.time > 0 or request.iterations == 0, "the fast path does not cover an mcts time budget"),
        (request.evaluation not in COVERED.evaluations and registered(request.evaluation) is None,
         f"the fast path does not cover eval={request.evaluation} (it knows {', '.join(COVERED.evaluations)})"),
        (bool(request.own_game), f"the fast path does not cover {request.own_game}"),
    )
    return available() or next((reason for failed, reason in reasons if failed), None)
