"""CS188-style Pacman agents, written for pacsim's tests against the course's
GameState API (not course code): a reflex agent and depth-limited minimax,
alpha-beta and expectimax searchers in the usual course style.

Depth is the course's: one depth is Pacman and then every ghost moving once.
Among equally good moves each searcher keeps the first in getLegalActions
order.
"""

import random

import util
from game import Agent, Directions
from pacman import GameState
from util import manhattanDistance


class ReflexAgent(Agent):
    """Looks one Pacman move ahead; breaks ties with random.choice."""

    def getAction(self, gameState: GameState):
        legalMoves = gameState.getLegalActions()
        scores = [self.evaluationFunction(gameState, action) for action in legalMoves]
        bestScore = max(scores)
        bestIndices = [index for index, score in enumerate(scores) if score == bestScore]
        return legalMoves[random.choice(bestIndices)]

    def evaluationFunction(self, currentGameState: GameState, action):
        successor = currentGameState.generatePacmanSuccessor(action)
        position = successor.getPacmanPosition()
        foodList = successor.getFood().asList()
        value = successor.getScore()
        if foodList:
            value += 1.0 / (1 + min(manhattanDistance(position, food) for food in foodList))
        for ghost in successor.getGhostStates():
            if ghost.scaredTimer == 0 and manhattanDistance(position, ghost.getPosition()) <= 1:
                value -= 100
        if action == Directions.STOP:
            value -= 1
        return value


def scoreEvaluationFunction(currentGameState: GameState):
    return currentGameState.getScore()


def closerFoodEvaluationFunction(currentGameState: GameState):
    """The score plus a little for being near food."""
    foodList = currentGameState.getFood().asList()
    if not foodList:
        return currentGameState.getScore()
    position = currentGameState.getPacmanPosition()
    return currentGameState.getScore() + 1.0 / (1 + min(manhattanDistance(position, food) for food in foodList))


better = closerFoodEvaluationFunction


class MultiAgentSearchAgent(Agent):
    """Options arrive as strings, as the course's -a passes them."""

    def __init__(self, evalFn="scoreEvaluationFunction", depth="2"):
        self.index = 0
        self.evaluationFunction = util.lookup(evalFn, globals())
        self.depth = int(depth)

    def isOver(self, gameState, depth):
        return gameState.isWin() or gameState.isLose() or depth == self.depth


class MinimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState: GameState):
        bestValue, bestAction = float("-inf"), None
        for action in gameState.getLegalActions(0):
            value = self.value(gameState.generateSuccessor(0, action), 1, 0)
            if value > bestValue:
                bestValue, bestAction = value, action
        return bestAction

    def value(self, gameState, agentIndex, depth):
        if agentIndex == gameState.getNumAgents():
            agentIndex, depth = 0, depth + 1
        if self.isOver(gameState, depth):
            return self.evaluationFunction(gameState)
        values = [self.value(gameState.generateSuccessor(agentIndex, action), agentIndex + 1, depth)
                  for action in gameState.getLegalActions(agentIndex)]
        return max(values) if agentIndex == 0 else min(values)


class AlphaBetaAgent(MultiAgentSearchAgent):
    """Prunes only on strict inequality, as the course asks."""

    def getAction(self, gameState: GameState):
        alpha, bestAction = float("-inf"), None
        for action in gameState.getLegalActions(0):
            value = self.value(gameState.generateSuccessor(0, action), 1, 0, alpha, float("inf"))
            if value > alpha:
                alpha, bestAction = value, action
        return bestAction

    def value(self, gameState, agentIndex, depth, alpha, beta):
        if agentIndex == gameState.getNumAgents():
            agentIndex, depth = 0, depth + 1
        if self.isOver(gameState, depth):
            return self.evaluationFunction(gameState)
        if agentIndex == 0:
            best = float("-inf")
            for action in gameState.getLegalActions(0):
                best = max(best, self.value(gameState.generateSuccessor(0, action), 1, depth, alpha, beta))
                if best > beta:
                    return best
                alpha = max(alpha, best)
            return best
        best = float("inf")
        for action in gameState.getLegalActions(agentIndex):
            best = min(best, self.value(gameState.generateSuccessor(agentIndex, action), agentIndex + 1, depth, alpha, beta))
            if best < alpha:
                return best
            beta = min(beta, best)
        return best


class ExpectimaxAgent(MultiAgentSearchAgent):
    """Ghosts move uniformly at random."""

    def getAction(self, gameState: GameState):
        values = self.rootValues(gameState)
        bestValue = max(value for _, value in values)
        return next(action for action, value in values if value == bestValue)

    def rootValues(self, gameState):
        return [(action, self.value(gameState.generateSuccessor(0, action), 1, 0))
                for action in gameState.getLegalActions(0)]

    def value(self, gameState, agentIndex, depth):
        if agentIndex == gameState.getNumAgents():
            agentIndex, depth = 0, depth + 1
        if self.isOver(gameState, depth):
            return self.evaluationFunction(gameState)
        values = [self.value(gameState.generateSuccessor(agentIndex, action), agentIndex + 1, depth)
                  for action in gameState.getLegalActions(agentIndex)]
        if agentIndex == 0:
            return max(values)
        return sum(values) / len(values)
