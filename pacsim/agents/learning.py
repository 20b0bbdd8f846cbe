"""Learning Pacmen: tabular and approximate Q-learning, CS188 style.

Both play greedily from a weights file (``-p approxq:weights=FILE``), ties
broken with the agent's own random stream; ``pacsim train`` writes the file
(:mod:`pacsim.agents.training`).  The file's content hash is part of the
condition's identity, as a plugin's code is: retrain, and an experiment
plays the new Pacman's games instead of reusing the old one's.

**Features** (approximate Q-learning; CS188's ``SimpleExtractor``), of the
state where Pacman is to move and the action he considers, all divided by
10 as CS188 does:

* ``bias``: 1;
* ``#-of-ghosts-1-step-away``: ghosts (scared or not) on the cell Pacman
  moves to or one step from it;
* ``eats-food``: 1 when that cell holds food and no ghost is that near;
* ``closest-food``: maze distance from that cell to the nearest food,
  divided by the layout's width times height.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pacsim.agents import plugins
from pacsim.agents.api import Agent
from pacsim.engine import ACTIONS, GameState, Layout
from pacsim.engine.recording import describe
from pacsim.errors import AgentError, ConfigError
from pacsim.files import FileRefused, read_bounded, write_atomically
from pacsim.shipped import shipped_path

FEATURE_SCALE = 10.0
"""CS188 divides every feature by 10, which keeps learning rates near 0.2 stable."""
MAX_WEIGHTS_BYTES = 64 << 20
"""Largest weights file read (a tabular Q-table of a small maze is well under it)."""
FORMAT = "pacsim-q-weights/1"
FEATURE_NAMES = ("bias", "#-of-ghosts-1-step-away", "eats-food", "closest-food")
"""Every feature :func:`simple_features` can give: an approximate Q-learner's weights are of these only."""

Features = dict[str, float]


def simple_features(state: GameState, action: str, target: int) -> Features:
    """CS188's SimpleExtractor features of Pacman playing ``action`` to ``target``."""
    layout = state.layout
    from_target = layout.distances_from(target)
    near_ghosts = sum(1 for ghost in state.ghosts if from_target[ghost] <= 1)
    features = {"bias": 1.0, "#-of-ghosts-1-step-away": float(near_ghosts)}
    if not near_ghosts and state.has_food(target):
        features["eats-food"] = 1.0
    food = state.food_cells()
    if food:
        features["closest-food"] = min(from_target[cell] for cell in food) / (layout.width * layout.height)
    return {name: value / FEATURE_SCALE for name, value in features.items()}


def table_key(state: GameState, action: str) -> str:
    """A Q-table key that survives a file: everything in the state but the
    layout and the score (which the future does not depend on)."""
    return json.dumps([state.pacman, state.ghosts, state.directions, state.scared, state.food, state.capsules, action])


# -- weights files ---------------------------------------------------------

@dataclass
class Weights:
    """What a weights file holds: the learned values and how far training got."""

    kind: str
    """``approxq`` (feature weights) or ``qlearn`` (a Q-table)."""
    values: dict[str, float]
    """Feature name -> weight, or :func:`table_key` -> Q-value."""
    episodes: int = 0
    """Training episodes done (a resumed run goes on from here)."""
    settings: dict[str, Any] | None = None
    """The training settings (layout, ghosts, alpha, ...), for the record and for resuming."""

    def save(self, path: str | Path) -> None:
        """Write atomically: an interrupted save leaves the previous file."""
        body = {"format": FORMAT, "kind": self.kind, "episodes": self.episodes, "settings": self.settings or {},
                "values": self.values}
        try:
            text = json.dumps(body, indent=1, sort_keys=True, allow_nan=False)
        except ValueError:  # a file load_weights would refuse
            raise ConfigError(f"{path}: training diverged (a weight is not a finite number): try a smaller alpha") from None
        write_atomically(path, text + "\n", "the weights")


def load_weights(path: str | Path, kind: str, resumed: bool = False) -> Weights:
    """A weights file of ``kind``; :class:`AgentError` naming the file if it is
    not one.  ``resumed``: read to go on training into it, so not an input
    that outputs must keep away from."""
    try:
        body = json.loads(read_bounded(Path(path), MAX_WEIGHTS_BYTES, rewritten=resumed).decode("utf-8"))
    except FileRefused as error:
        raise AgentError(f"weights file {path}: {error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        where = f" at line {error.lineno}, column {error.colno}" if isinstance(error, json.JSONDecodeError) else ""
        raise AgentError(f"weights file {path}: not a pacsim weights file (bad JSON{where})") from None
    if not isinstance(body, dict) or body.get("format") != FORMAT or not isinstance(body.get("values"), dict):
        raise AgentError(f"weights file {path}: not a pacsim weights file (no {FORMAT!r} format field)")
    if body.get("kind") != kind:
        raise AgentError(f"weights file {path}: holds {body.get('kind')!r} weights, not {kind!r}")
    values = {key: _finite(value, f"weights file {path}: key {describe(key)}") for key, value in body["values"].items()}
    for key in values:
        problem = _feature_problem(key) if kind == "approxq" else _table_key_problem(key)
        if problem:
            raise AgentError(f"weights file {path}: key {describe(key)}: {problem}")
    return Weights(kind, values, int(body.get("episodes", 0)), dict(body.get("settings") or {}))


def _finite(value: Any, where: str) -> float:
    """A weight as a float; NaN, an infinity or a number beyond floats is an :class:`AgentError`
    (JSON's ``NaN`` and ``Infinity`` parse, and would make every comparison of values meaningless)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise AgentError(f"{where}: the weight {describe(value)} is not a number")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise AgentError(f"{where}: the weight {describe(value)} is not a finite number")
    return number


def _feature_problem(key: str) -> str | None:
    """Why ``key`` is no weight of an approximate Q-learner (one saved for other features), or None."""
    if key in FEATURE_NAMES:
        return None
    return f"not a feature of approxq (its features: {', '.join(FEATURE_NAMES)})"


def _table_key_problem(key: str) -> str | None:
    """Why ``key`` is not one :func:`table_key` writes, or None."""
    try:
        parts = json.loads(key)
    except (json.JSONDecodeError, RecursionError):
        parts = None
    if not isinstance(parts, list) or len(parts) != 7:
        return "not a Q-table key (the JSON list [pacman, ghosts, directions, scared, food, capsules, action])"
    pacman, ghosts, directions, scared, food, capsules, action = parts
    cells = [pacman, food, capsules, *_listed(ghosts), *_listed(directions), *_listed(scared)]
    if not all(isinstance(cell, int) and not isinstance(cell, bool) and cell >= 0 for cell in cells) or not (
            isinstance(ghosts, list) and isinstance(directions, list) and isinstance(scared, list)):
        return "a Q-table key's cells, directions, timers and food must be non-negative integers"
    if len(directions) != len(ghosts) + 1 or len(scared) != len(ghosts):
        return f"a Q-table key with {len(ghosts)} ghosts needs {len(ghosts) + 1} directions and {len(ghosts)} scared timers"
    if action not in ACTIONS:
        return f"unknown action {describe(action)} (actions: {', '.join(ACTIONS)})"
    return None


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


# -- the agents -------------------------------------------------------------

@dataclass(frozen=True)
class LearnedOptions:
    """Options of a learned Pacman."""

    weights: str = ""
    """The weights file ``pacsim train`` wrote (empty: untrained, all values 0)."""


class QPacman(Agent[LearnedOptions]):
    """A Pacman that plays the action of highest Q-value (ties at random)."""

    Options = LearnedOptions

    def __init__(self, options: LearnedOptions | None = None) -> None:
        super().__init__(options)
        self.values: dict[str, float] = {}
        if self.options.weights:
            path = shipped_path(self.options.weights)  # experiments/learned/weights/... from a wheel too
            # The file is part of the condition's identity, like a plugin's code.
            plugins.note_data_file(path, f"weights {self.options.weights}")
            self.values = load_weights(path, self.name).values

    def q_value(self, state: GameState, action: str, target: int) -> float:
        raise NotImplementedError

    def learn(self, state: GameState, move: tuple[str, int], step: float) -> None:
        """Move Q(state, move) by ``step`` (learning rate times the temporal difference)."""
        raise NotImplementedError

    def action_values(self, state: GameState) -> list[tuple[str, float]]:
        """Each legal action's Q-value (the window's ``--show-values``)."""
        return [(action, self.q_value(state, action, target)) for action, target in state.legal_moves()]

    def values_heading(self) -> tuple[str, ...]:
        """What :meth:`action_values` shows, for the values panel."""
        return ("Q-values", self.name, f"weights: {self.options.weights or 'none (untrained)'}")

    def get_action(self, state: GameState) -> str:
        values = self.action_values(state)
        best = max(value for _, value in values)
        return self.rng.choice([action for action, value in values if value == best])


class ApproximateQPacman(QPacman):
    """Approximate Q-learning: Q is a weighted sum of :func:`simple_features`."""

    name = "approxq"

    def q_value(self, state: GameState, action: str, target: int) -> float:
        return sum(self.values.get(name, 0.0) * value for name, value in simple_features(state, action, target).items())

    def learn(self, state: GameState, move: tuple[str, int], step: float) -> None:
        for name, value in simple_features(state, *move).items():
            self.values[name] = self.values.get(name, 0.0) + step * value


class TabularQPacman(QPacman):
    """Tabular Q-learning: one value per (state, action) seen in training; 0 elsewhere."""

    name = "qlearn"

    def __init__(self, options: LearnedOptions | None = None) -> None:
        super().__init__(options)
        self._checked: Layout | None = None

    def action_values(self, state: GameState) -> list[tuple[str, float]]:
        if state.layout is not self._checked:
            self._check_maze(state)
            self._checked = state.layout
        return super().action_values(state)

    def _check_maze(self, state: GameState) -> None:
        """Refuse a table of another maze's positions, naming its first key
        that is none of this maze's: every value would be 0 here, a random
        Pacman that looks trained."""
        layout = state.layout
        for key in self.values:
            pacman, ghosts, _, _, food, capsules, _ = json.loads(key)  # load_weights checked their form
            if (len(ghosts) != len(state.ghosts) or max([pacman, *ghosts]) >= layout.num_cells
                    or food & ~layout.food or capsules & ~layout.capsules):
                raise AgentError(f"weights file {self.options.weights}: key {describe(key)}: not a position of "
                                 f"maze {layout.name} ({len(state.ghosts)} ghosts): a table for another maze")

    def q_value(self, state: GameState, action: str, target: int) -> float:
        return self.values.get(table_key(state, action), 0.0)

    def learn(self, state: GameState, move: tuple[str, int], step: float) -> None:
        key = table_key(state, move[0])
        self.values[key] = self.values.get(key, 0.0) + step


LEARNING_PACMEN: dict[str, type[QPacman]] = {agent.name: agent for agent in (ApproximateQPacman, TabularQPacman)}
