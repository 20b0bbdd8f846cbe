"""A search request in the kernel's numbers: names become numbers here, once.

:func:`translate` turns a :class:`~pacsim.fast.request.SearchRequest` (names:
an algorithm, an evaluation, a chance model) into a :class:`KernelSearch`
(the :class:`~pacsim.fast.bundles.Model` rows, the chance mode, a user's
compiled functions); the searches (:mod:`pacsim.fast.search`), whole games
(:mod:`pacsim.fast.game`) and MCTS (:mod:`pacsim.fast.mcts`) build their
bundles with the functions below and nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from pacsim.engine import GameState
from pacsim.fast import kernel
from pacsim.fast.bundles import Adversary, Model, StarWorkspace, SubtreeMemo, Workspace
from pacsim.fast.kinds import KERNEL_ALGORITHMS, KERNEL_EVALUATIONS, KERNEL_MODELS, NODE_KINDS, Evaluation, GhostKind, NodeKind
from pacsim.fast.maze_arrays import state_row, words_for
from pacsim.fast.memo import chase_memo, empty_memo
from pacsim.fast.policies import DEFAULT_PARAMETERS
from pacsim.fast.request import SearchRequest, chance_model, star_search
from pacsim.fast.star import FRAME_COLUMNS as STAR_FRAME_COLUMNS
from pacsim.fast.star import STAR_STATS_SLOTS, WINDOW_COLUMNS
from pacsim.fast.subtree_memo import empty_subtree_memo
from pacsim.fast.transposition import empty_arrays
from pacsim.fast.view import GhostPolicy, View, registered, registered_ghost

NO_TABLE = empty_arrays()
"""The table arrays passed when a search has no table (numba compiles one signature)."""


class KernelSearch(NamedTuple):
    """A :class:`~pacsim.fast.request.SearchRequest` at one position, in the
    kernel's numbers (a named tuple: made once a search, at a few hundred
    nanoseconds where a frozen dataclass costs microseconds)."""

    model: Model
    chance_mode: int
    """A :class:`~pacsim.fast.kinds.ChanceMode`, as a plain int (see :class:`~pacsim.fast.bundles.StarPlan`)."""
    star_search: bool
    """Whether :mod:`pacsim.fast.star` runs it (Star1/Star2, a table, the adversarial model)."""
    full_window: bool
    """Every root move searched with the full window (no pruning, or root values asked)."""
    evaluation: Callable[[View], float] | None
    """A user's kernel evaluation (:mod:`pacsim.fast.view`), compiled into a copy of the search; None: built-in."""
    ghost: GhostPolicy | None
    """A user's kernel ghost the chance nodes model; None: a built-in model."""
    adversary: tuple[int, float] | None
    """The adversarial model's ``(depth, p)``; None: another model."""


def translate(state: GameState, request: SearchRequest) -> KernelSearch:
    """``request`` (one that :func:`~pacsim.fast.request.declined` let through) at ``state``, as numbers."""
    pruned, chance_mode = KERNEL_ALGORITHMS[request.algorithm]
    model = chance_model(request)
    evaluation_number, evaluation = evaluation_of(request.evaluation)
    ghost = registered_ghost(model)
    settings = settings_row(state, evaluation_number, 0, GhostKind.OWN if ghost is not None else KERNEL_MODELS[model],
                            pruned, [NODE_KINDS[kind] for kind in request.kinds])
    # The model ghost by name: its default parameters.
    weights = model_weights(request.trust, request.slip, DEFAULT_PARAMETERS, ghost is not None)
    return KernelSearch(Model(settings, weights), int(chance_mode), star_search(request),
                        request.root_values or not pruned, evaluation, ghost,
                        request.adversary if model == GhostKind.ADVERSARIAL.label else None)


def evaluation_of(name: str) -> tuple[int, Callable[[View], float] | None]:
    """The kernel's :class:`~pacsim.fast.kinds.Evaluation` of ``name``, and
    the user's kernel evaluation of that name (then the search computes
    ``score``'s slot for nothing: the copy compiled around it calls it)."""
    own = registered(name)
    return (int(KERNEL_EVALUATIONS[name]) if own is None else int(Evaluation.SCORE)), own


def chase_model(state: GameState, chasing_ghost: int) -> Model:
    """The adversarial ghost's chase game (ghosts MAX, Pacman MIN, alpha-beta),
    ``chasing_ghost`` the one it is searched for (0: set at each chance node)."""
    settings = settings_row(state, Evaluation.CHASE, chasing_ghost, GhostKind.UNIFORM, True,
                            [NodeKind.MIN] + [NodeKind.MAX] * len(state.ghosts))
    return Model(settings, np.zeros(kernel.WEIGHTS, np.float64))


def adversary(state: GameState, depth: int, mix: float) -> Adversary:
    """The adversarial ghost's chase search, ready in its own rows: its
    model (the chasing ghost set at each chance node), levels (``depth``
    rounds), ``p`` and a workspace."""
    levels = depth * state.num_agents
    row = state_row(state)
    return Adversary(chase_model(state, 1), np.array([levels], np.int64), np.array([mix], np.float64),
                     workspace(row, levels), chase_memo(state.layout, row.shape[0]))


def model_weights(trust: float, slip: float, parameters: Sequence[float], own_ghost: bool) -> np.ndarray:
    """A :class:`~pacsim.fast.bundles.Model`'s weights: trust, slip, the
    model ghost's parameters, and for a user's own ghost the slot where
    the search notes a refused distribution (``kernel.OWN_GHOST_FAILED``)."""
    return np.array([trust, slip, *parameters, *([0.0] if own_ghost else [])], np.float64)


def settings_row(state: GameState, evaluation: int, chase_ghost: int, model: int, pruned: bool,
                 kinds: Sequence[int]) -> np.ndarray:
    """The kernel's int64 settings row (slots named in :mod:`pacsim.fast.kernel`)."""
    head = [evaluation, chase_ghost, model, int(pruned), len(state.ghosts), words_for(state.layout)]
    return np.array([*head, *kinds], np.int64)


def workspace(root: np.ndarray, levels: int, memo: SubtreeMemo | None = None) -> Workspace:
    """A fresh :class:`~pacsim.fast.bundles.Workspace` with ``root`` at its
    top, for ``levels`` levels; ``memo``: the plain search's subtree memo
    (:mod:`pacsim.fast.subtree_memo`; none by default)."""
    size = levels + 2
    states = np.empty((size, root.shape[0]), np.int64)
    states[0] = root
    stats = np.zeros(kernel.STATS_SLOTS, np.int64)
    stats[kernel.BEST_MOVE] = stats[kernel.PAUSED_AT] = -1
    return Workspace(states, np.empty((size, 5), np.int64), np.empty((size, 5), np.int64),
                     np.empty((size, 5), np.float64), np.zeros((size, kernel.FRAME_COLUMNS), np.int64),
                     np.zeros((size, 3), np.float64), np.zeros(kernel.ROOT_VALUE + 1, np.float64), stats,
                     empty_subtree_memo(root.shape[0], 0) if memo is None else memo)


def star_workspace(root: np.ndarray, levels: int) -> StarWorkspace:
    """A fresh :class:`~pacsim.fast.bundles.StarWorkspace` (see :func:`workspace`)."""
    plain = workspace(root, levels)
    size = levels + 2
    stats = np.zeros(STAR_STATS_SLOTS, np.int64)
    stats[:kernel.STATS_SLOTS] = plain.stats
    return StarWorkspace(plain.states, plain.actions, plain.targets, plain.probabilities,
                         np.zeros((size, 5), np.float64), np.zeros((size, 5), np.float64),
                         np.zeros((size, STAR_FRAME_COLUMNS), np.int64), np.zeros((size, WINDOW_COLUMNS), np.float64),
                         plain.values, stats)


NO_ADVERSARY = Adversary(Model(np.zeros(kernel.KINDS + 1, np.int64), np.zeros(kernel.WEIGHTS, np.float64)),
                         np.zeros(1, np.int64), np.ones(1, np.float64), workspace(np.zeros(1, np.int64), 0),
                         empty_memo(1, 0))
"""The adversary passed when no chance node models it (one compiled signature)."""
