"""The compiled kernel: pacsim's rules and searches over small integer arrays.

Everything here is numba ``@njit(cache=True)`` code and mirrors, line for
line, a piece of the readable Python it must agree with:

* :func:`legal_moves` and :func:`apply_move` are ``GameState.legal_moves``
  and ``pacsim.engine.state.apply_move``;
* :func:`evaluate` and :func:`utility` are the ``score`` and ``careful``
  evaluations of ``pacsim.agents.evaluation`` and the adversarial ghost's
  ``ChaseGame``;
* :func:`node_value` and :func:`search_root` are ``pacsim.search``'s plain
  search (minimax, expectimax, expectiminimax) and alpha-beta, counting
  nodes the same way and breaking ties the same way.

Floating-point values are computed with the same operations in the same
order as the Python code, so they are equal bit for bit, not just close.

A state is one int64 row (see :mod:`pacsim.fast.tables` for the layout of
its slots); a search keeps one row per tree level and writes each child
into the row below its parent, so it allocates nothing per node.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

# -- state slots (the order of pacsim.engine.state.GameState's int fields) --
PACMAN, TURN, STATUS, SCORE, FOOD_LEFT = 0, 1, 2, 3, 4
FIRST_GHOST = 5
"""Ghost cells start here; then directions (Pacman's first), scared timers,
food words, capsule words (offsets below, by number of ghosts and words)."""
WORD_BITS_SHIFT = 5
"""Food and capsules are bitsets of 32-bit chunks held in int64 slots: no
sign bit is ever touched, so the bit operations need no unsigned type."""
WORD_MASK = 31

STOP = 4
"""Index of Stop in pacsim.engine.layout.ACTIONS."""
SCARED_TIME = 40
FOOD_SCORE = 10
TIME_PENALTY = 1
WIN_SCORE = 500
LOSS_SCORE = 500
GHOST_SCORE = 200
UNREACHABLE = 1 << 20

# -- node kinds, evaluations, ghost models ----------------------------------
MAX_NODE, MIN_NODE, CHANCE_NODE = 0, 1, 2
EVAL_SCORE, EVAL_CAREFUL, EVAL_CHASE = 0, 1, 2
MODEL_UNIFORM, MODEL_RANDOM, MODEL_DIRECTIONAL = 0, 1, 2

TROUBLE = 300.0
TROUBLE_REACH = 3
HUNT = 100.0
CAUGHT_VALUE = 1000

# -- statistics slots --------------------------------------------------------
GENERATED, EVALUATED, CUTOFFS, DEEPEST = 0, 1, 2, 3


class Tables(NamedTuple):
    """A layout's move and distance tables as arrays (built by
    :func:`pacsim.fast.tables.layout_tables`)."""

    pacman_count: np.ndarray
    """int64[cells]: number of Pacman moves from each cell (Stop included)."""
    pacman_target: np.ndarray
    """int64[cells, 5]: target cell of each Pacman move, in CS188 order."""
    pacman_action: np.ndarray
    """int64[cells, 5]: action index of each Pacman move."""
    ghost_count: np.ndarray
    """int64[cells, 5]: number of ghost moves by cell and current direction."""
    ghost_target: np.ndarray
    """int64[cells, 5, 4]: target cells of the ghost moves."""
    ghost_action: np.ndarray
    """int64[cells, 5, 4]: action indices of the ghost moves."""
    distance: np.ndarray
    """int64[cells, cells]: maze distance (UNREACHABLE when there is no path)."""
    nearest: np.ndarray
    """int64[cells, cells]: for each cell, every cell by increasing distance
    (the nearest food is the first food met in this order)."""
    ghost_starts: np.ndarray
    """int64[ghosts of the layout]: start cells, in agent order."""


class Config(NamedTuple):
    """What a search assumes: node kind per agent, evaluation, ghost model."""

    kinds: np.ndarray
    """int64[agents]: MAX_NODE, MIN_NODE or CHANCE_NODE for each agent."""
    evaluation: int
    chase_ghost: int
    """For EVAL_CHASE: the agent index of the ghost whose distance counts."""
    model: int
    trust: float
    attack: float
    flee: float
    pruned: bool
    """Alpha-beta windows at MAX and MIN nodes (else a plain search)."""
    num_ghosts: int
    words: int
    """Words of the food (and capsule) bitsets."""


@njit(cache=True)
def directions_slot(num_ghosts):
    return FIRST_GHOST + num_ghosts


@njit(cache=True)
def scared_slot(num_ghosts):
    return FIRST_GHOST + 2 * num_ghosts + 1


@njit(cache=True)
def food_slot(num_ghosts):
    return FIRST_GHOST + 3 * num_ghosts + 1


# -- rules -------------------------------------------------------------------

@njit(cache=True)
def legal_moves(tables, num_ghosts, state, actions, targets):
    """Write the legal (action, target) moves of the agent to move into
    ``actions``/``targets``; return their number (0 once the game is over)."""
    if state[STATUS] != 0:
        return 0
    turn = state[TURN]
    if turn == 0:
        cell = state[PACMAN]
        count = tables.pacman_count[cell]
        for index in range(count):
            actions[index] = tables.pacman_action[cell, index]
            targets[index] = tables.pacman_target[cell, index]
        return count
    cell = state[FIRST_GHOST + turn - 1]
    timer = state[scared_slot(num_ghosts) + turn - 1]
    if timer & 1:  # half speed: a scared ghost waits on odd timer values
        actions[0] = STOP
        targets[0] = cell
        return 1
    direction = state[directions_slot(num_ghosts) + turn]
    count = tables.ghost_count[cell, direction]
    for index in range(count):
        actions[index] = tables.ghost_action[cell, direction, index]
        targets[index] = tables.ghost_target[cell, direction, index]
    return count


@njit(cache=True)
def apply_move(tables, num_ghosts, words, parent, child, action, target):
    """Write into ``child`` the successor of ``parent`` after the agent to
    move goes to ``target`` by ``action`` (unchecked, as the Python one)."""
    child[:] = parent
    if parent[TURN] == 0:
        _pacman_moves_to(tables, num_ghosts, words, child, action, target)
    else:
        _ghost_moves_to(tables, num_ghosts, child, action, target)


@njit(cache=True)
def _pacman_moves_to(tables, num_ghosts, words, state, action, target):
    scared_at = scared_slot(num_ghosts)
    food_at = food_slot(num_ghosts)
    capsules_at = food_at + words
    word = target >> WORD_BITS_SHIFT
    bit = np.int64(1) << (target & WORD_MASK)
    state[SCORE] -= TIME_PENALTY
    if state[food_at + word] & bit:
        state[food_at + word] ^= bit
        state[SCORE] += FOOD_SCORE
        state[FOOD_LEFT] -= 1
        if state[FOOD_LEFT] == 0:
            state[SCORE] += WIN_SCORE
            state[STATUS] = 1
    if state[capsules_at + word] & bit:
        state[capsules_at + word] ^= bit
        for ghost in range(num_ghosts):
            state[scared_at + ghost] = SCARED_TIME
    directions_at = directions_slot(num_ghosts)
    for ghost in range(num_ghosts):
        if state[FIRST_GHOST + ghost] != target:
            continue
        if state[scared_at + ghost]:
            state[SCORE] += GHOST_SCORE
            state[FIRST_GHOST + ghost] = tables.ghost_starts[ghost]
            state[directions_at + ghost + 1] = STOP
            state[scared_at + ghost] = 0
        elif state[STATUS] != 1:
            state[SCORE] -= LOSS_SCORE
            state[STATUS] = -1
    state[directions_at] = action
    state[PACMAN] = target
    state[TURN] = 1 if num_ghosts > 0 and state[STATUS] == 0 else 0


@njit(cache=True)
def _ghost_moves_to(tables, num_ghosts, state, action, target):
    turn = state[TURN]
    index = turn - 1
    timer_at = scared_slot(num_ghosts) + index
    direction_at = directions_slot(num_ghosts) + turn
    timer = state[timer_at]
    if action != STOP:
        state[direction_at] = action
    if timer:
        timer -= 1
        state[timer_at] = timer
    state[FIRST_GHOST + index] = target
    if target == state[PACMAN]:
        if timer:
            state[SCORE] += GHOST_SCORE
            state[FIRST_GHOST + index] = tables.ghost_starts[index]
            state[direction_at] = STOP
            state[timer_at] = 0
        else:
            state[SCORE] -= LOSS_SCORE
            state[STATUS] = -1
    state[TURN] = turn + 1 if turn < num_ghosts else 0


@njit(cache=True)
def perft(tables, num_ghosts, words, root, levels):
    """Successors created by a full expansion of ``levels`` levels (the
    benchmark's ``successor_rate`` count).  Iterative, as every search here:
    numba's cache cannot reload recursive functions."""
    states = np.empty((levels + 1, root.shape[0]), np.int64)
    states[0] = root
    actions = np.empty((levels + 1, 5), np.int64)
    targets = np.empty((levels + 1, 5), np.int64)
    count = np.zeros(levels + 1, np.int64)
    index = np.zeros(levels + 1, np.int64)
    total = 0
    level = 0
    count[0] = legal_moves(tables, num_ghosts, states[0], actions[0], targets[0]) if levels > 0 else 0
    while True:
        if index[level] == count[level]:
            if level == 0:
                return total
            level -= 1
            continue
        move = index[level]
        index[level] += 1
        child = states[level + 1]
        apply_move(tables, num_ghosts, words, states[level], child, actions[level, move], targets[level, move])
        total += 1
        if level + 1 < levels and child[STATUS] == 0:
            level += 1
            count[level] = legal_moves(tables, num_ghosts, child, actions[level], targets[level])
            index[level] = 0


# -- evaluations -------------------------------------------------------------

@njit(cache=True)
def utility(config, state):
    """The value of a finished game: the score, or the chasing ghosts' payoff."""
    if config.evaluation == EVAL_CHASE:
        return float(CAUGHT_VALUE if state[STATUS] == -1 else -CAUGHT_VALUE)
    return float(state[SCORE])


@njit(cache=True)
def evaluate(tables, config, state):
    """``score``, ``careful`` or the chasing ghost's distance term."""
    if config.evaluation == EVAL_SCORE:
        return float(state[SCORE])
    if config.evaluation == EVAL_CHASE:
        ghost = config.chase_ghost - 1
        distance = tables.distance[state[PACMAN], state[FIRST_GHOST + ghost]]
        scared = state[scared_slot(config.num_ghosts) + ghost]
        return float(distance if scared else -distance)
    return careful(tables, config.num_ghosts, state)


@njit(cache=True)
def careful(tables, num_ghosts, state):
    """pacsim.agents.evaluation.careful, operation for operation."""
    pacman = state[PACMAN]
    value = float(state[SCORE])
    food_at = food_slot(num_ghosts)
    order = tables.nearest[pacman]
    for rank in range(order.shape[0]):
        cell = order[rank]
        if (state[food_at + (cell >> WORD_BITS_SHIFT)] >> (cell & WORD_MASK)) & 1:
            nearest = tables.distance[pacman, cell]
            if nearest < UNREACHABLE:  # food Pacman cannot reach does not pull him
                value -= nearest
            break
    scared_at = scared_slot(num_ghosts)
    for ghost in range(num_ghosts):
        distance = tables.distance[pacman, state[FIRST_GHOST + ghost]]
        timer = state[scared_at + ghost]
        if timer:
            if distance < timer:
                value += HUNT / (1 + distance)
        elif distance <= TROUBLE_REACH:
            value -= TROUBLE / (1 << max(distance - 1, 0))
    return value


# -- ghost models ------------------------------------------------------------

@njit(cache=True)
def chance_probabilities(tables, config, state, count, targets, out):
    """The searching Pacman's probabilities of the ghost's ``count`` moves,
    as ``PacmanGame.outcomes`` computes them (same float operations)."""
    if config.model == MODEL_UNIFORM:
        share = 1.0 / count
        for index in range(count):
            out[index] = share
        return
    uniform_share = (1.0 - config.trust) / count
    if config.model == MODEL_RANDOM:
        share = 1.0 / count
        for index in range(count):
            out[index] = config.trust * share + uniform_share
        return
    # The directional ghost: its best moves by maze distance to Pacman.
    ghost = state[TURN] - 1
    scared = state[scared_slot(config.num_ghosts) + ghost] > 0
    distances = tables.distance[state[PACMAN]]
    best_key = UNREACHABLE * 4
    for index in range(count):
        key = -distances[targets[index]] if scared else distances[targets[index]]
        if key < best_key:
            best_key = key
    best_count = 0
    for index in range(count):
        key = -distances[targets[index]] if scared else distances[targets[index]]
        if key == best_key:
            best_count += 1
    focus = config.flee if scared else config.attack
    spread = (1.0 - focus) / count
    for index in range(count):
        key = -distances[targets[index]] if scared else distances[targets[index]]
        probability = spread + (focus / best_count if key == best_key else 0.0)
        out[index] = config.trust * probability + uniform_share


# -- search ------------------------------------------------------------------

class Stack(NamedTuple):
    """One row per tree level: the positions on the current path and what
    each node on it has seen so far (the search is iterative: numba's cache
    cannot reload recursive functions)."""

    states: np.ndarray
    actions: np.ndarray
    targets: np.ndarray
    probabilities: np.ndarray
    count: np.ndarray
    """Moves of the node."""
    index: np.ndarray
    """The move being searched."""
    kind: np.ndarray
    best: np.ndarray
    """Best value so far (MAX/MIN) or the probability-weighted sum (CHANCE)."""
    alpha: np.ndarray
    beta: np.ndarray


@njit(cache=True)
def new_stack(levels, row_length):
    size = levels + 2
    return Stack(np.empty((size, row_length), np.int64), np.empty((size, 5), np.int64),
                 np.empty((size, 5), np.int64), np.empty((size, 5), np.float64),
                 np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size, np.int64),
                 np.zeros(size, np.float64), np.zeros(size, np.float64), np.zeros(size, np.float64))


@njit(cache=True)
def node_value(tables, config, stack, level, remaining, alpha, beta, stats):
    """The value of ``stack.states[level]`` searched ``remaining`` levels deep:
    the recursive ``value`` of pacsim.search.plain (``config.pruned``
    false) or of pacsim.search.pruned's alpha-beta (fail-soft, strict
    cut-offs), with the recursion unrolled onto ``stack``."""
    top = level
    bottom = level + remaining
    stack.alpha[level] = alpha
    stack.beta[level] = beta
    while True:
        # Enter the node at `level`: a leaf gives its value, an inner node
        # sets up and descends into its first move.
        value = _enter(tables, config, stack, level, bottom - level, stats)
        if np.isnan(value):
            level += 1
            continue
        # Hand `value` up until a node has another move to search.
        while True:
            if level == top:
                return value
            level -= 1
            value = _child_done(tables, config, stack, level, value, stats)
            if np.isnan(value):
                level += 1
                break


@njit(cache=True)
def _enter(tables, config, stack, level, remaining, stats):
    """A leaf's value, or NaN after pushing the first child of an inner node."""
    if level > stats[DEEPEST]:
        stats[DEEPEST] = level
    state = stack.states[level]
    if state[STATUS] != 0:
        stats[EVALUATED] += 1
        return utility(config, state)
    if remaining == 0:
        stats[EVALUATED] += 1
        return evaluate(tables, config, state)
    count = legal_moves(tables, config.num_ghosts, state, stack.actions[level], stack.targets[level])
    kind = config.kinds[state[TURN]]
    stack.count[level] = count
    stack.kind[level] = kind
    if kind == CHANCE_NODE:
        stats[GENERATED] += count
        chance_probabilities(tables, config, state, count, stack.targets[level], stack.probabilities[level])
        stack.best[level] = 0.0  # summed in move order from 0, as the Python search does
    else:
        stack.best[level] = -np.inf if kind == MAX_NODE else np.inf
    _push(tables, config, stack, level, 0, stats)
    return np.nan


@njit(cache=True)
def _push(tables, config, stack, level, move, stats):
    """Make move ``move`` of the node at ``level`` the node below it."""
    stack.index[level] = move
    if stack.kind[level] != CHANCE_NODE:
        stats[GENERATED] += 1
    apply_move(tables, config.num_ghosts, config.words, stack.states[level], stack.states[level + 1],
               stack.actions[level, move], stack.targets[level, move])
    stack.alpha[level + 1] = stack.alpha[level]
    stack.beta[level + 1] = stack.beta[level]


@njit(cache=True)
def _child_done(tables, config, stack, level, value, stats):
    """Take a child's value into the node at ``level``: the node's value
    when it is finished, else NaN after pushing its next move."""
    move = stack.index[level]
    kind = stack.kind[level]
    finished = move + 1 >= stack.count[level]
    if kind == CHANCE_NODE:
        stack.best[level] += stack.probabilities[level, move] * value
    elif kind == MAX_NODE:
        if value > stack.best[level]:
            stack.best[level] = value
            if config.pruned:
                if value > stack.beta[level]:
                    stats[CUTOFFS] += 1
                    finished = True
                elif value > stack.alpha[level]:
                    stack.alpha[level] = value
    elif value < stack.best[level]:
        stack.best[level] = value
        if config.pruned:
            if value < stack.alpha[level]:
                stats[CUTOFFS] += 1
                finished = True
            elif value < stack.beta[level]:
                stack.beta[level] = value
    if finished:
        return stack.best[level]
    _push(tables, config, stack, level, move + 1, stats)
    return np.nan


@njit(cache=True)
def search_root(tables, config, root, levels, full_window, values, stats):
    """pacsim.search.search's root: the value, the index of the best root
    move (-1 when there is none) and, in ``values``, each root move's value.

    ``full_window`` searches every root move with an infinite window (the
    plain searches, and ``root_values=True``); otherwise a pruned search
    searches each move after the first against the best so far.  Ties keep
    the earlier move."""
    stack = new_stack(levels, root.shape[0])
    stack.states[0] = root
    if root[STATUS] != 0:
        stats[EVALUATED] += 1
        return utility(config, root), -1
    if levels == 0:
        stats[EVALUATED] += 1
        return evaluate(tables, config, root), -1
    kind = config.kinds[root[TURN]]
    if kind == CHANCE_NODE:
        return node_value(tables, config, stack, 0, levels, -np.inf, np.inf, stats), -1
    count = legal_moves(tables, config.num_ghosts, root, stack.actions[0], stack.targets[0])
    maximising = kind == MAX_NODE
    best_index = -1
    root_value = 0.0
    for index in range(count):
        apply_move(tables, config.num_ghosts, config.words, root, stack.states[1],
                   stack.actions[0, index], stack.targets[0, index])
        stats[GENERATED] += 1
        alpha, beta = -np.inf, np.inf
        if not full_window and best_index >= 0:
            if maximising:
                alpha = root_value
            else:
                beta = root_value
        found = node_value(tables, config, stack, 1, levels - 1, alpha, beta, stats)
        values[index] = found
        if best_index < 0 or (found > root_value if maximising else found < root_value):
            best_index = index
            root_value = found
    return root_value, best_index


@njit(cache=True)
def breadth_first_distances(pacman_count, pacman_target):
    """All-pairs maze distances (UNREACHABLE where there is no path)."""
    cells = pacman_count.shape[0]
    distance = np.full((cells, cells), UNREACHABLE, np.int64)
    frontier = np.empty(cells, np.int64)
    for start in range(cells):
        row = distance[start]
        row[start] = 0
        frontier[0] = start
        head, tail = 0, 1
        while head < tail:
            cell = frontier[head]
            head += 1
            for index in range(pacman_count[cell]):
                target = pacman_target[cell, index]
                if row[target] == UNREACHABLE:
                    row[target] = row[cell] + 1
                    frontier[tail] = target
                    tail += 1
    return distance
