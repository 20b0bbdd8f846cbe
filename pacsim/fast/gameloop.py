"""Whole games in the compiled kernel: ``pacsim.engine.game``'s loop with
the built-in agents, move for move, without returning to Python per move.

The agents are the kernel's own twins of the built-in ones:

* the search Pacman is :func:`pacsim.fast.kernel.search_root` with the
  agent's settings, breaking ties by the first move or, with
  ``ties=random``, by ``random.Random.choice`` on its own stream
  (``SearchPacman.get_action`` and ``tied_move``);
* the ghosts are ``RandomGhost``, ``DirectionalGhost`` and
  ``AdversarialGhost`` (any ``p``): their ``distribution`` computed with the
  same float operations, sampled as ``pacsim.agents.api.sample`` samples it
  (the adversarial ghost's search values remembered by position:
  :mod:`pacsim.fast.memo`; a game that cycles to the move cap searches
  each position of its cycle once).

Every agent's stream is Python's own Mersenne Twister, seeded in Python
(``agent_rng``) and carried here as its state (:mod:`pacsim.fast.streams`),
so the draws are the same numbers, bit for bit, and so is the game.

The loop pauses (returns False) after a move once a slice's node budget is
spent, or inside a search exactly as :func:`kernel.search_root` pauses;
everything needed to go on is in the arrays, and the next call goes on
where it stopped.  Python runs between slices, so a Ctrl-C stops a whole
game as it stops one search.
"""

from __future__ import annotations

import numpy as np

from pacsim.fast import kernel, memo, streams
from pacsim.fast.bundles import Model
from pacsim.fast.cache import compiled_functions, keep_fresh
from pacsim.fast.jit import intrinsic, njit
from pacsim.fast.kernel import (
    BEST_MOVE,
    GENERATED,
    MODEL_ADVERSARIAL,
    MODEL_OWN,
    PAUSED_AT,
    ROOT_VALUE,
    STATUS,
    TURN,
    legal_moves,
    own_ghost_failed,
    own_ghost_probabilities,
    search_root,
)
from pacsim.fast.memo import memo_slot, recall, recall_stats, remember, remember_stats
from pacsim.fast.policies import (
    PARAMETERS,
    SEARCHED_SHARE,
    ghost_probabilities,
    sample_index,
    searched_probabilities,
    uniform_probabilities,
)
from pacsim.fast.streams import random_below, random_float
from pacsim.fast.subtree_memo import new_generation

# -- a clock: the time-stamp counter (numba has no clock of its own) ------------

@intrinsic
def cycles(typing_context):
    """The processor's cycle counter; Python converts cycles to seconds by
    the wall time of the same slices."""
    from llvmlite import ir
    from numba import types

    def generate(context, builder, signature, arguments):
        counter = builder.module.declare_intrinsic("llvm.readcyclecounter", fnty=ir.FunctionType(ir.IntType(64), []))
        return builder.call(counter, [])
    return types.int64(), generate


# -- the game's progress (int64 slots) and outcomes ---------------------------
MOVES, ACTIONS_PLAYED, SEARCHING, OUTCOME, MOVE_CYCLES, SLICE_CYCLES = 0, 1, 2, 3, 4, 5
PROGRESS_SLOTS = 6
PLAYING, WIN, LOSS, TIMEOUT, DECLINED = 0, 1, 2, 3, 4
"""``DECLINED``: a position the kernel does not play (a ghost without a
legal move, or a user's own ghost giving a bad distribution: the Python
agents raise); Python plays the game instead, to the same error."""
PAUSED, REFUSED = -1, -2
"""What an agent's move is instead of a move's index: its search paused,
or a user's own ghost gave a distribution that is refused (the game is DECLINED)."""

# -- ghosts ------------------------------------------------------------------
GHOST_WEIGHTS = len(PARAMETERS)
"""A ghost's float weights are its :data:`pacsim.fast.policies.PARAMETERS`."""

# -- per Pacman move statistics (int64 columns) -----------------------------
MOVE_GENERATED, MOVE_EVALUATED, MOVE_CUTOFFS, MOVE_DEEPEST, MOVE_TIME = 0, 1, 2, 3, 4
MOVE_COLUMNS = 5


@njit(cache=True)
def _begin_search(state, states, frames, windows, values, stats, memo):
    """A fresh workspace with ``state`` at its root (``fast.translate.workspace``)."""
    new_generation(memo)
    for slot in range(state.shape[0]):
        states[0, slot] = state[slot]
    frames[:, :] = 0
    windows[:, :] = 0.0
    values[:] = 0.0
    stats[:] = 0
    stats[BEST_MOVE] = -1
    stats[PAUSED_AT] = -1


@njit(cache=True)
def search_position(maze, state, model, levels, full_window, work, progress, budget):
    """Search ``state`` (or go on with the search paused in ``work``): True once finished."""
    if progress[SEARCHING] == 0:
        _begin_search(state, work.states, work.frames, work.windows, work.values, work.stats, work.memo)
        progress[SEARCHING] = 1
    finished = search_root(maze, model, levels, full_window, work, budget)
    if finished:
        progress[SEARCHING] = 0
    return finished


@njit(cache=True)
def _best_moves(values, count, best_value, out):
    """The indices of the root moves worth exactly ``best_value``, in move
    order, into ``out``; returns their number."""
    found = 0
    for index in range(count):
        if values[index] == best_value:
            out[found] = index
            found += 1
    return found


@njit(cache=True)
def pacman_move(maze, game, count, pacman, work, budget, tied):
    """Pacman's search and choice (SearchPacman.get_action): the index of
    his move among his ``count`` legal ones, or PAUSED when the search paused (REFUSED: a
    user's own ghost he models gave a bad distribution)."""
    progress = game.progress
    before = cycles()
    num_ghosts = pacman.model.settings[kernel.NUM_GHOSTS]
    slot = memo_slot(pacman.memo, game.state, pacman.levels, num_ghosts)
    if progress[SEARCHING] == 0 and recall(pacman.memo, slot, game.state, pacman.levels, num_ghosts, work.values):
        recall_stats(pacman.memo, slot, work.stats)  # a position another game of this process searched
    else:
        if not search_position(maze, game.state, pacman.model, pacman.levels, pacman.full_window, work, progress,
                               budget):
            progress[MOVE_CYCLES] += cycles() - before
            return PAUSED
        if own_ghost_failed(pacman.model.weights):  # the own ghost he models gave a bad distribution
            return REFUSED
        remember(pacman.memo, slot, game.state, pacman.levels, num_ghosts, work.values)
        remember_stats(pacman.memo, slot, work.stats)
    progress[MOVE_CYCLES] += cycles() - before
    values, stats, move_stats = work.values, work.stats, game.move_stats
    move = progress[MOVES]
    move_stats[move, MOVE_GENERATED] = stats[GENERATED]
    move_stats[move, MOVE_EVALUATED] = stats[kernel.EVALUATED]
    move_stats[move, MOVE_CUTOFFS] = stats[kernel.CUTOFFS]
    move_stats[move, MOVE_DEEPEST] = stats[kernel.DEEPEST]
    move_stats[move, MOVE_TIME] = progress[MOVE_CYCLES]
    game.move_values[move] = values[ROOT_VALUE]
    progress[MOVE_CYCLES] = 0
    if pacman.ties_random:  # SearchPacman.tied_move: random.choice among the root moves worth the root's value
        found = _best_moves(values, count, values[ROOT_VALUE], tied)
        if found > 0:
            return tied[random_below(game.streams[0], found)]
    return stats[BEST_MOVE]


@njit(cache=True)
def ghost_move(maze, game, count, ghosts, turn, work, budget, scratch):
    """Ghost ``turn``'s move (StochasticAgent.get_action): an index among
    its ``count`` legal moves, or PAUSED when its search paused (REFUSED:
    a user's own ghost's bad distribution)."""
    state, probabilities, chosen = game.state, scratch.probabilities, scratch.chosen
    kind, weights = ghosts.kinds[turn - 1], ghosts.weights[turn - 1]
    num_ghosts = ghosts.kinds.shape[0]
    size = count
    for index in range(count):
        chosen[index] = index
    if kind == MODEL_ADVERSARIAL and weights[SEARCHED_SHARE] == 0.0:  # the random ghost: no search
        uniform_probabilities(count, probabilities)
    elif kind == MODEL_ADVERSARIAL:
        levels = ghosts.levels[turn - 1]
        slot = memo_slot(ghosts.memo, state, levels, num_ghosts)
        if game.progress[SEARCHING] == 0 and recall(ghosts.memo, slot, state, levels, num_ghosts, work.values):
            work.stats[GENERATED] = 0  # no node searched for this move
        else:
            model = Model(ghosts.settings[turn - 1], np.zeros(kernel.WEIGHTS, np.float64))
            # np.bool_, not True: numba would compile search_position again, typed for the literal
            if not search_position(maze, state, model, levels, np.bool_(True), work, game.progress, budget):
                return PAUSED
            remember(ghosts.memo, slot, state, levels, num_ghosts, work.values)
        size = searched_probabilities(work.values, work.values[ROOT_VALUE], count, weights[SEARCHED_SHARE], chosen,
                                      probabilities)
    elif kind == MODEL_OWN:
        if own_ghost_probabilities(maze, ghosts.settings[turn - 1], state, count, scratch.actions, scratch.targets,
                                   probabilities) >= 0:
            return REFUSED
    else:
        scared = state[kernel.scared_slot(num_ghosts) + turn - 1] > 0
        ghost_probabilities(kind, maze.distance, maze.moves[:, kernel.PACMAN_TABLE], state[kernel.PACMAN],
                            state[kernel.directions_slot(num_ghosts)], scared, scratch.targets, count, weights,
                            probabilities)
    return chosen[sample_index(random_float(game.streams[turn]), probabilities, size)]


@njit(cache=True)
def play_slice(maze, game, max_moves, pacman, ghosts, work, scratch, budget):
    """Play the game in ``game.state`` on, move by move, as
    ``pacsim.engine.game._play`` plays it with the built-in agents: True
    once it is over (``game.progress[OUTCOME]``), False when paused after
    ``budget`` nodes (call again with the same arguments to go on).
    ``game.played`` receives every action's index, in order;
    ``game.move_stats`` and ``game.move_values`` each Pacman move's search
    statistics and value.  (The bundles are :mod:`pacsim.fast.bundles`'.)"""
    start = cycles()
    state, progress = game.state, game.progress
    num_ghosts = ghosts.kinds.shape[0]
    words = pacman.model.settings[kernel.WORDS]
    actions, targets = scratch.actions, scratch.targets
    parent = np.empty_like(state)
    stats = work.stats
    while budget > 0:
        if state[STATUS] != 0:
            progress[OUTCOME] = WIN if state[STATUS] == 1 else LOSS
            break
        turn = state[TURN]
        if turn == 0 and progress[MOVES] >= max_moves:
            progress[OUTCOME] = TIMEOUT
            break
        count = legal_moves(maze.moves, num_ghosts, state, actions, targets)
        if count == 0:
            progress[OUTCOME] = DECLINED
            break
        searched_before = stats[GENERATED] if progress[SEARCHING] else 0
        if turn == 0:
            move = pacman_move(maze, game, count, pacman, work, budget, scratch.chosen)
            budget -= stats[GENERATED] - searched_before
        else:
            move = ghost_move(maze, game, count, ghosts, turn, work, budget, scratch)
            searched = ghosts.kinds[turn - 1] == MODEL_ADVERSARIAL and ghosts.weights[turn - 1, SEARCHED_SHARE] > 0.0
            budget -= max(stats[GENERATED] - searched_before, 1) if searched else 1
        if move < 0:
            if move == REFUSED:
                progress[OUTCOME] = DECLINED
            break
        if turn == 0:
            progress[MOVES] += 1
        game.played[progress[ACTIONS_PLAYED]] = actions[move]
        progress[ACTIONS_PLAYED] += 1
        for slot in range(state.shape[0]):  # not parent[:] = state: numba compiles its shape error's message, 1.5 s
            parent[slot] = state[slot]
        kernel.apply_move(maze.ghost_starts, num_ghosts, words, parent, state, actions[move], targets[move])
    progress[SLICE_CYCLES] += cycles() - start
    return progress[OUTCOME] != PLAYING


# The functions above carry compiled copies of the kernel's search and of the
# random streams: their cache must go when those files change.
keep_fresh("gameloop", lambda: compiled_functions(__name__, globals()), [*kernel.SOURCES, streams.__file__, memo.__file__])
