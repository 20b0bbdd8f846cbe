"""The PettingZoo AEC environment: Pacman and every ghost are agents, taking
turns in the classic order (Pacman, ghost 1, ghost 2, ...).

Agents are ``"pacman_0"``, ``"ghost_1"``, ...; each observes the whole board
(:func:`pacsim.env.board.encode`) and acts with ``Discrete(5)`` as documented
in :mod:`pacsim.env.board` (``infos[agent]["action_mask"]`` holds its legal
actions when it is to move).  The game is zero-sum: each step's score change
is Pacman's reward and every ghost's penalty.  Everyone terminates on a win
or a loss and is truncated at the move cap.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from pacsim.agents import training
from pacsim.engine import ACTIONS, DEFAULT_MAX_MOVES, Layout
from pacsim.env import board

PACMAN = "pacman_0"


def agent_name(index: int) -> str:
    return PACMAN if index == 0 else f"ghost_{index}"


class PacmanAECEnv(AECEnv):
    """Pacman and the layout's ghosts (the first ``num_ghosts``), all learners."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "pacsim_v0", "is_parallelizable": False}

    def __init__(self, layout: str | Layout = "smallClassic", num_ghosts: int | None = None,
                 max_moves: int = DEFAULT_MAX_MOVES, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: this environment renders 'ansi' only")
        self.layout = board.load_env_layout(layout)
        count = training.ghost_count(self.layout, num_ghosts)
        self.episode = board.Episode(self.layout, count, max_moves)
        self.render_mode = render_mode
        self.possible_agents = [agent_name(index) for index in range(count + 1)]
        self.agents: list[str] = []  # none until reset()
        self._index = {name: index for index, name in enumerate(self.possible_agents)}
        shape = board.observation_shape(self.layout, count)
        self._observation_space = spaces.Box(0.0, 1.0, shape, dtype=np.float32)
        self._action_space = spaces.Discrete(len(ACTIONS))

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    def observe(self, agent: str) -> np.ndarray:
        return board.encode(self.episode.state)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game.  Nothing here is random (every agent learns), but
        ``seed`` is checked and seeds ``np_random`` as Gymnasium does: a
        negative or non-integer seed is refused."""
        if seed is not None or not hasattr(self, "np_random"):
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        self.episode.restart()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def step(self, action: Any) -> None:
        """Play the selected agent's action; once the game is over each agent
        steps once more with ``None`` (PettingZoo's convention) and leaves."""
        if not self.agents:
            raise board.EpisodeOverError("step() with no agent left: the game is over (or was never reset); "
                                         "call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)  # refuses anything but None
            return
        index = board.checked_action(self._action_space, action)
        self._cumulative_rewards[agent] = 0.0
        change = float(self.episode.play(index))
        self.rewards = {name: (change if name == PACMAN else -change) for name in self.agents}
        if self.episode.state.is_terminal or self.episode.truncated:
            ended = self.terminations if self.episode.state.is_terminal else self.truncations
            for name in self.agents:
                ended[name] = True
        self._select()
        self._accumulate_rewards()

    def _select(self) -> None:
        """The agent to move is the state's; infos carry its action mask."""
        state = self.episode.state
        self.agent_selection = agent_name(state.turn)
        mask = board.action_mask(state)
        for name in self.agents:
            self.infos[name] = {"action_mask": mask if name == self.agent_selection else np.zeros_like(mask)}

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.episode.state.to_text() + "\n"
        return None

    def close(self) -> None:
        pass
