"""A small stand-in for the course's game.py (Agent and Directions), written for pacsim's tests."""


class Directions:
    NORTH = "North"
    SOUTH = "South"
    EAST = "East"
    WEST = "West"
    STOP = "Stop"


class Agent:
    """Course agents keep their agent index; Pacman is 0."""

    def __init__(self, index=0):
        self.index = index

    def getAction(self, state):
        raise NotImplementedError
