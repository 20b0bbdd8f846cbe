"""Pacman and ghost agents: the agent API, the built-in agents, plugins and the registry.

Write an agent against :mod:`pacsim.agents.api` (re-exported here); name it
to pacsim with a spec (``minimax:depth=3``, ``my_agents.py:Cautious``), which
:func:`make_pacman` / :func:`make_ghost` turn into an agent.

The names below are imported on first use (:mod:`pacsim.lazy`): a module of
this package (the CS188 adapter, the ghosts) does not load every built-in agent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pacsim.lazy import lazy_attribute

if TYPE_CHECKING:
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

_HOMES = {
    "pacsim.agents.api": ("Agent", "Distribution", "MoveStats", "NoOptions", "SearchingAgent", "StochasticAgent",
                          "ValuingAgent", "sample", "uniform"),
    "pacsim.agents.registry": ("ghost_names", "make_ghost", "make_pacman", "pacman_names", "parse_options",
                               "parse_spec"),
}

__all__ = [
    "Agent", "StochasticAgent", "NoOptions", "MoveStats", "Distribution", "SearchingAgent", "ValuingAgent",
    "sample", "uniform",
    "make_pacman", "make_ghost", "pacman_names", "ghost_names", "parse_options", "parse_spec",
]


def __getattr__(name: str) -> Any:
    return lazy_attribute(__name__, name, _HOMES)
