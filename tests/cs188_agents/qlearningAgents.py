"""A CS188-style tabular Q-learning Pacman, written for pacsim's tests (not
course code).  It relies on what the course's game loop does for its
reinforcement agents:

* the constructor takes ``numTraining`` (``pacman.py -x N`` passes it);
* ``registerInitialState(state)`` starts an episode;
* ``observationFunction(state)`` comes before every ``getAction`` and sees
  the reward of the last move as the score change;
* ``final(state)`` ends the episode with the last transition; after
  ``numTraining`` episodes exploration and learning stop.

Q-values live in a dict keyed by ``(state, action)``: the course's
``GameState`` must be hashable and equal by content.
"""

import random

from game import Agent


class PacmanQAgent(Agent):
    """Epsilon-greedy tabular Q-learning, the course's defaults."""

    def __init__(self, epsilon=0.05, gamma=0.8, alpha=0.2, numTraining=0, index=0):
        super().__init__(index)
        self.epsilon = float(epsilon)
        self.discount = float(gamma)
        self.alpha = float(alpha)
        self.numTraining = int(numTraining)
        self.qValues = {}
        self.episodesSoFar = 0
        self.calls = []
        """Which hooks the game loop called, in order (for the tests)."""
        self.lastState = None
        self.lastAction = None

    # -- the game loop's hooks ----------------------------------------------------
    def registerInitialState(self, state):
        self.calls.append("registerInitialState")
        self.lastState = None
        self.lastAction = None

    def observationFunction(self, state):
        self.calls.append("observationFunction")
        if self.lastState is not None:
            self.update(self.lastState, self.lastAction, state, state.getScore() - self.lastState.getScore())
        return state

    def final(self, state):
        self.calls.append("final")
        self.update(self.lastState, self.lastAction, state, state.getScore() - self.lastState.getScore())
        self.episodesSoFar += 1
        if self.episodesSoFar >= self.numTraining:
            self.epsilon = 0.0
            self.alpha = 0.0

    # -- Q-learning -----------------------------------------------------------------
    def getQValue(self, state, action):
        return self.qValues.get((state, action), 0.0)

    def computeValueFromQValues(self, state):
        actions = state.getLegalActions(0)
        return max((self.getQValue(state, action) for action in actions), default=0.0)

    def computeActionFromQValues(self, state):
        actions = state.getLegalActions(0)
        best = self.computeValueFromQValues(state)
        return random.choice([action for action in actions if self.getQValue(state, action) == best])

    def update(self, state, action, nextState, reward):
        sample = reward + self.discount * self.computeValueFromQValues(nextState)
        self.qValues[(state, action)] = (1 - self.alpha) * self.getQValue(state, action) + self.alpha * sample

    def getAction(self, state):
        self.calls.append("getAction")
        if random.random() < self.epsilon:
            action = random.choice(state.getLegalActions(0))
        else:
            action = self.computeActionFromQValues(state)
        self.lastState = state
        self.lastAction = action
        return action
