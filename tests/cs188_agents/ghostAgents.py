"""CS188-style ghosts written for pacsim's tests: they define getDistribution,
and a base getAction that samples it with the global random."""

import util
from game import Agent, Directions
from util import manhattanDistance

STEPS = {Directions.NORTH: (0, 1), Directions.SOUTH: (0, -1), Directions.EAST: (1, 0),
         Directions.WEST: (-1, 0), Directions.STOP: (0, 0)}


class GhostAgent(Agent):
    def __init__(self, index):
        self.index = index

    def getAction(self, state):
        distribution = self.getDistribution(state)
        if not distribution:
            return Directions.STOP
        return util.chooseFromDistribution(distribution)

    def getDistribution(self, state):
        raise NotImplementedError


class UniformGhost(GhostAgent):
    """Every legal move equally likely."""

    def getDistribution(self, state):
        actions = state.getLegalActions(self.index)
        return {action: 1.0 / len(actions) for action in actions}


class ChasingGhost(GhostAgent):
    """Mostly steps toward Pacman by Manhattan distance (away when scared)."""

    def __init__(self, index, focus="0.8"):
        self.index = index
        self.focus = float(focus)

    def getDistribution(self, state):
        ghost = state.getGhostState(self.index)
        x, y = state.getGhostPosition(self.index)
        pacman = state.getPacmanPosition()
        actions = state.getLegalActions(self.index)
        distances = []
        for action in actions:
            dx, dy = STEPS[action]
            distances.append(manhattanDistance((x + dx, y + dy), pacman))
        scared = ghost.scaredTimer > 0
        target = max(distances) if scared else min(distances)
        best = [action for action, distance in zip(actions, distances) if distance == target]
        distribution = {action: (1 - self.focus) / len(actions) for action in actions}
        for action in best:
            distribution[action] += self.focus / len(best)
        return distribution
