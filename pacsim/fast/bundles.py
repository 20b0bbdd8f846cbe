"""The kernel's arguments in a few named bundles, rather than walls of arrays.

numba passes a named tuple of arrays as one argument and reads its fields
at no cost, so a kernel function takes the maze, the model it searches
with, its workspace and a few numbers:

* the maze: :class:`pacsim.fast.maze_arrays.Tables` (moves, distances, the
  nearest-cell order, the ghosts' starts), one per layout;
* :class:`Model`: what a search assumes (the int settings and float
  weights, slots named in :mod:`pacsim.fast.kernel`);
* :class:`Workspace` / :class:`StarWorkspace`: the rows a search keeps
  between slices, its root values and its statistics;
* :class:`StarPlan`: how the star search treats chance nodes, its table
  and the adversarial model's own chase search (:class:`Adversary`, with
  its :class:`PositionMemo`).

Importing this module needs numpy only.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Model(NamedTuple):
    """What a search assumes."""

    settings: np.ndarray
    """int64: the evaluation, chasing ghost, chance model, pruning, ghosts,
    words, then each agent's node kind (slots in :mod:`pacsim.fast.kernel`)."""
    weights: np.ndarray
    """float64: trust, slip, then the model ghost's parameters."""


class SubtreeMemo(NamedTuple):
    """A plain search's values and counts by (position, levels left)."""
    keys: np.ndarray
    """int64[slots, 3 + row width]: the search's generation, the levels left, a slippery Pacman's chosen action, the row."""
    values: np.ndarray
    """float64[slots]: each node's value."""
    counts: np.ndarray
    """int64[slots, 3]: the nodes its subtree generated and evaluated, and its depth."""
    meta: np.ndarray
    """int64: the generation of the search under way, then hits and stores (for the benchmark)."""


class Workspace(NamedTuple):
    """The arrays a kernel search keeps between slices (one row per tree level)."""

    states: np.ndarray
    actions: np.ndarray
    targets: np.ndarray
    probabilities: np.ndarray
    frames: np.ndarray
    windows: np.ndarray
    values: np.ndarray
    """Each root move's value, then the root's (``ROOT_VALUE``)."""
    stats: np.ndarray
    """The statistics and where a paused search stands (slots in :mod:`pacsim.fast.kernel`)."""
    memo: SubtreeMemo
    """The plain search's subtrees searched so far (:mod:`pacsim.fast.subtree_memo`)."""


class StarWorkspace(NamedTuple):
    """:class:`Workspace` with the chance nodes' successor bounds, and the
    star search's wider frames and windows."""

    states: np.ndarray
    actions: np.ndarray
    targets: np.ndarray
    probabilities: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    frames: np.ndarray
    windows: np.ndarray
    values: np.ndarray
    stats: np.ndarray


class PositionMemo(NamedTuple):
    """A search's results by position (:mod:`pacsim.fast.memo`): the chase
    search's root values, or a search Pacman's values and statistics."""

    keys: np.ndarray
    """int64[slots, 1 + row width]: the levels, then the row (``masked``: with the score and Pacman's direction zeroed)."""
    values: np.ndarray
    """float64[slots, ROOT_VALUE + 1]: the search's ``values`` (each root move's, then the root's)."""
    stats: np.ndarray
    """int64[slots, 5]: the search's statistics up to ``DEEPEST``, then ``BEST_MOVE`` (kept by Pacman's memo)."""
    counts: np.ndarray
    """int64[2]: hits and searches (for the benchmark)."""
    masked: bool
    """Whether the key leaves out the score and Pacman's direction (the chase search never reads them)."""


class Adversary(NamedTuple):
    """The adversarial ghost's chase search, run at every chance node that models it."""

    model: Model
    """Its chase game's settings (the chasing ghost set at each node) and weights."""
    levels: np.ndarray
    """int64[1]: its depth in levels."""
    mix: np.ndarray
    """float64[1]: its ``p``."""
    work: Workspace
    memo: PositionMemo
    """The chase search's values by position (:mod:`pacsim.fast.memo`)."""


class StarPlan(NamedTuple):
    """How :mod:`pacsim.fast.star` searches beyond the plain search."""

    star: int
    """A :class:`~pacsim.fast.kinds.ChanceMode`, as a plain int: numba types an
    enum member argument on a slow path (about 0.6 ms a call)."""
    use_table: bool
    table: tuple[np.ndarray, ...]
    """The transposition table's arrays (:mod:`pacsim.fast.transposition`)."""
    adversary: Adversary


class PacmanPlan(NamedTuple):
    """The search Pacman of a whole game in the kernel (:mod:`pacsim.fast.gameloop`)."""

    model: Model
    levels: int
    full_window: bool
    ties_random: bool
    memo: PositionMemo
    """His searches' results by position, across the games of this process (:func:`pacsim.fast.memo.pacman_memo`)."""


class GhostTeam(NamedTuple):
    """The ghosts of a whole game in the kernel, one row each."""

    kinds: np.ndarray
    """int64: each ghost's :class:`~pacsim.fast.kinds.GhostKind`."""
    settings: np.ndarray
    """int64 rows: each adversarial ghost's chase search settings."""
    levels: np.ndarray
    """int64: each adversarial ghost's search levels."""
    weights: np.ndarray
    """float64 rows: each ghost's :data:`pacsim.fast.policies.PARAMETERS`."""
    memo: PositionMemo
    """The adversarial ghosts' search values by position (:mod:`pacsim.fast.memo`)."""


class GameArrays(NamedTuple):
    """A whole game's own arrays: where it stands and what it recorded."""

    state: np.ndarray
    progress: np.ndarray
    """int64 slots of :mod:`pacsim.fast.gameloop` (moves, actions played, outcome, cycles)."""
    streams: np.ndarray
    """Every agent's random stream (:mod:`pacsim.fast.streams`), Pacman first."""
    played: np.ndarray
    move_stats: np.ndarray
    move_values: np.ndarray


class Scratch(NamedTuple):
    """One move's scratch rows: the legal moves, their probabilities, chosen indices."""

    actions: np.ndarray
    targets: np.ndarray
    probabilities: np.ndarray
    chosen: np.ndarray
