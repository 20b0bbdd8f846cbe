"""The course's ``captureAgents``, written by pacsim: ``CaptureAgent`` and its helpers.

A course team subclasses :class:`CaptureAgent` and defines ``chooseAction``;
everything it calls here reads pacsim's state through the course's
:class:`~pacsim.agents.capture.course.gamestate.GameState`.  ``debugDraw``
keeps the marks on the agent (``debug_marks``) for a display to show.
"""

from __future__ import annotations

import random
from typing import Any

from pacsim.agents.capture.course import util
from pacsim.agents.capture.course.distanceCalculator import Distancer
from pacsim.agents.capture.course.game import Agent


class AgentFactory:
    """Makes agents for one side (the course's old team interface)."""

    def __init__(self, isRed: bool, **args: Any) -> None:
        self.isRed = isRed

    def getAgent(self, index: int) -> Agent:
        util.raiseNotDefined()
        raise NotImplementedError


class RandomAgent(Agent):
    """Plays a random legal move."""

    def getAction(self, state: Any) -> str:
        return random.choice(state.getLegalActions(self.index))


class CaptureAgent(Agent):
    """The course's base class of a capture agent: subclasses define ``chooseAction``."""

    def __init__(self, index: int, timeForComputing: float = 0.1) -> None:
        super().__init__(index)
        self.red: bool | None = None
        self.agentsOnTeam: list[Any] | None = None
        self.distancer: Distancer | None = None
        self.observationHistory: list[Any] = []
        self.timeForComputing = timeForComputing
        self.display = None
        self.debug_marks: list[tuple[list[tuple[int, int]], Any]] = []

    def registerInitialState(self, gameState: Any) -> None:
        self.red = gameState.isOnRedTeam(self.index)
        self.registerTeam(self.getTeam(gameState))
        self.distancer = Distancer(gameState.data.layout)
        self.distancer.getMazeDistances()

    def final(self, gameState: Any) -> None:
        self.observationHistory = []

    def registerTeam(self, agentsOnTeam: list[Any]) -> None:
        self.agentsOnTeam = agentsOnTeam

    def observationFunction(self, gameState: Any) -> Any:
        return gameState.makeObservation(self.index)

    def debugDraw(self, cells: Any, color: Any, clear: bool = False) -> None:
        if clear:
            self.debug_marks = []
        cells = [cells] if isinstance(cells, tuple) else list(cells)
        self.debug_marks.append((cells, color))

    def debugClear(self) -> None:
        self.debug_marks = []

    def getAction(self, gameState: Any) -> str:
        self.observationHistory.append(gameState)
        position = gameState.getAgentState(self.index).getPosition()
        if position != util.nearestPoint(position):  # never in pacsim (agents stand on cells), kept as the course has it
            return gameState.getLegalActions(self.index)[0]
        return self.chooseAction(gameState)

    def chooseAction(self, gameState: Any) -> str:
        util.raiseNotDefined()
        raise NotImplementedError

    def getFood(self, gameState: Any) -> Any:
        """The food this agent eats (on the other half)."""
        return gameState.getBlueFood() if self.red else gameState.getRedFood()

    def getFoodYouAreDefending(self, gameState: Any) -> Any:
        return gameState.getRedFood() if self.red else gameState.getBlueFood()

    def getCapsules(self, gameState: Any) -> list[tuple[int, int]]:
        return gameState.getBlueCapsules() if self.red else gameState.getRedCapsules()

    def getCapsulesYouAreDefending(self, gameState: Any) -> list[tuple[int, int]]:
        return gameState.getRedCapsules() if self.red else gameState.getBlueCapsules()

    def getOpponents(self, gameState: Any) -> list[int]:
        return gameState.getBlueTeamIndices() if self.red else gameState.getRedTeamIndices()

    def getTeam(self, gameState: Any) -> list[int]:
        return gameState.getRedTeamIndices() if self.red else gameState.getBlueTeamIndices()

    def getScore(self, gameState: Any) -> int:
        return gameState.getScore() if self.red else -gameState.getScore()

    def getMazeDistance(self, pos1: tuple[int, int], pos2: tuple[int, int]) -> float:
        assert self.distancer is not None, "registerInitialState sets the distancer"
        return self.distancer.getDistance(pos1, pos2)

    def getPreviousObservation(self) -> Any:
        return self.observationHistory[-2] if len(self.observationHistory) > 1 else None

    def getCurrentObservation(self) -> Any:
        return self.observationHistory[-1]

    def displayDistributionsOverPositions(self, distributions: Any) -> None:
        """Kept with the marks of ``debugDraw`` (no window of the course's here)."""
        self.distributions = distributions
