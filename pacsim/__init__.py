"""pacsim: a Pacman-style testbed for game-tree search."""

__version__ = "0.1.0"
