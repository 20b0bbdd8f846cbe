"""The Gymnasium environment: Pacman learns, the ghosts are any ghost spec.

Actions, observation and the handling of illegal actions are documented in
:mod:`pacsim.env.board`.  The reward of a step is the change of the game's
score over Pacman's move and the ghosts' replies; ``terminated`` is a win or
a loss, ``truncated`` the move cap (``max_moves`` Pacman moves).

``reset(seed=s)`` seeds the environment's generator, which draws the game
seed; the ghosts' random streams come from the game seed exactly as in
:func:`pacsim.engine.play_game`.  So an episode is a function of its seed
and of the actions played.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from pacsim import arguments
from pacsim.agents import training
from pacsim.engine import ACTIONS, DEFAULT_MAX_MOVES, Layout
from pacsim.engine.game import start_agents
from pacsim.env import board

RENDER_MODES = ("human", "rgb_array", "ansi")


class PacmanEnv(gymnasium.Env):
    """Single-agent Pacman.  ``layout``: a shipped name, a ``.lay`` path, a
    ``generated:`` spec or a :class:`~pacsim.engine.Layout`; ``ghosts``: a
    ghost spec (``random``, ``directional:attack=0.9``, ``my.py:Ghost``);
    ``max_moves``: Pacman moves before the episode is truncated (1 or more).

    **Observation** (``observation_space``: ``Box(0, 1, (4 + 2 * G, H, W), float32)``
    for ``G`` ghosts on a layout of ``H`` text lines of ``W`` characters;
    row 0 is the top line, column 0 the left one):

    * ``[0]`` walls: 1 on a wall;
    * ``[1]`` food: 1 on a dot still to eat;
    * ``[2]`` capsules: 1 on a capsule still to eat;
    * ``[3]`` Pacman: 1 on his cell;
    * ``[4 + i]`` ghost ``i + 1``: 1 on its cell (ghosts in agent order);
    * ``[4 + G + i]`` ghost ``i + 1`` scared: its scared timer divided by
      ``SCARED_TIME`` (40), on its cell; 0 everywhere when it is not scared.

    **Info** (from ``reset`` and ``step``): ``action_mask`` an int8 array of
    shape ``(5,)``, 1 for each legal action in action order; ``state`` the
    :class:`~pacsim.engine.GameState`; ``score`` the game's score; ``moves``
    Pacman moves so far; ``seed`` the game seed.

    **Actions**: ``Discrete(5)``, 0 North, 1 South, 2 East, 3 West, 4 Stop;
    anything else (``2.5``, ``"2"``, ``np.float32(1)``, 7) is refused with
    :class:`~pacsim.env.board.ActionSpaceError`; an illegal action is played
    as Stop.  Vector forms (``gymnasium.make_vec``, :func:`pacsim.env.make_vector_env`)
    stack each array along a first axis of ``num_envs``.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 10}  # noqa: RUF012 (Env declares it an instance variable)

    def __init__(self, layout: str | Layout = "smallClassic", ghosts: str = "random", num_ghosts: int | None = None,
                 ghost_args: str = "", max_moves: int = DEFAULT_MAX_MOVES, render_mode: str | None = None) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r} is not one of {RENDER_MODES}")
        self.layout = board.load_env_layout(layout)
        count = training.ghost_count(self.layout, num_ghosts)
        self.ghosts = training.make_ghosts(arguments.text(ghosts, "ghosts", "random"), count, ghost_args)
        self.episode = board.Episode(self.layout, count, max_moves)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, board.observation_shape(self.layout, count), dtype=np.float32)
        self.action_space = spaces.Discrete(len(ACTIONS))
        self.game_seed = 0
        """The seed of the current game (its ghosts' random streams)."""
        self._view: Any = None

    @property
    def state(self) -> Any:
        """The current :class:`~pacsim.engine.GameState`."""
        return self.episode.state

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.game_seed = board.game_seed(self.np_random)
        self.episode.restart()
        start_agents(self.ghosts, self.game_seed, first_index=1)
        self._show()
        return board.encode(self.state), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        index = board.checked_action(self.action_space, action)
        if self.episode.over:
            raise board.EpisodeOverError("step() after the episode ended (terminated or truncated): call reset() first")
        change = self.episode.play(index)
        change += board.ghosts_move(self.episode, self.ghosts)
        self._show()
        return board.encode(self.state), float(change), self.state.is_terminal, self.episode.truncated, self._info()

    def _info(self) -> dict[str, Any]:
        return {"action_mask": board.action_mask(self.state), "state": self.state, "score": self.state.score,
                "moves": self.episode.moves, "seed": self.game_seed}

    def render(self) -> Any:
        if self.render_mode == "ansi":
            return self.state.to_text() + "\n"
        if self.render_mode == "rgb_array":
            return self._viewer().state_image(self.state, self._renderer())
        if self.render_mode == "human":
            self._show()
        return None

    def _show(self) -> None:
        if self.render_mode != "human":
            return
        if self._view is None:
            self._view = self._viewer().StateWindow("pacsim: " + self.layout.name)
        self._view.show(self.state, self.metadata["render_fps"])

    def _renderer(self) -> Any:
        if self._view is None:
            self._view = self._viewer().Renderer()
        return self._view

    @staticmethod
    def _viewer() -> Any:
        import pacsim.viewer  # pygame only when a picture is asked for

        return pacsim.viewer

    def close(self) -> None:
        if self._view is not None and hasattr(self._view, "close"):
            self._view.close()
        self._view = None
