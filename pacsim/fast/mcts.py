"""Monte Carlo tree search in the kernel: ``pacsim.search.mcts`` with the MCTS
Pacman's game and random rollouts, draw for draw.

The tree, the iterations (selection by UCB1 on running-normalised values,
expansion of a random untried move, a chance node drawing its outcome, a
rollout of random moves for ``rollout_depth`` moves, backup) and the
answer are those of :func:`pacsim.search.mcts.mcts` on
``MctsPacman.game_for(state)`` with ``MctsPacman.rollout_step`` for
``rollout=random`` and uniform ghosts: the random numbers come from
:mod:`pacsim.fast.streams`, the same stream as Python's ``random.Random``
with the same seed, so visits, values and counters are equal.

Nodes are rows of arrays, in creation order (the root is node 0):
``children[node]`` holds a MAX/MIN node's children in expansion order
(their move index in ``moves[node]``) or a chance node's child per outcome
(-1: not drawn yet); ``untried[node]`` the move indices not expanded,
which expansion takes as Python's list does (swap with the last, pop).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from functools import cache
from time import perf_counter
from typing import Any, NamedTuple

import numpy as np

from pacsim.engine import GameState, parse_layout
from pacsim.engine.deadline import compiled_code
from pacsim.engine.state import initial_state
from pacsim.fast import kernel, streams, transposition
from pacsim.fast.cache import compiled_functions, keep_fresh
from pacsim.fast.jit import compile_before_timing
from pacsim.fast.kernel import (
    CHANCE_NODE,
    KINDS,
    MAX_NODE,
    NUM_GHOSTS,
    STATUS,
    TURN,
    WORDS,
    apply_move,
    evaluate,
    legal_moves,
    utility,
)
from pacsim.fast.kinds import NODE_KINDS, NodeKind
from pacsim.fast.maze_arrays import layout_tables, state_row
from pacsim.fast.request import MctsRequest
from pacsim.fast.streams import random_below, random_float, stream_row
from pacsim.fast.translate import evaluation_of, settings_row
from pacsim.fast.transposition import uncounted
from pacsim.fast.view import View
from pacsim.search import SearchResult, SearchStats

TERMINAL_NODE = len(NodeKind)
"""A node kind of MCTS's own: a finished game."""
# -- slots of ``counts`` ----------------------------------------------------------
ITERATIONS, GENERATED, EVALUATED, SIMULATED, NODES, DEEPEST = 0, 1, 2, 3, 4, 5
COUNT_SLOTS = 6


class Tree(NamedTuple):
    """The search tree, one row per node in creation order (the root is node 0)."""

    states: np.ndarray
    node_ints: np.ndarray
    """Columns KIND, MOVE_COUNT, CHILD_COUNT, UNTRIED_COUNT, VISITS."""
    node_floats: np.ndarray
    """Columns TOTAL, VALUE."""
    actions: np.ndarray
    targets: np.ndarray
    children: np.ndarray
    child_moves: np.ndarray
    untried: np.ndarray
    cumulative: np.ndarray
    """A chance node's running probabilities."""
    path: np.ndarray
    """The nodes of the current iteration, root first."""


class MctsRun(NamedTuple):
    """What the iterations do and count."""

    iterations: int
    c: float
    rollout_depth: int
    rng: np.ndarray
    """The search's random stream (:mod:`pacsim.fast.streams`)."""
    scratch: np.ndarray
    """Two state rows a rollout plays in."""
    scratch_moves: np.ndarray
    bounds: np.ndarray
    """The running low and high values."""
    counts: np.ndarray


# -- columns of the per-node int table ``node_ints`` -------------------------------
KIND, MOVE_COUNT, CHILD_COUNT, UNTRIED_COUNT, VISITS = 0, 1, 2, 3, 4
NODE_INT_COLUMNS = 5
# -- columns of the per-node float table ``node_floats`` ---------------------------
TOTAL, VALUE = 0, 1
NODE_FLOAT_COLUMNS = 2


@uncounted()
def new_node(maze, settings, tree, counts, node, level):
    """``_Searcher.new_node`` for the state already in ``tree.states[node]``."""
    states, node_ints, node_floats, children = tree.states, tree.node_ints, tree.node_floats, tree.children
    counts[NODES] += 1
    if level > counts[DEEPEST]:
        counts[DEEPEST] = level
    state = states[node]
    node_ints[node, VISITS] = 0
    node_ints[node, CHILD_COUNT] = 0
    node_floats[node, TOTAL] = 0.0
    if state[STATUS] != 0:
        node_ints[node, KIND] = TERMINAL_NODE
        counts[EVALUATED] += 1
        node_floats[node, VALUE] = utility(settings, state)
        return
    kind = settings[KINDS + state[TURN]]
    node_ints[node, KIND] = kind
    count = legal_moves(maze.moves, settings[NUM_GHOSTS], state, tree.actions[node], tree.targets[node])
    node_ints[node, MOVE_COUNT] = count
    if kind == CHANCE_NODE:
        counts[GENERATED] += count
        share = 1.0 / count  # PacmanGame.outcomes without a model
        running = 0.0
        for index in range(count):
            running += share  # itertools.accumulate of the probabilities
            tree.cumulative[node, index] = running
            children[node, index] = -1
        return
    node_ints[node, UNTRIED_COUNT] = count
    for index in range(count):
        tree.untried[node, index] = index


@uncounted(inline=True)
def draw_outcome(cumulative, node, count, rng):
    """``_draw``: ``min(bisect_right(cumulative, random() * cumulative[-1]), count - 1)``."""
    target = random_float(rng) * cumulative[node, count - 1]
    index = 0
    while index < count and cumulative[node, index] <= target:
        index += 1
    return min(index, count - 1)


@uncounted()
def rollout(maze, settings, states, run, node):
    """``_Searcher.rollout`` with ``MctsPacman.rollout_step`` (a random move
    for every agent) from ``states[node]``, played in ``run.scratch``'s rows."""
    moves, distance, nearest, ghost_starts = maze.moves, maze.distance, maze.nearest, maze.ghost_starts
    scratch, scratch_moves, rollout_depth, counts, rng = run.scratch, run.scratch_moves, run.rollout_depth, run.counts, run.rng
    num_ghosts = settings[NUM_GHOSTS]
    words = settings[WORDS]
    for slot in range(scratch.shape[1]):
        scratch[0, slot] = states[node, slot]
    current = 0
    played = 0
    while scratch[current, STATUS] == 0:
        if played >= rollout_depth:
            counts[SIMULATED] += played
            counts[GENERATED] += played
            counts[EVALUATED] += 1
            return evaluate(distance, nearest, settings, scratch[current])
        count = legal_moves(moves, num_ghosts, scratch[current], scratch_moves[0], scratch_moves[1])
        move = random_below(rng, count)
        apply_move(ghost_starts, num_ghosts, words, scratch[current], scratch[1 - current], scratch_moves[0, move],
                   scratch_moves[1, move])
        current = 1 - current
        played += 1
    counts[SIMULATED] += played
    counts[GENERATED] += played
    counts[EVALUATED] += 1
    return utility(settings, scratch[current])


@uncounted(inline=True)
def rollout_value(maze, settings, tree, run, node):
    """A new node's value: its utility if terminal (counted when it was made), else a rollout's."""
    if tree.node_ints[node, KIND] == TERMINAL_NODE:
        return tree.node_floats[node, VALUE]
    return rollout(maze, settings, tree.states, run, node)


@uncounted(inline=True)
def select(node_ints, node_floats, children, node, low, high, c):
    """``_Searcher.select``: the child with the best UCB1 for the mover
    (the first of equals), values normalised by the running ``low``/``high``."""
    span = high - low
    if not span > 0:  # every value so far equal (or none yet): explore only
        span = 1.0
    maximising = node_ints[node, KIND] == MAX_NODE
    parent_visits = node_ints[node, VISITS]
    best = -1
    best_score = -np.inf
    for rank in range(node_ints[node, CHILD_COUNT]):
        child = children[node, rank]
        visits = node_ints[child, VISITS]
        reward = (node_floats[child, TOTAL] - visits * low) / span
        if not maximising:
            reward = visits - reward
        if visits == 0:
            score = np.inf
        else:
            score = reward / visits + c * math.sqrt(math.log(parent_visits) / visits)
        if score > best_score:
            best, best_score = child, score
    return best


@uncounted()
def mcts_iterations(maze, settings, tree, run):
    """Run ``run.iterations`` iterations of ``_Searcher.iterate`` from the
    root (node 0, made by the caller with :func:`new_node`).  ``run.bounds``
    holds the running low and high values."""
    ghost_starts = maze.ghost_starts
    states, node_ints, node_floats, actions, targets = tree.states, tree.node_ints, tree.node_floats, tree.actions, tree.targets
    children, child_moves, untried, cumulative, path = tree.children, tree.child_moves, tree.untried, tree.cumulative, tree.path
    iterations, c, rng, bounds, counts = run.iterations, run.c, run.rng, run.bounds, run.counts
    num_ghosts = settings[NUM_GHOSTS]
    words = settings[WORDS]
    for _ in range(iterations):
        counts[ITERATIONS] += 1
        node = 0
        length = np.int64(1)  # not 1: numba would compile new_node again for the literal
        path[0] = 0
        while True:
            kind = node_ints[node, KIND]
            if kind == TERMINAL_NODE:
                value = node_floats[node, VALUE]
                break
            if kind == CHANCE_NODE:
                index = draw_outcome(cumulative, node, node_ints[node, MOVE_COUNT], rng)
                child = children[node, index]
                if child < 0:
                    child = counts[NODES]
                    apply_move(ghost_starts, num_ghosts, words, states[node], states[child], actions[node, index],
                               targets[node, index])
                    new_node(maze, settings, tree, counts, child, length)
                    children[node, index] = child
                    path[length] = child
                    length += 1
                    value = rollout_value(maze, settings, tree, run, child)
                    break
            elif node_ints[node, UNTRIED_COUNT] > 0:
                remaining = node_ints[node, UNTRIED_COUNT]
                picked = random_below(rng, remaining)
                move = untried[node, picked]
                untried[node, picked] = untried[node, remaining - 1]
                node_ints[node, UNTRIED_COUNT] = remaining - 1
                counts[GENERATED] += 1
                child = counts[NODES]
                apply_move(ghost_starts, num_ghosts, words, states[node], states[child], actions[node, move],
                           targets[node, move])
                new_node(maze, settings, tree, counts, child, length)
                rank = node_ints[node, CHILD_COUNT]
                children[node, rank] = child
                child_moves[node, rank] = move
                node_ints[node, CHILD_COUNT] = rank + 1
                path[length] = child
                length += 1
                value = rollout_value(maze, settings, tree, run, child)
                break
            else:
                child = select(node_ints, node_floats, children, node, bounds[0], bounds[1], c)
            node = child
            path[length] = node
            length += 1
        # backup: the running normalisation, then one visit and the value on the path
        if value < bounds[0]:
            bounds[0] = value
        if value > bounds[1]:
            bounds[1] = value
        for step in range(length):
            node_ints[path[step], VISITS] += 1
            node_floats[path[step], TOTAL] += value


def run_mcts_request(state: GameState, request: MctsRequest, seed: int) -> SearchResult:
    """``MctsPacman(...).analyze(state, seed)`` with the kernel for what
    ``request`` asks (a request :func:`~pacsim.fast.request.mcts_declined`
    let through: random rollouts, the uniform model): ``request.ghosts`` is
    ``chance`` or ``min``, ``request.evaluation`` ``score``, ``careful`` or a
    kernel evaluation's name (:mod:`pacsim.fast.view`: :func:`own_iterations`)."""
    started = perf_counter()
    num_ghosts = len(state.ghosts)
    iterations = request.iterations
    evaluation_number, own = evaluation_of(request.evaluation)
    settings = settings_row(state, evaluation_number, 0, 0, False,
                            [MAX_NODE] + [NODE_KINDS[request.ghosts]] * num_ghosts)
    tables = layout_tables(state.layout)
    row = state_row(state)
    capacity = iterations + 1  # an iteration makes one node at most
    states = np.zeros((capacity, row.shape[0]), np.int64)
    states[0] = row
    node_ints = np.zeros((capacity, NODE_INT_COLUMNS), np.int64)
    node_floats = np.zeros((capacity, NODE_FLOAT_COLUMNS), np.float64)
    actions, targets, children, child_moves, untried = (np.zeros((capacity, 5), np.int64) for _ in range(5))
    cumulative = np.zeros((capacity, 5), np.float64)
    counts = np.zeros(COUNT_SLOTS, np.int64)
    rng = stream_row(random.Random(seed))
    tree = Tree(states, node_ints, node_floats, actions, targets, children, child_moves, untried, cumulative,
                np.zeros(capacity + 1, np.int64))
    new_node(tables, settings, tree, counts, 0, 0)
    if node_ints[0, KIND] != TERMINAL_NODE:
        run = MctsRun(iterations, request.c, request.rollout_depth, rng, np.zeros((2, row.shape[0]), np.int64),
                      np.zeros((2, 5), np.int64), np.array([np.inf, -np.inf]), counts)
        iterations_of = mcts_iterations if own is None else own_iterations(own)
        compile_before_timing(iterations_of, (tables, settings, tree, run))  # said apart, once per version
        if own is not None:
            from pacsim.fast.last_words import prepare  # compiled (or loaded) once per process

            prepare()
        with compiled_code(own is not None):  # a user's function that never returns cannot hold the move limit or Ctrl-C
            iterations_of(tables, settings, tree, run)
    stats = SearchStats(generated=int(counts[GENERATED]), evaluated=int(counts[EVALUATED]), cutoffs=0,
                        seconds=perf_counter() - started, max_depth=int(counts[DEEPEST]),
                        iterations=int(counts[ITERATIONS]), simulated=int(counts[SIMULATED]),
                        tree_nodes=int(counts[NODES]))
    if node_ints[0, KIND] == TERMINAL_NODE:
        return SearchResult(value=float(node_floats[0, VALUE]), action=None, stats=stats)
    order = state.legal_moves()
    visits = {int(child_moves[0, rank]): int(node_ints[children[0, rank], VISITS])
              for rank in range(node_ints[0, CHILD_COUNT])}
    means = {int(child_moves[0, rank]): float(node_floats[children[0, rank], TOTAL] / node_ints[children[0, rank], VISITS])
             for rank in range(node_ints[0, CHILD_COUNT])}
    visited = sorted(visits)
    chosen = max(visited, key=lambda index: (visits[index], means[index], -index))  # Pacman maximises
    return SearchResult(value=means[chosen], action=order[chosen], stats=stats,
                        action_values=tuple((order[index], means[index]) for index in visited),
                        action_visits=tuple((move, visits.get(index, 0)) for index, move in enumerate(order)))


@cache
def own_iterations(function: Callable[[View], float]) -> Any:
    """:func:`mcts_iterations` whose rollouts end with the kernel evaluation
    ``function`` (:func:`pacsim.fast.own.leaf_evaluation`) in place of the
    built-in ``evaluate``: compiled apart and kept on disk, once per
    version of the function, as :mod:`pacsim.fast.own` says."""
    from pacsim.fast.own import kept, leaf_evaluation, uncached  # numba: only for a user's own code

    own_rollout = uncached(rollout, {"evaluate": leaf_evaluation(function)})
    own_rollout_value = uncached(rollout_value, {"rollout": own_rollout})
    return kept(uncached(mcts_iterations, {"rollout_value": own_rollout_value}), "the kernel's MCTS", function)


WARM_UP = MctsRequest(ghosts="chance", evaluation="careful", iterations=4, c=1.4, rollout="random", rollout_depth=6)
"""The small search that loads the compiled MCTS."""


def warm_up() -> None:
    """Load the compiled MCTS now (compiling it on a first run)."""
    run_mcts_request(initial_state(parse_layout("%%%%%\n%P.G%\n%%%%%\n", name="warm-up")), WARM_UP, 0)


# MCTS inlines the kernel's rules, the table's helpers and the random
# streams (pacsim.fast.cache): its cache must go when those files change.
keep_fresh("mcts", lambda: compiled_functions(__name__, globals()), [*kernel.SOURCES, transposition.__file__, streams.__file__])
