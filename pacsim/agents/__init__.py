"""Pacman and ghost agents: the agent API, the built-in agents, plugins and the registry.

Write an agent against :mod:`pacsim.agents.api` (re-exported here); name it
to pacsim with a spec (``minimax:depth=3``, ``my_agents.py:Cautious``), which
:func:`make_pacman` / :func:`make_ghost` turn into an agent.
"""

from pacsim.agents.api import (
    Agent,
    Distribution,
    MoveStats,
    NoOptions,
    SearchingAgent,
    StochasticAgent,
    ValuingAgent,
    sample,
    uniform,
)
from pacsim.agents.registry import ghost_names, make_ghost, make_pacman, pacman_names, parse_options, parse_spec

__all__ = [
    "Agent", "StochasticAgent", "NoOptions", "MoveStats", "Distribution", "SearchingAgent", "ValuingAgent",
    "sample", "uniform",
    "make_pacman", "make_ghost", "pacman_names", "ghost_names", "parse_options", "parse_spec",
]
