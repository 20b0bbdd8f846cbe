"""What an agent is handed: its view of the game, and nothing more.

The course's rule: an agent sees an opponent's position only when it is
within Manhattan distance :data:`SIGHT_RANGE` of the agent or of its
teammate; of every agent it gets a noisy distance, the true Manhattan
distance plus a uniform integer in ``[-NOISE, NOISE]``.

A :class:`CaptureView` is built by copying the visible fields into a new
:class:`~pacsim.engine.capture.state.CaptureState` whose unseen opponents
stand on :data:`~pacsim.engine.capture.state.UNSEEN` (their last direction
forgotten too), with the noisy distances beside it.  It holds no reference
to the game, the true state or the noise stream: the noise is drawn by the
game loop from a stream of its own, which the view never reaches.  What
remains of an unseen opponent is what the course shows as well: whether
it is a Pacman, its scared timer, the food it carries and has returned.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from pacsim.engine.capture.layout import opponents_of
from pacsim.engine.capture.state import UNSEEN, CaptureState
from pacsim.engine.layout import DIRECTION_INDEX, STOP

SIGHT_RANGE = 5
"""Manhattan distance within which an opponent is seen."""
NOISE = 6
"""A noisy distance is the true one plus a uniform integer in [-NOISE, NOISE]."""
_STOP_INDEX = DIRECTION_INDEX[STOP]


class CaptureView(NamedTuple):
    """Agent ``index``'s view: the state with unseen opponents removed, and the noisy distances."""

    state: CaptureState
    """The state as this agent may know it (unseen opponents on ``UNSEEN``)."""
    agent: int
    """The agent this view was made for."""
    noisy_distances: tuple[int, ...]
    """A noisy Manhattan distance from this agent to each agent (the course gives one for every agent)."""

    def is_seen(self, agent: int) -> bool:
        return self.state.positions[agent] != UNSEEN


def manhattan(state: CaptureState, a: int, b: int) -> int:
    (x_a, y_a), (x_b, y_b) = state.layout.coordinates[a], state.layout.coordinates[b]
    return abs(x_a - x_b) + abs(y_a - y_b)


_READINGS = 2 * NOISE + 1


def observe(state: CaptureState, index: int, noise: random.Random) -> CaptureView:
    """Agent ``index``'s view of the true ``state``, its noisy distances drawn from ``noise``
    (one draw per agent, in index order, as the course draws them)."""
    coordinates, draw = state.layout.coordinates, noise.random
    spots = [coordinates[cell] for cell in state.positions]
    here_x, here_y = spots[index]
    noisy = tuple([abs(x - here_x) + abs(y - here_y) + int(draw() * _READINGS) - NOISE for x, y in spots])
    mate_x, mate_y = spots[index ^ 2]  # the teammate: 0 and 2, 1 and 3
    hidden = [other for other in opponents_of(index) if not _seen(spots[other], here_x, here_y, mate_x, mate_y)]
    if not hidden:
        return CaptureView(state, index, noisy)
    positions, directions = list(state.positions), list(state.directions)
    for other in hidden:
        positions[other] = UNSEEN
        directions[other] = _STOP_INDEX
    # The state's fields in order (what _replace does, without its keyword handling: a view is made every move).
    return CaptureView(CaptureState(state.layout, tuple(positions), tuple(directions), *state[3:]), index, noisy)


def _seen(spot: tuple[int, int], here_x: int, here_y: int, mate_x: int, mate_y: int) -> bool:
    """Whether the agent (at ``here``) or its teammate (at ``mate``) is within :data:`SIGHT_RANGE` of ``spot``."""
    x, y = spot
    return abs(x - here_x) + abs(y - here_y) <= SIGHT_RANGE or abs(x - mate_x) + abs(y - mate_y) <= SIGHT_RANGE


def distance_probability(true_distance: int, noisy_distance: int) -> float:
    """The probability of reading ``noisy_distance`` when the true distance is ``true_distance``."""
    return 1.0 / (2 * NOISE + 1) if abs(noisy_distance - true_distance) <= NOISE else 0.0
