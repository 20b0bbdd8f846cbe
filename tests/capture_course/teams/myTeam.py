# A course-style team file, written for pacsim's tests against the course's API
# (as a student's myTeam.py is): it imports the course's modules by their names.
import random

import util
from captureAgents import CaptureAgent
from game import Directions
from util import nearestPoint


def createTeam(firstIndex, secondIndex, isRed, first='HungryAgent', second='GuardAgent'):
    return [eval(first)(firstIndex), eval(second)(secondIndex)]


class ReflexCaptureAgent(CaptureAgent):
    def registerInitialState(self, gameState):
        self.start = gameState.getAgentPosition(self.index)
        CaptureAgent.registerInitialState(self, gameState)
        self.seen_distances = []

    def chooseAction(self, gameState):
        actions = gameState.getLegalActions(self.index)
        values = [self.evaluate(gameState, action) for action in actions]
        best = max(values)
        self.seen_distances.append(gameState.getAgentDistances())
        self.debugDraw([self.start], [1, 0, 0], clear=True)
        assert self.getCurrentObservation() is gameState
        return random.choice([action for action, value in zip(actions, values) if value == best])

    def getSuccessor(self, gameState, action):
        successor = gameState.generateSuccessor(self.index, action)
        position = successor.getAgentState(self.index).getPosition()
        assert position == nearestPoint(position)
        return successor

    def evaluate(self, gameState, action):
        return self.getFeatures(gameState, action) * self.getWeights(gameState, action)


class HungryAgent(ReflexCaptureAgent):
    def getFeatures(self, gameState, action):
        features = util.Counter()
        successor = self.getSuccessor(gameState, action)
        food = self.getFood(successor).asList()
        features['successorScore'] = -len(food)
        if food:
            position = successor.getAgentState(self.index).getPosition()
            features['distanceToFood'] = min(self.getMazeDistance(position, spot) for spot in food)
        return features

    def getWeights(self, gameState, action):
        return {'successorScore': 100, 'distanceToFood': -1}


class GuardAgent(ReflexCaptureAgent):
    def getFeatures(self, gameState, action):
        features = util.Counter()
        successor = self.getSuccessor(gameState, action)
        state = successor.getAgentState(self.index)
        features['onDefense'] = 0 if state.isPacman else 1
        enemies = [successor.getAgentState(i) for i in self.getOpponents(successor)]
        invaders = [enemy for enemy in enemies if enemy.isPacman and enemy.getPosition() is not None]
        features['numInvaders'] = len(invaders)
        if invaders:
            features['invaderDistance'] = min(self.getMazeDistance(state.getPosition(), enemy.getPosition()) for enemy in invaders)
        if action == Directions.STOP:
            features['stop'] = 1
        reverse = Directions.REVERSE[gameState.getAgentState(self.index).configuration.direction]
        if action == reverse:
            features['reverse'] = 1
        return features

    def getWeights(self, gameState, action):
        return {'numInvaders': -1000, 'onDefense': 100, 'invaderDistance': -10, 'stop': -100, 'reverse': -2}
