"""A stand-in for the course's pacman.py: agent files import GameState from it for annotations."""


class GameState:
    """Only a name for type annotations here; pacsim hands agents its own CS188-style state."""
