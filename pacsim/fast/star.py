"""The kernel's Star1/Star2 search and its searches with a transposition table.

:func:`star_value` is the ``value`` function of ``pacsim.search.pruned``
(alpha-beta, with the chance nodes of ``pacsim.search.star``) and of
``pacsim.search.plain`` when a table is used, operation for operation: the
same node counts, the same table lookups and stores, the same floats.
:func:`star_search_root` is ``pacsim.search.search``'s root around it.

Like :func:`pacsim.fast.kernel.node_value` it unrolls the recursion onto
per-level rows, but a node here may call more than its own children: a
Star2 chance node probes the first move of a successor, two levels down.
So every entered node records its caller (``frames[level, CALLER]``) and
every node its phase (what it is doing with its children); the loop runs
in three modes:

* ENTER the node at ``level`` (a leaf, a table hit, or an expansion);
* UP: hand ``value``, the value of the node at ``level``, to its caller;
* NEXT: the node at ``level`` searches its next child, or finishes.

It pauses only on entering a node, with everything in the arrays, so a
search runs in slices as the plain kernel's does (and so that the table's
arrays can grow between two slices: :func:`pacsim.fast.transposition.needs_room`).

Every function here is compiled without numba's reference counting
(``_nrt=False``, a numba flag for code that allocates no array): the caller
holds every array for the whole call, and the atomic increments and
decrements of each array view and argument otherwise took over half of a
search's time.
"""

from __future__ import annotations

import numpy as np

from pacsim.fast import kernel, memo, transposition
from pacsim.fast.cache import compiled_functions, keep_fresh
from pacsim.fast.evaluations import careful_range, pacman_moves_within, score_range
from pacsim.fast.jit import when_compiling
from pacsim.fast.kernel import (
    ALPHA,
    BEST,
    BEST_MOVE,
    BETA,
    CHANCE_NODE,
    CHASE_GHOST,
    CHOSEN,
    COUNT,
    CUTOFFS,
    DEEPEST,
    EVAL_CAREFUL,
    EVALUATED,
    EVALUATION,
    FOOD_LEFT,
    GENERATED,
    INDEX,
    KIND,
    KINDS,
    MAX_NODE,
    MODEL,
    MODEL_ADVERSARIAL,
    NEXT_MOVE,
    NUM_GHOSTS,
    PACMAN,
    PACMAN_TABLE,
    PAUSED_AT,
    PRUNED,
    ROOT_VALUE,
    SCORE,
    SLIP,
    STATS_SLOTS,
    STATUS,
    TRUST,
    TURN,
    WORD_BITS_SHIFT,
    WORDS,
    chance_probabilities,
    evaluate,
    food_slot,
    legal_moves,
    root_leaf_value,
    root_move_level,
    root_move_searched,
    scared_slot,
    search_root,
    step_down,
    utility,
)
from pacsim.fast.kinds import ChanceMode
from pacsim.fast.memo import memo_slot, recall, remember
from pacsim.fast.policies import slip_outcomes
from pacsim.fast.transposition import EXACT, LOWER, UPPER, needs_room, table_get, table_put, uncounted
from pacsim.search import star as python_star
from pacsim.search.star import beyond


def _compile_beyond() -> None:
    """The Python search's own check, compiled in."""
    from numba.extending import register_jitable

    register_jitable(beyond)


when_compiling(_compile_beyond)

# -- more columns of ``frames`` (after the kernel's COUNT, INDEX, KIND, CHOSEN)
PHASE, CALLER, PROBED = 4, 5, 6
"""What the node does with its children, the level of the node that entered
it, and the kind of the successor a Star2 node is probing."""
FRAME_COLUMNS = 7
MOVES, SUM, FORCED, PROBING, SEARCHING = 0, 1, 2, 3, 4
"""Phases: a MAX/MIN node's moves, a plain chance node's sum, a forced
outcome, Star2's probes, Star1's pass."""

# -- more columns of ``windows`` (after BEST, ALPHA, BETA) -------------------
ENTRY_ALPHA, ENTRY_BETA, REST_LOWER, REST_UPPER, LOWER_SUM, UPPER_SUM, CHILD_ALPHA, CHILD_BETA = 3, 4, 5, 6, 7, 8, 9, 10
"""The window the node was entered with (what its table entry means),
Star1's sums over the successors not searched yet, the bounds' weighted
sums, and the unclipped window of the successor being searched (or probed)."""
WINDOW_COLUMNS = 11

OUT_OF_BOUNDS = STATS_SLOTS
"""Stats slot: 1 when a value left its bounds (Python raises SearchError)."""
STAR_STATS_SLOTS = STATS_SLOTS + 1


ENTER, UP, NEXT = 0, 1, 2
FAILED = -2
STAR2 = int(ChanceMode.STAR2)
"""``star_value``'s paused level when a value left its bounds."""


@uncounted(inline=True)
def leaf_bounds(distance, settings, state, remaining):
    """``score_bounds`` or ``careful_bounds`` of pacsim.agents.evaluation:
    bounds on every value within ``remaining`` levels below ``state``
    (the arithmetic shared, :mod:`pacsim.fast.evaluations`; the counts
    read from the row)."""
    num_ghosts = settings[NUM_GHOSTS]
    moves = pacman_moves_within(remaining, state[TURN], num_ghosts)
    scared_at = scared_slot(num_ghosts)
    scared_now = 0
    for ghost in range(num_ghosts):
        if state[scared_at + ghost] != 0:
            scared_now += 1
    capsules_reached = 0
    if moves > 0:
        words = settings[WORDS]
        capsules_at = food_slot(num_ghosts) + words
        from_pacman = distance[state[PACMAN]]
        for word in range(words):
            bits = state[capsules_at + word]
            bit = 0
            while bits:  # over the capsules only: most words have none
                if bits & 1 and from_pacman[(word << WORD_BITS_SHIFT) + bit] <= moves:
                    capsules_reached += 1
                bits >>= 1
                bit += 1
    low, high, huntable = score_range(state[SCORE], num_ghosts, moves, state[FOOD_LEFT], scared_now, capsules_reached)
    if settings[EVALUATION] != EVAL_CAREFUL:
        return low, high
    return careful_range(low, high, huntable, num_ghosts, distance.shape[0])


@uncounted(inline=True)
def chance_bounds(maze, settings, stats, state, remaining):
    """The bounds a Star1/Star2 chance node puts on its successors:
    :func:`leaf_bounds` here; a user's own evaluation's in its copy of this
    search (:mod:`pacsim.fast.own_searches`, which may flag ``stats``)."""
    return leaf_bounds(maze.distance, settings, state, remaining)


@uncounted()
def star_value(maze, model, plan, work, top, level, bottom, budget):
    """The value of ``states[top]`` (window ``windows[top, ALPHA/BETA]``),
    searched to level ``bottom``: ``(value, -1)``; ``(0.0, level)`` when
    paused before entering the node at ``level`` after ``budget`` nodes
    (call again with that level to go on); ``(nan, FAILED)`` when a value
    left its bounds (``stats[OUT_OF_BOUNDS]`` set).  ``work`` is a
    :class:`~pacsim.fast.bundles.StarWorkspace`, ``plan`` a ``StarPlan``."""
    distance, nearest, settings = maze.distance, maze.nearest, model.settings
    states, probabilities, lower, upper = work.states, work.probabilities, work.lower, work.upper
    frames, windows, stats = work.frames, work.windows, work.stats
    use_table, table = plan.use_table, plan.table
    pruned = settings[PRUNED] != 0
    entered = 0
    mode = ENTER
    value = 0.0
    while True:
        if mode == ENTER:
            if entered == budget or (use_table and needs_room(table, bottom)):
                return 0.0, level
            entered += 1
            if level > stats[DEEPEST]:
                stats[DEEPEST] = level
            state = states[level]
            if state[STATUS] != 0 or level == bottom:
                stats[EVALUATED] += 1
                value = utility(settings, state) if state[STATUS] != 0 else evaluate(distance, nearest, settings, state)
                mode = UP
                continue
            chosen = frames[level, CHOSEN]
            if use_table:
                entry = table_get(table, state, bottom - level, chosen)
                if entry >= 0:
                    stored, flag = table[3][entry], table[4][entry]
                    # A bound answers the node when it already lies outside the window.
                    if flag == EXACT or (pruned and ((flag == LOWER and stored > windows[level, BETA])
                                                     or (flag == UPPER and stored < windows[level, ALPHA]))):
                        value = stored
                        mode = UP
                        continue
            windows[level, ENTRY_ALPHA] = windows[level, ALPHA]
            windows[level, ENTRY_BETA] = windows[level, BETA]
            expand_node(maze, model, plan, work, bottom, level)
            mode = NEXT
            continue
        if mode == UP:
            if level == top:
                return value, -1
            level = frames[level, CALLER]
            finished, value = _receive(pruned, probabilities, lower, upper, frames, windows, level, value, stats)
        else:  # mode == NEXT: the node at `level` enters its next child, or finishes.
            finished, value, child = next_child(maze, model, work, level, bottom)
            if finished == 0:
                frames[child, CALLER] = level
                level = child
                mode = ENTER
                continue
        # One call of each below: numba inlines the table's code at every call (seconds of compiling each).
        if finished < 0:
            stats[OUT_OF_BOUNDS] = 1
            return np.nan, FAILED
        if finished:
            _store(use_table, pruned, table, states, frames, windows, level, bottom, value)
        mode = UP if finished else NEXT


@uncounted(inline=True)
def _store(use_table, pruned, table, states, frames, windows, level, bottom, value):
    """The finished node's table entry, flagged by the window it was entered with."""
    if not use_table:
        return
    flag = EXACT
    if pruned:
        if value < windows[level, ENTRY_ALPHA]:
            flag = UPPER
        elif value > windows[level, ENTRY_BETA]:
            flag = LOWER
    table_put(table, states[level], bottom - level, frames[level, CHOSEN], value, flag)


@uncounted(inline=True)
def expand_node(maze, model, plan, work, bottom, level):
    """Set up the node at ``level``: its moves or outcomes, and its phase."""
    moves, settings, weights = maze.moves, model.settings, model.weights
    states, actions, targets, probabilities = work.states, work.actions, work.targets, work.probabilities
    lower, upper, frames, windows, stats = work.lower, work.upper, work.frames, work.windows, work.stats
    state = states[level]
    chosen = frames[level, CHOSEN]
    if chosen >= 0:  # SlipperyPacmanGame's Intent: the floor decides what Pacman does
        count = slip_outcomes(moves[state[PACMAN], PACMAN_TABLE], weights[SLIP], chosen, actions[level], targets[level],
                              probabilities[level])
        kind = CHANCE_NODE
    else:
        count = legal_moves(moves, settings[NUM_GHOSTS], state, actions[level], targets[level])
        kind = settings[KINDS + state[TURN]]
    frames[level, COUNT] = count
    frames[level, KIND] = kind
    frames[level, INDEX] = 0
    if kind != CHANCE_NODE:
        frames[level, PHASE] = MOVES
        windows[level, BEST] = -np.inf if kind == MAX_NODE else np.inf
        return
    stats[GENERATED] += count
    if chosen < 0 and settings[MODEL] == MODEL_ADVERSARIAL:
        adversarial_probabilities(maze, weights, plan.adversary, state, count, probabilities[level])
    elif chosen < 0:
        chance_probabilities(maze, settings, weights, state, count, actions[level], targets[level], probabilities[level])
    if settings[PRUNED] == 0:
        frames[level, PHASE] = SUM
        windows[level, BEST] = 0.0  # summed in move order from 0, as the Python search does
        return
    if count == 1 and probabilities[level, 0] == 1.0:
        frames[level, PHASE] = FORCED  # a forced outcome: the node is its successor, window and all
        return
    # StarSearch.setup: the chance node's own bounds bound every successor.
    mass = 0.0
    for index in range(count):
        mass += probabilities[level, index]
    low, high = chance_bounds(maze, settings, stats, state, bottom - level)
    for index in range(count):
        lower[level, index] = low
        upper[level, index] = high
    windows[level, LOWER_SUM] = mass * low
    windows[level, UPPER_SUM] = mass * high
    if plan.star == STAR2:
        frames[level, PHASE] = PROBING
        if level + 1 > stats[DEEPEST]:
            stats[DEEPEST] = level + 1
    else:
        _start_star1(frames, windows, level)


@uncounted()
def adversarial_probabilities(maze, weights, adversary, state, count, out):
    """PacmanGame.outcomes with the adversarial ghost as the model: its
    ``distribution`` (uniform over the moves its chase search values best,
    mixed with uniform by its ``p``) mixed with uniform by ``trust``, in
    the same float operations.  The chase search is kernel.search_root in
    the adversary's own rows, whole (it does not pause), unless its values
    at this position are in the adversary's memo (:mod:`pacsim.fast.memo`)."""
    chase = adversary.work
    chase_states, chase_values, chase_stats = chase.states, chase.values, chase.stats
    levels, num_ghosts = adversary.levels[0], adversary.model.settings[NUM_GHOSTS]
    slot = memo_slot(adversary.memo, state, levels, num_ghosts)
    if not recall(adversary.memo, slot, state, levels, num_ghosts, chase_values):
        adversary.model.settings[CHASE_GHOST] = state[TURN]
        for column in range(state.shape[0]):
            chase_states[0, column] = state[column]
        for column in range(chase_stats.shape[0]):
            chase_stats[column] = 0
        chase_stats[BEST_MOVE] = chase_stats[PAUSED_AT] = -1
        # np.bool_, not True: numba would compile a second plain search typed for the literal
        search_root(maze, adversary.model, levels, np.bool_(True), chase, np.int64(1) << 62)
        remember(adversary.memo, slot, state, levels, num_ghosts, chase_values)
    best = chase_values[ROOT_VALUE]
    best_count = 0
    for index in range(count):
        if chase_values[index] == best:
            best_count += 1
    share = 1.0 / best_count  # agents.api.uniform over the best moves
    mix = adversary.mix[0]
    spread = (1.0 - mix) / count
    trust = weights[TRUST]
    uniform_share = (1.0 - trust) / count
    for index in range(count):
        searched = share if chase_values[index] == best else 0.0
        probability = searched if mix == 1.0 else mix * searched + spread
        out[index] = trust * probability + uniform_share


@uncounted(inline=True)
def _start_star1(frames, windows, level):
    frames[level, PHASE] = SEARCHING
    frames[level, INDEX] = 0
    windows[level, REST_LOWER] = windows[level, LOWER_SUM]
    windows[level, REST_UPPER] = windows[level, UPPER_SUM]
    windows[level, BEST] = 0.0  # Star1's total over the successors searched


@uncounted(inline=True)
def _receive(pruned, probabilities, lower, upper, frames, windows, level, value, stats):
    """The node at ``level`` takes ``value``, its current child's (or probe's).
    Returns ``(finished, node value)``: finished 1 when the node is done
    (its value then returned), 0 to go on, -1 when a value left its bounds."""
    phase = frames[level, PHASE]
    index = frames[level, INDEX]
    frames[level, INDEX] = index + 1
    if phase == MOVES:
        if frames[level, KIND] == MAX_NODE:
            if value > windows[level, BEST]:
                windows[level, BEST] = value
                if pruned:
                    if value > windows[level, BETA]:
                        stats[CUTOFFS] += 1
                        return 1, value
                    if value > windows[level, ALPHA]:
                        windows[level, ALPHA] = value
        elif value < windows[level, BEST]:
            windows[level, BEST] = value
            if pruned:
                if value < windows[level, ALPHA]:
                    stats[CUTOFFS] += 1
                    return 1, value
                if value < windows[level, BETA]:
                    windows[level, BETA] = value
        return 0, 0.0
    if phase == SUM:
        windows[level, BEST] += probabilities[level, index] * value
        return 0, 0.0
    if phase == FORCED:
        return 1, value
    probability = probabilities[level, index]
    low, high = lower[level, index], upper[level, index]
    if phase == PROBING:
        if frames[level, PROBED] == MAX_NODE:
            # Unless it failed low, the first move's value bounds the MAX successor from below.
            if value >= windows[level, CHILD_ALPHA]:
                if beyond(value, low, high):
                    return -1, 0.0
                if value > low:
                    lower[level, index] = value
                    windows[level, LOWER_SUM] += probability * (value - low)
        elif value <= windows[level, CHILD_BETA]:
            if beyond(value, low, high):
                return -1, 0.0
            if value < high:
                upper[level, index] = value
                windows[level, UPPER_SUM] += probability * (value - high)
        return _probe_cut(windows, level, stats)
    # SEARCHING: Star1's successor came back.
    if beyond(value, low, high):
        return -1, 0.0
    if value < windows[level, CHILD_ALPHA]:
        stats[CUTOFFS] += 1
        return 1, windows[level, BEST] + probability * value + windows[level, REST_UPPER]
    if value > windows[level, CHILD_BETA]:
        stats[CUTOFFS] += 1
        return 1, windows[level, BEST] + probability * value + windows[level, REST_LOWER]
    windows[level, BEST] += probability * value
    return 0, 0.0


@uncounted(inline=True)
def _probe_cut(windows, level, stats):
    """Star2: stop when the bounds' sums already leave the window."""
    if windows[level, LOWER_SUM] > windows[level, BETA]:
        stats[CUTOFFS] += 1
        return 1, windows[level, LOWER_SUM]
    if windows[level, UPPER_SUM] < windows[level, ALPHA]:
        stats[CUTOFFS] += 1
        return 1, windows[level, UPPER_SUM]
    return 0, 0.0


@uncounted(inline=True)
def next_child(maze, model, work, level, bottom):
    """Set up the next child (or probe) of the node at ``level`` in its row:
    ``(0, 0.0, child level)``; or ``(1, value, 0)`` when the node is done;
    ``(-1, nan, 0)`` when a probed leaf left its bounds."""
    distance, nearest, ghost_starts = maze.distance, maze.nearest, maze.ghost_starts
    settings, weights = model.settings, model.weights
    states, probabilities, lower, upper = work.states, work.probabilities, work.lower, work.upper
    frames, windows, stats = work.frames, work.windows, work.stats
    phase = frames[level, PHASE]
    index = frames[level, INDEX]
    count = frames[level, COUNT]
    child = level + 1
    if phase <= FORCED:  # MOVES, SUM or FORCED: each child in turn
        if index >= count:
            return 1, windows[level, BEST], 0
        if phase == MOVES:
            stats[GENERATED] += 1
        step_down(ghost_starts, settings, weights, work, level, index, frames[level, KIND])
        windows[child, ALPHA] = windows[level, ALPHA]
        windows[child, BETA] = windows[level, BETA]
        return 0, 0.0, child
    alpha, beta = windows[level, ALPHA], windows[level, BETA]
    while True:
        if index >= count:
            if phase == SEARCHING:
                return 1, windows[level, BEST], 0
            _start_star1(frames, windows, level)  # every successor probed: Star1 next
            phase = SEARCHING
            index = 0
            continue
        probability = probabilities[level, index]
        if probability == 0.0:  # adds nothing to the value whatever it is worth
            index += 1
            continue
        low, high = lower[level, index], upper[level, index]
        successor = states[child]
        if phase == PROBING:
            step_down(ghost_starts, settings, weights, work, level, index, CHANCE_NODE)
            if successor[STATUS] != 0 or child == bottom:
                # A leaf costs as much to probe as to search: pinned to its value.
                stats[EVALUATED] += 1
                if successor[STATUS] != 0:
                    leaf = utility(settings, successor)
                else:
                    leaf = evaluate(distance, nearest, settings, successor)
                if leaf < low or leaf > high:
                    return -1, np.nan, 0
                lower[level, index] = upper[level, index] = leaf
                windows[level, LOWER_SUM] += probability * (leaf - low)
                windows[level, UPPER_SUM] += probability * (leaf - high)
            else:
                mover = settings[KINDS + successor[TURN]]
                # A MAX successor's probe can only cut if the node may still end
                # above beta, a MIN one's if it may end below alpha.
                if (mover == MAX_NODE and windows[level, UPPER_SUM] > beta) or (
                        mover != MAX_NODE and mover != CHANCE_NODE and windows[level, LOWER_SUM] < alpha):
                    _probe(maze, model, work, level, probability, low, high, mover)
                    frames[level, INDEX] = index
                    return 0, 0.0, child + 1
            finished, value = _probe_cut(windows, level, stats)
            if finished:
                return 1, value, 0
            index += 1
            continue
        # SEARCHING: Star1 (pacsim.search.star.StarSearch.star1).
        windows[level, REST_LOWER] -= probability * low
        windows[level, REST_UPPER] -= probability * high
        total = windows[level, BEST]
        child_alpha = (alpha - total - windows[level, REST_UPPER]) / probability
        child_beta = (beta - total - windows[level, REST_LOWER]) / probability
        if child_alpha > high:
            # Even at its upper bound this successor leaves the node below alpha.
            stats[CUTOFFS] += 1
            return 1, total + probability * high + windows[level, REST_UPPER], 0
        if child_beta < low:
            stats[CUTOFFS] += 1
            return 1, total + probability * low + windows[level, REST_LOWER], 0
        if low == high:  # pinned (a probed leaf, or bounds that leave no room)
            windows[level, BEST] = total + probability * low
            index += 1
            continue
        step_down(ghost_starts, settings, weights, work, level, index, CHANCE_NODE)
        windows[level, CHILD_ALPHA] = child_alpha
        windows[level, CHILD_BETA] = child_beta
        # Clipped to the successor's bounds; only leaving the unclipped window
        # moves the node across alpha or beta.
        windows[child, ALPHA] = low if child_alpha < low else child_alpha
        windows[child, BETA] = high if child_beta > high else child_beta
        frames[level, INDEX] = index
        return 0, 0.0, child


@uncounted(inline=True)
def _probe(maze, model, work, level, probability, low, high, mover):
    """StarSearch.probe: write the first move of the successor at
    ``level + 1`` into the row below it, with the probe's window."""
    settings, states, windows, frames, stats = model.settings, work.states, work.windows, work.frames, work.stats
    child = level + 1
    legal_moves(maze.moves, settings[NUM_GHOSTS], states[child], work.actions[child], work.targets[child])
    probe_alpha = (windows[level, ALPHA] - windows[level, UPPER_SUM] + probability * high) / probability
    probe_beta = (windows[level, BETA] - windows[level, LOWER_SUM] + probability * low) / probability
    if probe_alpha < low:
        probe_alpha = low
    if probe_beta > high:
        probe_beta = high
    stats[GENERATED] += 1
    step_down(maze.ghost_starts, settings, model.weights, work, child, 0, mover)
    windows[child + 1, ALPHA] = windows[level, CHILD_ALPHA] = probe_alpha
    windows[child + 1, BETA] = windows[level, CHILD_BETA] = probe_beta
    frames[level, PROBED] = mover


@uncounted()
def star_search_root(maze, model, plan, levels, full_window, work, budget):
    """pacsim.search.search's root, as :func:`pacsim.fast.kernel.search_root`
    (same arguments, results and slices), over :func:`star_value`; a
    finished search stores the root's value in the table, as Python's does."""
    settings, states, values, stats = model.settings, work.states, work.values, work.stats
    if root_leaf_value(maze.distance, maze.nearest, settings, states[0], levels, values, stats):
        return True
    count = legal_moves(maze.moves, settings[NUM_GHOSTS], states[0], work.actions[0], work.targets[0])
    while stats[NEXT_MOVE] < count:
        level = root_move_level(maze.ghost_starts, model, full_window, work)
        found, paused = star_value(maze, model, plan, work, 1, level, levels, budget)
        if paused == FAILED:
            return True
        stats[PAUSED_AT] = paused
        if paused >= 0:
            return False
        root_move_searched(settings, states, values, stats, found)
    if plan.use_table:
        table_put(plan.table, states[0], levels, -1, values[ROOT_VALUE], EXACT)
    return True


# The star search inlines the kernel's rules, the table's operations and
# the Python star search's ``beyond`` (pacsim.fast.cache): its cache must go
# when those files change.
keep_fresh("star", lambda: compiled_functions(__name__, globals()), [*kernel.SOURCES, transposition.__file__, memo.__file__, python_star.__file__])
