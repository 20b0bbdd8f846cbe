"""pacsim's own reflex baseline team: one agent attacks, one defends.

Each move, each agent scores every legal move by a weighted sum of
features of the successor and plays the best (ties broken by the team's
stream).  The attacker wants less food left on the other side and the
nearest of it close; the defender stays home, counts the invaders it can
see and closes on the nearest, and dislikes stopping and turning back.
Written over pacsim's state directly (no course API in between).
"""

from __future__ import annotations

import random

from pacsim.engine.capture.game import CaptureTeam
from pacsim.engine.capture.layout import is_red, opponents_of
from pacsim.engine.capture.observation import CaptureView
from pacsim.engine.capture.state import UNSEEN, CaptureState, apply_move
from pacsim.engine.layout import ACTIONS, REVERSE, STOP
from pacsim.engine.state import mask_cells

ATTACK = {"food_left": -100.0, "food_distance": -1.0}
DEFEND = {"home": 100.0, "invaders": -1000.0, "invader_distance": -10.0, "stop": -100.0, "reverse": -2.0}


class BaselineTeam(CaptureTeam):
    """The first agent attacks, the second defends."""

    name = "baseline"

    def __init__(self, is_red_team: bool) -> None:
        self.attacker = 0 if is_red_team else 1
        self.rng = random.Random(0)

    def prepare(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, index: int, view: CaptureView) -> str:
        state = view.state
        features = _attack if index == self.attacker else _defend
        weights = ATTACK if index == self.attacker else DEFEND
        scored = [(sum(weights[name] * value for name, value in features(state, index, action, target).items()), action)
                  for action, target in state.legal_moves(index)]
        best = max(value for value, _ in scored)
        return self.rng.choice([action for value, action in scored if value == best])


def _attack(state: CaptureState, index: int, action: str, target: int) -> dict[str, float]:
    after = apply_move(state, index, action, target)
    food = after.food_of(not is_red(index))
    here = after.positions[index]
    distances = after.layout.maze.distances_from(here)
    nearest = min((distances[cell] for cell in mask_cells(food)), default=0)
    return {"food_left": food.bit_count(), "food_distance": nearest}


def _defend(state: CaptureState, index: int, action: str, target: int) -> dict[str, float]:
    after = apply_move(state, index, action, target)
    here = after.positions[index]
    invaders = [after.positions[other] for other in opponents_of(index)
                if after.pacman[other] and after.positions[other] != UNSEEN]
    distances = after.layout.maze.distances_from(here)
    reverse = REVERSE[ACTIONS[state.directions[index]]]
    return {"home": 0.0 if after.pacman[index] else 1.0, "invaders": len(invaders),
            "invader_distance": min((distances[cell] for cell in invaders), default=0),
            "stop": 1.0 if action == STOP else 0.0, "reverse": 1.0 if action == reverse and action != STOP else 0.0}

