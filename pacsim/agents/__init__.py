"""Pacman and ghost policies, evaluation functions, and the agent registry."""

from pacsim.agents.base import Agent, StochasticAgent
from pacsim.agents.registry import ghost_names, make_ghost, make_pacman, pacman_names, parse_options, parse_spec

__all__ = ["Agent", "StochasticAgent", "make_pacman", "make_ghost", "pacman_names", "ghost_names", "parse_options", "parse_spec"]
