"""The compiled kernel: pacsim's rules and searches over small integer arrays.

Everything here is numba ``@njit(cache=True)`` code over the rules and
evaluations written once (:mod:`pacsim.fast.policies`,
:mod:`pacsim.fast.evaluations`, the scoring rules of
:mod:`pacsim.engine.state`), and mirrors a piece of the readable Python it
must agree with where the two read different states:

* :func:`legal_moves` and :func:`apply_move` are ``GameState.legal_moves``
  and ``pacsim.engine.state.apply_move`` over an int64 row;
* :func:`evaluate` and :func:`utility` are the ``score`` and ``careful``
  evaluations of ``pacsim.agents.evaluation`` and the adversarial ghost's
  ``ChaseGame``, reading the row for the shared arithmetic;
* :func:`node_value` and :func:`search_root` are ``pacsim.search``'s plain
  search (minimax, expectimax, expectiminimax) and alpha-beta, counting
  nodes the same way and breaking ties the same way.

Floating-point values are computed with the same operations in the same
order as the Python code, so they are equal bit for bit, not just close.

The functions called at every node are inlined by numba itself
(``inline="always"``): left to LLVM, a larger search loop stopped inlining
them and lost a fifth of its speed.

A state is one int64 row (see :mod:`pacsim.fast.maze_arrays` for the layout of
its slots); a search keeps one row per tree level and writes each child
into the row below its parent, so it allocates nothing per node.
"""

from __future__ import annotations

import numpy as np

from pacsim.engine.layout import UNREACHABLE
from pacsim.engine.state import SCARED_TIME, TIME_PENALTY, collision, food_eaten
from pacsim.fast import subtree_memo
from pacsim.fast.cache import compiled_functions, keep_fresh
from pacsim.fast.evaluations import careful_value, chase_utility, chase_value
from pacsim.fast.jit import intrinsic, njit, when_compiling
from pacsim.fast.kinds import Evaluation, GhostKind, NodeKind
from pacsim.fast.policies import PARAMETERS, RULE_SOURCES, compile_rules, ghost_probabilities, slip_outcomes, uniform_probabilities
from pacsim.fast.policies import STOP_INDEX as STOP
from pacsim.fast.subtree_memo import SUBTREE_DEPTH, SUBTREE_EVALUATED, SUBTREE_GENERATED, holds, keep, subtree_slot

when_compiling(compile_rules)

# The kinds' numbers as plain ints for compiled code: numba folds a module's
# int globals into constants, as it would not an enum member in every case
# (bench: a search comparing with enum members ran a fifth slower).
MAX_NODE, MIN_NODE, CHANCE_NODE = int(NodeKind.MAX), int(NodeKind.MIN), int(NodeKind.CHANCE)
EVAL_SCORE, EVAL_CAREFUL, EVAL_CHASE = int(Evaluation.SCORE), int(Evaluation.CAREFUL), int(Evaluation.CHASE)
MODEL_UNIFORM, MODEL_ADVERSARIAL, MODEL_OWN = int(GhostKind.UNIFORM), int(GhostKind.ADVERSARIAL), int(GhostKind.OWN)

# -- state slots (the order of pacsim.engine.state.GameState's int fields) --
PACMAN, TURN, STATUS, SCORE, FOOD_LEFT = 0, 1, 2, 3, 4
FIRST_GHOST = 5
"""Ghost cells start here; then directions (Pacman's first), scared timers,
food words, capsule words (offsets below, by number of ghosts and words)."""
WORD_BITS_SHIFT = 5
"""Food and capsules are bitsets of 32-bit chunks held in int64 slots: no
sign bit is ever touched, so the bit operations need no unsigned type."""
WORD_MASK = 31

# -- statistics slots --------------------------------------------------------
GENERATED, EVALUATED, CUTOFFS, DEEPEST = 0, 1, 2, 3
NEXT_MOVE, BEST_MOVE, PAUSED_AT = 4, 5, 6
"""Where a paused search stands: the root move being searched, the best
so far (-1: none yet) and the level it paused at (-1: between root moves)."""
STATS_SLOTS = 7
ROOT_VALUE = 5
"""Slot of the root's value in ``values`` (after the root moves' values)."""


# -- settings slots: what a search assumes (int64 array, then float64) -----
EVALUATION, CHASE_GHOST, MODEL, PRUNED, NUM_GHOSTS, WORDS, KINDS = 0, 1, 2, 3, 4, 5, 6
"""``settings[KINDS + agent]`` is the node kind of each agent (Pacman first)."""
TRUST, SLIP, MODEL_PARAMETERS = 0, 1, 2
"""Slots of the float ``weights``: the model's trust, a slippery Pacman's
slip (0: he never slips), then the model ghost's parameters
(:data:`pacsim.fast.policies.PARAMETERS`)."""
WEIGHTS = MODEL_PARAMETERS + len(PARAMETERS)

# -- move table: moves[cell, table] = [count, action, target, action, target, ...]
PACMAN_TABLE = 0
"""Table 0 is Pacman's moves; table 1 + d the moves of a ghost heading d."""

# -- search stack columns ----------------------------------------------------
COUNT, INDEX, KIND, CHOSEN = 0, 1, 2, 3
"""Columns of ``frames`` (int64): moves of the node, the move being
searched, the node's kind, and the action a slippery Pacman chose (-1 for
every node but the chance node between his choice and its outcome)."""
MEMO_SLOT, ENTRY_GENERATED, ENTRY_EVALUATED, ENTRY_DEEPEST = 4, 5, 6, 7
"""More columns of ``frames``: the subtree memo's slot of a node to
remember once searched (-1: none), and the statistics when it was entered
(:mod:`pacsim.fast.subtree_memo`)."""
FRAME_COLUMNS = 8
BEST, ALPHA, BETA = 0, 1, 2
"""Columns of ``windows`` (float64): best value so far (MAX/MIN) or the
probability-weighted sum (CHANCE), and the node's window."""


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

@njit(cache=True, inline="always")
def legal_moves(moves, num_ghosts, state, actions, targets):
    """Write the legal (action, target) moves of the agent to move into
    ``actions``/``targets``; return their number (0 once the game is over)."""
    if state[STATUS] != 0:
        return 0
    turn = state[TURN]
    if turn == 0:
        cell = state[PACMAN]
        table = PACMAN_TABLE
    else:
        cell = state[FIRST_GHOST + turn - 1]
        if state[scared_slot(num_ghosts) + turn - 1] & 1:
            # Half speed: a scared ghost waits on odd timer values.
            actions[0] = STOP
            targets[0] = cell
            return 1
        table = 1 + state[directions_slot(num_ghosts) + turn]
    row = moves[cell, table]
    count = row[0]
    for index in range(count):
        actions[index] = row[1 + 2 * index]
        targets[index] = row[2 + 2 * index]
    return count


@njit(cache=True, inline="always")
def apply_move(ghost_starts, num_ghosts, words, parent, child, action, target):
    """Write into ``child`` the successor of ``parent`` after the agent to
    move goes to ``target`` by ``action`` (unchecked, as the Python one)."""
    for slot in range(parent.shape[0]):  # a loop: slice assignment costs seconds of compilation
        child[slot] = parent[slot]
    if parent[TURN] == 0:
        _pacman_moves_to(ghost_starts, num_ghosts, words, child, action, target)
    else:
        _ghost_moves_to(ghost_starts, num_ghosts, child, action, target)


@njit(cache=True)
def _pacman_moves_to(ghost_starts, num_ghosts, words, state, action, target):
    scared_at = scared_slot(num_ghosts)
    food_at = food_slot(num_ghosts)
    capsules_at = food_at + words
    word = target >> WORD_BITS_SHIFT
    bit = np.int64(1) << (target & WORD_MASK)
    state[SCORE] -= TIME_PENALTY
    if state[food_at + word] & bit:
        state[food_at + word] ^= bit
        state[FOOD_LEFT] -= 1
        state[SCORE], state[STATUS] = food_eaten(state[SCORE], state[FOOD_LEFT])
    if state[capsules_at + word] & bit:
        state[capsules_at + word] ^= bit
        for ghost in range(num_ghosts):
            state[scared_at + ghost] = SCARED_TIME
    directions_at = directions_slot(num_ghosts)
    for ghost in range(num_ghosts):
        if state[FIRST_GHOST + ghost] != target:
            continue
        state[SCORE], state[STATUS], eaten = collision(state[scared_at + ghost], state[SCORE], state[STATUS])
        if eaten:  # back to its start, unscared
            state[FIRST_GHOST + ghost] = ghost_starts[ghost]
            state[directions_at + ghost + 1] = STOP
            state[scared_at + ghost] = 0
    state[directions_at] = action
    state[PACMAN] = target
    state[TURN] = 1 if num_ghosts > 0 and state[STATUS] == 0 else 0


@njit(cache=True)
def _ghost_moves_to(ghost_starts, num_ghosts, state, action, target):
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
        state[SCORE], state[STATUS], eaten = collision(timer, state[SCORE], state[STATUS])
        if eaten:  # back to its start, unscared
            state[FIRST_GHOST + index] = ghost_starts[index]
            state[direction_at] = STOP
            state[timer_at] = 0
    state[TURN] = turn + 1 if turn < num_ghosts else 0


@njit(cache=True)
def perft(moves, ghost_starts, num_ghosts, words, root, levels):
    """Successors created by a full expansion of ``levels`` levels (the
    benchmark's ``successor_rate`` count).  Iterative, as every search here:
    numba's cache cannot reload recursive functions."""
    states = np.empty((levels + 1, root.shape[0]), np.int64)
    for slot in range(root.shape[0]):
        states[0, slot] = root[slot]
    actions = np.empty((levels + 1, 5), np.int64)
    targets = np.empty((levels + 1, 5), np.int64)
    count = np.zeros(levels + 1, np.int64)
    index = np.zeros(levels + 1, np.int64)
    total = 0
    level = 0
    count[0] = legal_moves(moves, num_ghosts, states[0], actions[0], targets[0]) if levels > 0 else 0
    while True:
        if index[level] == count[level]:
            if level == 0:
                return total
            level -= 1
            continue
        move = index[level]
        index[level] += 1
        child = states[level + 1]
        apply_move(ghost_starts, num_ghosts, words, states[level], child, actions[level, move], targets[level, move])
        total += 1
        if level + 1 < levels and child[STATUS] == 0:
            level += 1
            count[level] = legal_moves(moves, num_ghosts, child, actions[level], targets[level])
            index[level] = 0


# -- evaluations -------------------------------------------------------------

@njit(cache=True, inline="always")
def utility(settings, state):
    """The value of a finished game: the score, or the chasing ghosts' payoff."""
    if settings[EVALUATION] == EVAL_CHASE:
        return chase_utility(state[STATUS])
    return float(state[SCORE])


@njit(cache=True, inline="always")
def evaluate(distance, nearest, settings, state):
    """``score``, ``careful`` or the chasing ghost's distance term."""
    evaluation = settings[EVALUATION]
    if evaluation == EVAL_SCORE:
        return float(state[SCORE])
    num_ghosts = settings[NUM_GHOSTS]
    if evaluation == EVAL_CHASE:
        ghost = settings[CHASE_GHOST] - 1
        return chase_value(distance[state[PACMAN], state[FIRST_GHOST + ghost]], state[scared_slot(num_ghosts) + ghost])
    return careful(distance, nearest, num_ghosts, state)


@njit(cache=True, inline="always")
def careful(distance, nearest, num_ghosts, state):
    """pacsim.agents.evaluation.careful: the nearest food is the first cell
    with food in Pacman's cells by distance (``nearest[pacman]``)."""
    pacman = state[PACMAN]
    food_at = food_slot(num_ghosts)
    order = nearest[pacman]
    closest = UNREACHABLE
    for rank in range(order.shape[0]):
        cell = order[rank]
        if (state[food_at + (cell >> WORD_BITS_SHIFT)] >> (cell & WORD_MASK)) & 1:
            closest = distance[pacman, cell]
            break
    scared_at = scared_slot(num_ghosts)
    return careful_value(state[SCORE], closest, distance[pacman], state[FIRST_GHOST:FIRST_GHOST + num_ghosts],
                         state[scared_at:scared_at + num_ghosts], num_ghosts)


# -- ghost models ------------------------------------------------------------

OWN_GHOST_FAILED = WEIGHTS
"""The weight slot, past the others, of a model that is a user's own ghost
(``GhostKind.OWN``: its weights have one slot more) where the search notes
that the policy gave a distribution :func:`~pacsim.fast.policies.first_bad_probability`
refuses; Python then searches again, and raises the policy's error at the same move."""


@njit(cache=True, inline="always")
def chance_probabilities(maze, settings, weights, state, count, actions, targets, out):
    """The searching Pacman's probabilities of the ghost's ``count`` moves,
    as ``PacmanGame.outcomes`` computes them (same float operations):
    uniform without a model, else :func:`modelled_probabilities`.  (A
    user's own ghost's: :func:`own_chance_probabilities`, which the copies
    of :mod:`pacsim.fast.own` call in its place.)"""
    if settings[MODEL] == MODEL_UNIFORM:  # the common case, kept small enough to inline
        share = 1.0 / count
        for index in range(count):
            out[index] = share
        return
    modelled_probabilities(maze.moves, maze.distance, settings, weights, state, count, targets, out)


@intrinsic
def never_inlined(typing_context):
    """Keep the compiled function that calls this out of its callers: numba
    has no ``noinline``, so this sets LLVM's on the function being compiled."""
    from numba import types

    def generate(context, builder, signature, arguments):
        builder.function.attributes.add("noinline")
        return context.get_dummy_value()
    return types.none(), generate


@njit(cache=True, _nrt=False)
def modelled_probabilities(moves, distance, settings, weights, state, count, targets, out):
    """The model ghost's own probabilities
    (:func:`pacsim.fast.policies.ghost_probabilities`) mixed with uniform by
    ``trust``.  Never inlined: in the search loops its code slowed alpha-beta
    by a third (bench: depth 6, careful), though it runs at chance nodes only."""
    never_inlined()
    turn = state[TURN]
    num_ghosts = settings[NUM_GHOSTS]
    scared = state[scared_slot(num_ghosts) + turn - 1] > 0
    ghost_probabilities(settings[MODEL], distance, moves[:, PACMAN_TABLE], state[PACMAN],
                        state[directions_slot(num_ghosts)], scared, targets, count, weights[MODEL_PARAMETERS:], out)
    mixed_with_uniform(weights[TRUST], count, out)


@njit(cache=True, inline="always")
def mixed_with_uniform(trust, count, out):
    """``out`` weighted by ``trust``, the rest spread uniformly (``PacmanGame.outcomes``)."""
    uniform_share = (1.0 - trust) / count
    for index in range(count):
        out[index] = trust * out[index] + uniform_share


@njit(cache=True, _nrt=False)
def own_chance_probabilities(maze, settings, weights, state, count, actions, targets, out):
    """:func:`chance_probabilities` when the model is a user's own ghost
    (``GhostKind.OWN``): :func:`own_ghost_probabilities` mixed with uniform
    by ``trust``; a refused distribution is noted in the weights
    (:data:`OWN_GHOST_FAILED`).  The copies of the search that
    :mod:`pacsim.fast.own` compiles for an own ghost call this in place of
    :func:`chance_probabilities` (the built-in searches never do: giving
    their chance model what an own ghost needs slowed them by a tenth to a
    fifth, bench: expectimax at depth 5 and alpha-beta at 6, careful)."""
    never_inlined()
    if own_ghost_probabilities(maze, settings, state, count, actions, targets, out) >= 0:
        weights[OWN_GHOST_FAILED] = 1.0
        uniform_probabilities(count, out)  # the search goes on, defined, and is thrown away
    mixed_with_uniform(weights[TRUST], count, out)


@njit(cache=True, _nrt=False)
def own_ghost_probabilities(maze, settings, state, count, actions, targets, out):
    """A user's own ghost (``GhostKind.OWN``) at ``state``, its ghost to
    move with the ``count`` legal ``actions``/``targets``: its probabilities
    into ``out``; returns :func:`~pacsim.fast.policies.first_bad_probability`'s
    verdict (-1: sound).  Here a placeholder that refuses: the searches and
    game loops that play an own ghost are copies
    (:mod:`pacsim.fast.own`) with this replaced by the compiled policy."""
    return 0


@njit(cache=True, inline="always")
def own_ghost_failed(weights):
    """Whether a search with these model weights met a bad distribution of
    a user's own ghost (:data:`OWN_GHOST_FAILED`)."""
    return weights.shape[0] > OWN_GHOST_FAILED and weights[OWN_GHOST_FAILED] != 0.0


# -- search ------------------------------------------------------------------

@njit(cache=True, inline="always")
def step_down(ghost_starts, settings, weights, work, level, move, kind):
    """Write the child of the node at ``level`` by its ``move`` into the row
    below: the successor, or for a slippery Pacman's choice (a MAX node of
    Pacman with ``weights[SLIP]``) the same state with the chosen action
    noted: SlipperyPacmanGame's Intent, a chance node.  ``work`` is a
    :class:`~pacsim.fast.bundles.Workspace` or ``StarWorkspace``."""
    num_ghosts = settings[NUM_GHOSTS]
    words = settings[WORDS]
    states, actions, targets, frames = work.states, work.actions, work.targets, work.frames
    parent = states[level]
    child = states[level + 1]
    if kind == MAX_NODE and weights[SLIP] > 0.0 and parent[TURN] == 0:
        for slot in range(parent.shape[0]):
            child[slot] = parent[slot]
        frames[level + 1, CHOSEN] = actions[level, move]
    else:
        apply_move(ghost_starts, num_ghosts, words, parent, child, actions[level, move], targets[level, move])
        frames[level + 1, CHOSEN] = -1


# node_value and search_root allocate nothing, so they are compiled without
# numba's reference counting (its private ``_nrt=False``): the caller holds
# every array for the whole call, and the atomic counts of each row view and
# argument took about nine tenths of a search's time (bench: expectimax at
# depth 4, careful, 1.5 million nodes/s before, 17 to 20 million after).
@njit(cache=True, _nrt=False)
def node_value(maze, model, work, top, level, bottom, budget):
    """The value of ``states[top]`` searched down to level ``bottom``: the
    recursive ``value`` of pacsim.search.plain (``settings[PRUNED]`` 0) or
    of pacsim.search.pruned's alpha-beta (fail-soft, strict cut-offs).

    The recursion is unrolled onto the per-level rows of ``states``,
    ``frames`` and ``windows`` (numba's cache cannot reload a recursive
    function): the loop enters a node, and a leaf's value is handed up
    until a node has another move to search, which is then entered.  The
    caller sets the window of ``top`` (``windows[top, ALPHA/BETA]``).

    Returns ``(value, -1)``, or ``(0.0, level)`` after entering ``budget``
    nodes: the search pauses *before* entering the node at that level, with
    everything it needs in the arrays, and a call with that ``level`` goes
    on exactly where it stopped.  Numba code cannot see signals or clocks,
    so pausing is how the caller gets to check its deadline and let a
    Ctrl-C through.  (``maze`` is a :class:`~pacsim.fast.maze_arrays.Tables`,
    ``model`` and ``work`` bundles of :mod:`pacsim.fast.bundles`.)"""
    moves, distance, nearest, ghost_starts = maze.moves, maze.distance, maze.nearest, maze.ghost_starts
    settings, weights = model.settings, model.weights
    states, actions, targets, probabilities = work.states, work.actions, work.targets, work.probabilities
    frames, windows, stats = work.frames, work.windows, work.stats
    num_ghosts = settings[NUM_GHOSTS]
    pruned = settings[PRUNED] != 0
    entered = 0
    while True:
        # -- enter the node at `level` --
        if entered == budget:
            return 0.0, level
        entered += 1
        if level > stats[DEEPEST]:
            stats[DEEPEST] = level
        state = states[level]
        chosen = frames[level, CHOSEN]
        leaf = state[STATUS] != 0 or level == bottom
        slot = -1 if leaf or pruned else subtree_slot(work.memo, state, bottom - level, chosen)  # leaves: no hash
        if leaf:
            stats[EVALUATED] += 1
            if state[STATUS] != 0:
                value = utility(settings, state)
            else:
                value = evaluate(distance, nearest, settings, state)
        elif slot >= 0 and holds(work.memo, slot, state, bottom - level, chosen):
            value = recalled(work.memo, slot, stats, level)
        else:
            entered_subtree(frames, stats, level, slot)
            if chosen >= 0:  # SlipperyPacmanGame's Intent: the floor decides what Pacman does
                count = slip_outcomes(moves[state[PACMAN], PACMAN_TABLE], weights[SLIP], chosen, actions[level],
                                      targets[level],
                                      probabilities[level])
                kind = CHANCE_NODE
            else:
                count = legal_moves(moves, num_ghosts, state, actions[level], targets[level])
                kind = settings[KINDS + state[TURN]]
            frames[level, COUNT] = count
            frames[level, KIND] = kind
            frames[level, INDEX] = 0
            if kind == CHANCE_NODE:
                stats[GENERATED] += count
                if chosen < 0:
                    chance_probabilities(maze, settings, weights, state, count, actions[level], targets[level],
                                         probabilities[level])
                windows[level, BEST] = 0.0  # summed in move order from 0, as the Python search does
            else:
                stats[GENERATED] += 1
                windows[level, BEST] = -np.inf if kind == MAX_NODE else np.inf
            step_down(ghost_starts, settings, weights, work, level, 0, kind)
            windows[level + 1, ALPHA] = windows[level, ALPHA]
            windows[level + 1, BETA] = windows[level, BETA]
            level += 1
            continue
        # -- hand `value` up until a node has another move to search --
        while level > top:
            level -= 1
            move = frames[level, INDEX]
            kind = frames[level, KIND]
            finished = move + 1 >= frames[level, COUNT]
            if kind == CHANCE_NODE:
                windows[level, BEST] += probabilities[level, move] * value
            elif kind == MAX_NODE:
                if value > windows[level, BEST]:
                    windows[level, BEST] = value
                    if pruned:
                        if value > windows[level, BETA]:
                            stats[CUTOFFS] += 1
                            finished = True
                        elif value > windows[level, ALPHA]:
                            windows[level, ALPHA] = value
            elif value < windows[level, BEST]:
                windows[level, BEST] = value
                if pruned:
                    if value < windows[level, ALPHA]:
                        stats[CUTOFFS] += 1
                        finished = True
                    elif value < windows[level, BETA]:
                        windows[level, BETA] = value
            if finished:
                value = windows[level, BEST]
                if frames[level, MEMO_SLOT] >= 0:
                    searched_subtree(work.memo, frames, stats, states[level], level, bottom, value)
                continue
            move += 1
            frames[level, INDEX] = move
            if kind != CHANCE_NODE:
                stats[GENERATED] += 1
            step_down(ghost_starts, settings, weights, work, level, move, kind)
            windows[level + 1, ALPHA] = windows[level, ALPHA]
            windows[level + 1, BETA] = windows[level, BETA]
            level += 1
            break
        else:
            return value, -1


@njit(cache=True, inline="always")
def recalled(memo, slot, stats, level):
    """The value of the node at ``level`` that ``memo`` holds in ``slot``,
    its subtree's counts added to ``stats`` as if it had been searched."""
    counts = memo.counts[slot]
    stats[GENERATED] += counts[SUBTREE_GENERATED]
    stats[EVALUATED] += counts[SUBTREE_EVALUATED]
    stats[DEEPEST] = max(stats[DEEPEST], level + counts[SUBTREE_DEPTH])
    return memo.values[slot]


@njit(cache=True, inline="always")
def entered_subtree(frames, stats, level, slot):
    """Note where the statistics stand as the node at ``level`` is
    expanded, to remember its subtree in ``slot`` (-1: not remembered)."""
    frames[level, MEMO_SLOT] = slot
    if slot >= 0:
        frames[level, ENTRY_GENERATED] = stats[GENERATED]
        frames[level, ENTRY_EVALUATED] = stats[EVALUATED]
        frames[level, ENTRY_DEEPEST] = stats[DEEPEST]
        stats[DEEPEST] = level  # the deepest level below this node alone, merged back once it is searched


@njit(cache=True, inline="always")
def searched_subtree(memo, frames, stats, state, level, bottom, value):
    """The node at ``level``, searched, is worth ``value``: remember it with
    what its subtree added to ``stats``."""
    keep(memo, frames[level, MEMO_SLOT], state, bottom - level, frames[level, CHOSEN], value,
         stats[GENERATED] - frames[level, ENTRY_GENERATED], stats[EVALUATED] - frames[level, ENTRY_EVALUATED],
         stats[DEEPEST] - level)
    stats[DEEPEST] = max(stats[DEEPEST], frames[level, ENTRY_DEEPEST])


@njit(cache=True, _nrt=False)
def search_root(maze, model, levels, full_window, work, budget):
    """pacsim.search.search's root, from ``states[0]``, in slices of at most
    ``budget`` nodes: True once finished, False when paused (call again
    with the same arrays to go on).  When finished, ``stats[BEST_MOVE]`` is
    the index of the best root move (-1 when there is none),
    ``values[ROOT_VALUE]`` the value and ``values[move]`` each root move's.

    ``full_window`` searches every root move with an infinite window (the
    plain searches, and ``root_values=True``); otherwise a pruned search
    searches each move after the first against the best so far.  Ties keep
    the earlier move.  The root must be a MAX or MIN node.  The arrays have
    ``levels + 2`` rows; ``stats`` starts with ``NEXT_MOVE`` 0,
    ``BEST_MOVE`` and ``PAUSED_AT`` -1."""
    settings, states, values, stats = model.settings, work.states, work.values, work.stats
    if root_leaf_value(maze.distance, maze.nearest, settings, states[0], levels, values, stats):
        return True
    # The root is a MAX or MIN node (a Pacman to move, or a chasing ghost):
    # node_value is called from one place only, which halves compilation.
    count = legal_moves(maze.moves, settings[NUM_GHOSTS], states[0], work.actions[0], work.targets[0])
    while stats[NEXT_MOVE] < count:
        level = root_move_level(maze.ghost_starts, model, full_window, work)
        found, paused = node_value(maze, model, work, 1, level, levels, budget)
        stats[PAUSED_AT] = paused
        if paused >= 0:
            return False
        root_move_searched(settings, states, values, stats, found)
    return True


@njit(cache=True, inline="always")
def root_leaf_value(distance, nearest, settings, root, levels, values, stats):
    """A root that is a leaf (the game over, or no level to search): its
    value into ``values[ROOT_VALUE]``, and True; False for any other root."""
    if root[STATUS] != 0:
        stats[EVALUATED] += 1
        values[ROOT_VALUE] = utility(settings, root)
        return True
    if levels == 0:
        stats[EVALUATED] += 1
        values[ROOT_VALUE] = evaluate(distance, nearest, settings, root)
        return True
    return False


@njit(cache=True, inline="always")
def root_move_level(ghost_starts, model, full_window, work):
    """The level at which the search of root move ``stats[NEXT_MOVE]``
    goes on: where it paused, or 1 for a move not yet started (its child
    then written below the root, with its window: a pruned search searches
    each move after the first against the best so far)."""
    settings, stats, windows, values = model.settings, work.stats, work.windows, work.values
    level = stats[PAUSED_AT]
    if level >= 0:
        return level
    kind = settings[KINDS + work.states[0, TURN]]
    step_down(ghost_starts, settings, model.weights, work, 0, stats[NEXT_MOVE], kind)
    stats[GENERATED] += 1
    windows[1, ALPHA], windows[1, BETA] = -np.inf, np.inf
    if not full_window and stats[BEST_MOVE] >= 0:
        if kind == MAX_NODE:
            windows[1, ALPHA] = values[ROOT_VALUE]
        else:
            windows[1, BETA] = values[ROOT_VALUE]
    return 1


@njit(cache=True, inline="always")
def root_move_searched(settings, states, values, stats, found):
    """Root move ``stats[NEXT_MOVE]`` is worth ``found``: the best so far
    if it beats it (ties keep the earlier move); on to the next."""
    index = stats[NEXT_MOVE]
    best_index = stats[BEST_MOVE]
    maximising = settings[KINDS + states[0, TURN]] == MAX_NODE
    values[index] = found
    if best_index < 0 or (found > values[ROOT_VALUE] if maximising else found < values[ROOT_VALUE]):
        stats[BEST_MOVE] = index
        values[ROOT_VALUE] = found
    stats[NEXT_MOVE] = index + 1


@njit(cache=True)
def breadth_first_distances(moves):
    """All-pairs maze distances (UNREACHABLE where there is no path)."""
    cells = moves.shape[0]
    distance = np.full((cells, cells), UNREACHABLE, np.int64)
    frontier = np.empty(cells, np.int64)
    for start in range(cells):
        reached = distance[start]
        reached[start] = 0
        frontier[0] = start
        head, tail = 0, 1
        while head < tail:
            cell = frontier[head]
            head += 1
            row = moves[cell, PACMAN_TABLE]
            for index in range(row[0]):
                target = row[2 + 2 * index]
                if reached[target] == UNREACHABLE:
                    reached[target] = reached[cell] + 1
                    frontier[tail] = target
                    tail += 1
    return distance


SOURCES = (__file__, subtree_memo.__file__, *RULE_SOURCES)
"""The files compiled into the kernel's code: the modules that compile
the kernel's functions into theirs list these among their own."""
keep_fresh("kernel", lambda: compiled_functions(__name__, globals()), SOURCES)
