"""UPF's ``capture_agents``: the course's ``CaptureAgent`` with snake_case names.

pacsim's adapter calls an agent's camelCase entry points
(``registerInitialState``, ``observationFunction``, ``getAction``, ``final``);
a UPF team overrides the snake_case ones (``register_initial_state``,
``choose_action``, ...) and calls the base class's by those names.  So here
each entry point hands over to its snake_case twin, and each snake_case base
method does what the course's camelCase one does; every other name a team
calls (``get_food``, ``get_maze_distance``, ``get_opponents`` ...) is read as
its camelCase twin (:class:`~.snake.SnakeNames`).
"""

from __future__ import annotations

from typing import Any

from pacsim.agents.capture.course import captureAgents, util
from pacsim.agents.capture.course.captureAgents import AgentFactory, RandomAgent
from pacsim.agents.capture.course.snake import SnakeNames

__all__ = ["AgentFactory", "CaptureAgent", "RandomAgent"]

_Course = captureAgents.CaptureAgent


class CaptureAgent(SnakeNames, _Course):
    """UPF's base class of a capture agent: subclasses define ``choose_action``."""

    def __init__(self, index: int, time_for_computing: float = 0.1) -> None:
        super().__init__(index, time_for_computing)

    # -- what pacsim calls, handed to the snake_case methods a team overrides ------------
    def registerInitialState(self, gameState: Any) -> None:
        self.register_initial_state(gameState)

    def observationFunction(self, gameState: Any) -> Any:
        return self.observation_function(gameState)

    def getAction(self, gameState: Any) -> str:
        return self.get_action(gameState)

    def chooseAction(self, gameState: Any) -> str:
        return self.choose_action(gameState)

    def registerTeam(self, agentsOnTeam: list[Any]) -> None:
        self.register_team(agentsOnTeam)

    # -- UPF's base methods: the course's --------------------------------------------------
    def register_initial_state(self, game_state: Any) -> None:
        _Course.registerInitialState(self, game_state)  # registers the team: registerTeam, then register_team

    def observation_function(self, game_state: Any) -> Any:
        return _Course.observationFunction(self, game_state)

    def get_action(self, game_state: Any) -> str:
        return _Course.getAction(self, game_state)  # keeps the history, then chooseAction: choose_action

    def choose_action(self, game_state: Any) -> str:
        util.raiseNotDefined()
        raise NotImplementedError

    def register_team(self, agents_on_team: list[Any]) -> None:
        _Course.registerTeam(self, agents_on_team)

    @property
    def observation_history(self) -> list[Any]:
        return self.observationHistory

    @observation_history.setter
    def observation_history(self, history: list[Any]) -> None:
        self.observationHistory = history
