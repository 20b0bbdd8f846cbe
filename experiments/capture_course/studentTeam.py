# A team as a student writes one for the course's contest (its API only, nothing of pacsim): an attacker that
# goes for the nearest food, keeps away from the ghosts it can see, takes a capsule when chased and goes home
# once it carries enough; a defender that chases the invaders it can see and otherwise guards the food it
# last saw go missing. The course's engine and pacsim both play it unmodified (experiments/capture_course).

import random

from captureAgents import CaptureAgent
from game import Directions


def createTeam(firstIndex, secondIndex, isRed, first='Raider', second='Guard'):
    return [eval(first)(firstIndex), eval(second)(secondIndex)]


class StudentAgent(CaptureAgent):
    def registerInitialState(self, gameState):
        CaptureAgent.registerInitialState(self, gameState)
        walls = gameState.getWalls()
        middle = walls.width // 2 - 1 if self.red else walls.width // 2
        self.border = [(middle, y) for y in range(walls.height) if not walls[middle][y]]

    def myPosition(self, gameState):
        return gameState.getAgentState(self.index).getPosition()

    def visibleOpponents(self, gameState):
        states = [gameState.getAgentState(index) for index in self.getOpponents(gameState)]
        return [state for state in states if state.getPosition() is not None]

    def bestBy(self, gameState, cost):
        """The action whose successor position minimises ``cost`` (ties broken at random)."""
        actions = [action for action in gameState.getLegalActions(self.index) if action != Directions.STOP]
        scored = [(cost(self.getSuccessor(gameState, action)), action) for action in actions]
        lowest = min(score for score, _ in scored)
        return random.choice([action for score, action in scored if score == lowest])

    def getSuccessor(self, gameState, action):
        return gameState.generateSuccessor(self.index, action)

    def distanceHome(self, position):
        return min(self.getMazeDistance(position, cell) for cell in self.border)


class Raider(StudentAgent):
    def chooseAction(self, gameState):
        me = gameState.getAgentState(self.index)
        ghosts = [state.getPosition() for state in self.visibleOpponents(gameState)
                  if not state.isPacman and state.scaredTimer < 3]
        food = self.getFood(gameState).asList()
        capsules = self.getCapsules(gameState)
        goHome = me.numCarrying >= 5 or len(food) <= 2 or (me.numCarrying > 0 and ghosts)

        def cost(successor):
            position = successor.getAgentState(self.index).getPosition()
            danger = min([self.getMazeDistance(position, ghost) for ghost in ghosts] or [99])
            if danger <= 1:
                return 1000 - danger
            if ghosts and capsules:
                return min(self.getMazeDistance(position, capsule) for capsule in capsules)
            if goHome:
                return self.distanceHome(position)
            return min([self.getMazeDistance(position, cell) for cell in food] or [0])

        return self.bestBy(gameState, cost)


class Guard(StudentAgent):
    def registerInitialState(self, gameState):
        StudentAgent.registerInitialState(self, gameState)
        self.target = random.choice(self.border)

    def chooseAction(self, gameState):
        invaders = [state.getPosition() for state in self.visibleOpponents(gameState) if state.isPacman]
        previous = self.getPreviousObservation()
        if previous is not None:
            eaten = set(self.getFoodYouAreDefending(previous).asList()) - set(self.getFoodYouAreDefending(gameState).asList())
            if eaten:
                self.target = eaten.pop()
        if self.myPosition(gameState) == self.target:
            self.target = random.choice(self.border)
        goals = invaders or [self.target]
        scared = gameState.getAgentState(self.index).scaredTimer > 0

        def cost(successor):
            state = successor.getAgentState(self.index)
            if state.isPacman:
                return 999  # a guard stays home
            nearest = min(self.getMazeDistance(state.getPosition(), goal) for goal in goals)
            return -nearest if scared and invaders else nearest

        return self.bestBy(gameState, cost)
