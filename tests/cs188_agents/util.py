"""A small stand-in for the course's util.py, written for pacsim's tests.

Only what the agents in this folder use.  (The course ships its own util.py;
a student's agent file imports that one, which pacsim puts first on the path.)
"""

import random


def manhattanDistance(first, second):
    """|x1 - x2| + |y1 - y2|."""
    return abs(first[0] - second[0]) + abs(first[1] - second[1])


def lookup(name, namespace):
    """A function by name from a module's globals(), as the course's agents
    turn evalFn='better' into betterEvaluationFunction."""
    if name in namespace:
        return namespace[name]
    raise KeyError(f"{name} not found in the agent's module")


def chooseFromDistribution(distribution):
    """Sample a key of a {action: probability} dict with the global random."""
    point = random.random()
    total = 0.0
    for action, probability in distribution.items():
        total += probability
        if point < total:
            return action
    return action


MARKER = "tests/cs188_agents/util.py"
"""Lets a test see which util module an agent file imported."""
