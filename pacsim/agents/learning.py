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
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pacsim.agents import plugins
from pacsim.agents.api import Agent
from pacsim.engine import GameState
from pacsim.errors import AgentError, ConfigError
from pacsim.files import FileRefused, read_bounded
from pacsim.shipped import shipped_path

FEATURE_SCALE = 10.0
"""CS188 divides every feature by 10, which keeps learning rates near 0.2 stable."""
MAX_WEIGHTS_BYTES = 64 << 20
"""Largest weights file read (a tabular Q-table of a small maze is well under it)."""
FORMAT = "pacsim-q-weights/1"

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
        path = Path(path)
        temporary = path.with_name(path.name + ".tmp")
        body = {"format": FORMAT, "kind": self.kind, "episodes": self.episodes, "settings": self.settings or {},
                "values": self.values}
        try:
            temporary.write_text(json.dumps(body, indent=1, sort_keys=True) + "\n", encoding="utf-8")
            os.replace(temporary, path)
        except OSError as error:
            raise ConfigError(f"{path}: cannot write the weights: {error.strerror or error}") from None


def load_weights(path: str | Path, kind: str) -> Weights:
    """A weights file of ``kind``; :class:`AgentError` naming the file if it is not one."""
    try:
        body = json.loads(read_bounded(Path(path), MAX_WEIGHTS_BYTES).decode("utf-8"))
    except FileRefused as error:
        raise AgentError(f"weights file {path}: {error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        where = f" at line {error.lineno}, column {error.colno}" if isinstance(error, json.JSONDecodeError) else ""
        raise AgentError(f"weights file {path}: not a pacsim weights file (bad JSON{where})") from None
    if not isinstance(body, dict) or body.get("format") != FORMAT or not isinstance(body.get("values"), dict):
        raise AgentError(f"weights file {path}: not a pacsim weights file (no {FORMAT!r} format field)")
    if body.get("kind") != kind:
        raise AgentError(f"weights file {path}: holds {body.get('kind')!r} weights, not {kind!r}")
    values = body["values"]
    if not all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in values.values()):
        raise AgentError(f"weights file {path}: every weight must be a number")
    return Weights(kind, {str(key): float(value) for key, value in values.items()}, int(body.get("episodes", 0)),
                   dict(body.get("settings") or {}))


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

    def q_value(self, state: GameState, action: str, target: int) -> float:
        return self.values.get(table_key(state, action), 0.0)

    def learn(self, state: GameState, move: tuple[str, int], step: float) -> None:
        key = table_key(state, move[0])
        self.values[key] = self.values.get(key, 0.0) + step


LEARNING_PACMEN: dict[str, type[QPacman]] = {agent.name: agent for agent in (ApproximateQPacman, TabularQPacman)}
