"""The ghosts' policies and the chance draw, written once for both backends.

Each function here is plain Python over ints and indexable rows, with
nothing numba cannot compile: the Python ghosts
(:mod:`pacsim.agents.ghosts`) and :func:`pacsim.agents.api.sample` call
them as they are, and the kernel compiles the very same functions
(:func:`compile_rules`, numba's ``register_jitable``) into its searches
and its game loop.  So a ghost's probabilities are one computation, not a
Python original and a kernel twin held equal by tests.

The rows a policy reads:

* ``distance[cell]``: maze distances from ``cell`` to every cell (the
  kernel's distance table; in Python :class:`Distances` over the layout);
* ``pacman_moves[cell]``: Pacman's moves from ``cell`` as ``[count, action,
  target, action, target, ...]`` (action indices into
  :data:`pacsim.engine.layout.ACTIONS`; :func:`pacman_move_rows` in Python,
  the kernel's move table 0);
* ``targets``: the cells the ghost to move can go to, ``count`` of them;
* ``parameters``: the ghost's numbers at the slots :data:`PARAMETERS`
  names (:data:`DEFAULT_PARAMETERS` when a search models a ghost by name).

Importing this module needs neither numba nor numpy.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from functools import cache
from typing import Any

from pacsim.engine import layout, state
from pacsim.engine.layout import ACTIONS, STOP, Layout
from pacsim.fast import evaluations, kinds
from pacsim.fast.kinds import GhostKind

PARAMETERS = ("attack", "flee", "p", "ahead")
"""A ghost's numbers, by slot: the directional pull towards its aim, the
push away from Pacman while scared, the adversarial ghost's share of
searched moves, the ambusher's cells ahead of Pacman."""
ATTACK, FLEE, SEARCHED_SHARE, AHEAD = range(len(PARAMETERS))
DEFAULT_PARAMETERS = (0.8, 0.8, 1.0, 4.0)
"""The built-in ghosts' defaults (their options' dataclasses agree: a test checks)."""
STOP_INDEX = ACTIONS.index(STOP)


def uniform_probabilities(count, out):
    """``pacsim.agents.api.uniform``: the same share on each of ``count`` moves."""
    share = 1.0 / count
    for index in range(count):
        out[index] = share


def focused_probabilities(distances, targets, count, sign, focus, out):
    """Mass ``focus`` shared by the moves whose target is best by ``sign``
    times ``distances`` (1: nearest, -1: farthest), the rest spread over
    all ``count`` moves (CS188's DirectionalGhost, by maze distance)."""
    best_key = sign * distances[targets[0]]
    for index in range(count):
        best_key = min(best_key, sign * distances[targets[index]])
    best = 0
    for index in range(count):
        if sign * distances[targets[index]] == best_key:
            best += 1
    spread = (1.0 - focus) / count
    for index in range(count):
        out[index] = spread + (focus / best if sign * distances[targets[index]] == best_key else 0.0)


def cell_ahead(pacman_moves, cell, heading, steps):
    """Where Pacman would be after ``steps`` moves straight on in direction
    ``heading`` from ``cell``, stopping at a wall (or where he stands, Stop)."""
    for _ in range(steps):
        row = pacman_moves[cell]
        following = cell
        for index in range(row[0]):
            if row[1 + 2 * index] == heading and heading != STOP_INDEX:
                following = row[2 + 2 * index]
        if following == cell:
            break
        cell = following
    return cell


def ghost_probabilities(kind, distance, pacman_moves, pacman, heading, scared, targets, count, parameters, out):
    """The probabilities of the ghost's ``count`` moves under the policy
    ``kind`` (a :class:`~pacsim.fast.kinds.GhostKind` other than
    ``ADVERSARIAL``, whose distribution needs its search) into ``out``.
    ``pacman`` is his cell, ``heading`` his last direction, ``scared``
    whether this ghost is."""
    if kind == GhostKind.RANDOM or kind == GhostKind.UNIFORM:
        uniform_probabilities(count, out)
    elif scared:  # every aiming ghost flees Pacman while scared
        focused_probabilities(distance[pacman], targets, count, -1, parameters[FLEE], out)
    elif kind == GhostKind.DIRECTIONAL:
        focused_probabilities(distance[pacman], targets, count, 1, parameters[ATTACK], out)
    elif kind == GhostKind.AMBUSHER:  # the arcade's Pinky: aims a few cells ahead of Pacman
        aim = cell_ahead(pacman_moves, pacman, heading, int(parameters[AHEAD]))
        focused_probabilities(distance[aim], targets, count, 1, parameters[ATTACK], out)
    else:
        uniform_probabilities(count, out)


def searched_probabilities(values, best_value, count, p, chosen, out):
    """The adversarial ghost's distribution from its search's root
    ``values`` (one per legal move, in move order): with ``p`` 1, uniform
    over the moves worth ``best_value`` (their indices into ``chosen``);
    else ``p`` times that plus ``1 - p`` spread over every legal move
    (``chosen`` then every index).  Returns the number of entries."""
    best = 0
    for index in range(count):
        if values[index] == best_value:
            chosen[best] = index
            best += 1
    share = 1.0 / best
    if p == 1.0:
        for index in range(best):
            out[index] = share
        return best
    spread = (1.0 - p) / count
    for index in range(count):
        out[index] = p * (share if values[index] == best_value else 0.0) + spread
        chosen[index] = index
    return count


def slip_outcomes(row, slip, chosen, actions, targets, probabilities):
    """SlipperyPacmanGame.slips: what Pacman really does when he chose
    ``chosen`` (an action index) on a cell whose moves are ``row``: it with
    ``1 - slip``, else Stop or a sideways move, shared equally (standing
    still never slips).  Writes them, returns their number."""
    count = 0
    for index in range(row[0]):
        if row[1 + 2 * index] == chosen:
            actions[0] = chosen
            targets[0] = row[2 + 2 * index]
    probabilities[0] = 1.0
    if chosen == STOP_INDEX:
        return 1
    reverse = chosen ^ 1  # North 0 and South 1, East 2 and West 3
    for index in range(row[0]):
        action = row[1 + 2 * index]
        if action != chosen and action != reverse:
            count += 1
            actions[count] = action
            targets[count] = row[2 + 2 * index]
    if count == 0:
        return 1
    share = slip / count
    probabilities[0] = 1.0 - slip
    for index in range(1, count + 1):
        probabilities[index] = share
    return count + 1


def sample_index(point, probabilities, count):
    """``pacsim.agents.api.sample`` given its uniform ``point``: the first
    move whose running total passes it (else the last)."""
    total = 0.0
    for index in range(count):
        total += probabilities[index]
        if point < total:
            return index
    return count - 1


PROBABILITY_TOLERANCE = 1e-9
"""How far from 1 the probabilities of a user's own ghost may sum (float rounding)."""


def first_bad_probability(probabilities, count):
    """A user's own ghost's check (:func:`pacsim.fast.view.kernel_ghost`):
    the first of the ``count`` moves whose probability is not a number in
    [0, 1] (NaN, never written, included); ``count`` when they are but do
    not sum to 1 (within :data:`PROBABILITY_TOLERANCE`); -1 when the
    distribution is sound."""
    total = 0.0
    for index in range(count):
        probability = probabilities[index]
        if not (probability >= 0.0 and probability <= 1.0):
            return index
        total += probability
    if abs(total - 1.0) > PROBABILITY_TOLERANCE:
        return count
    return -1


RULES = (uniform_probabilities, focused_probabilities, cell_ahead, ghost_probabilities, searched_probabilities, slip_outcomes,
         sample_index, first_bad_probability)
"""Every function here, in the order they call each other (callees first)."""

RULE_SOURCES = (layout.__file__, state.__file__, kinds.__file__, __file__, evaluations.__file__)
"""The files whose numbers and written-once functions compiled code takes
in (numba bakes them into its cached machine code): every kernel module
flushes its cache when one changes (:mod:`pacsim.fast.cache`)."""


@cache  # once per process
def compile_rules() -> None:
    """Let numba code call the functions written once: :data:`RULES`, the
    evaluations' (:data:`pacsim.fast.evaluations.RULES`) and the scoring
    rules' (:data:`pacsim.engine.state.RULES`).  The kernel's modules call
    this before compiling anything that uses them."""
    from numba.extending import register_jitable  # numba is optional: only the kernel needs it

    for rule in (*state.RULES, *evaluations.RULES, *RULES):
        register_jitable(rule)


class Distances:
    """``distance[cell]`` over a layout's distance rows, as the kernel's table reads."""

    __slots__ = ("layout",)

    def __init__(self, layout: Layout) -> None:
        self.layout = layout

    def __getitem__(self, cell: int) -> tuple[int, ...]:
        return self.layout.distances_from(cell)


_pacman_rows: weakref.WeakKeyDictionary[Layout, tuple[tuple[int, ...], ...]] = weakref.WeakKeyDictionary()


def pacman_move_rows(layout: Layout) -> tuple[tuple[int, ...], ...]:
    """Pacman's moves of every cell as the kernel's rows (built once per layout)."""
    rows = _pacman_rows.get(layout)
    if rows is None:
        rows = _pacman_rows[layout] = tuple(_move_row(moves) for moves in layout.pacman_moves)
    return rows


def _move_row(moves: Sequence[tuple[str, int]]) -> tuple[int, ...]:
    row: list[int] = [len(moves)]
    for action, target in moves:
        row += [ACTIONS.index(action), target]
    return tuple(row)


def parameters_of(options: Any) -> tuple[float, ...]:
    """A ghost's :data:`PARAMETERS` from its options (defaults where it has none)."""
    return tuple(float(getattr(options, name, default)) for name, default in zip(PARAMETERS, DEFAULT_PARAMETERS))
