"""Whole games in the kernel when every agent of a game is covered.

:func:`play_in_kernel` is ``play_game`` for a built-in search Pacman that
the kernel searches for (``engines.unsupported`` says nothing against it,
no ``time=`` budget) against built-in ghosts (random, directional,
adversarial with any ``p``), with no per-move time limit: the kernel plays
the whole game (:mod:`pacsim.fast.game`) and the record is the one the
Python loop gives, times apart.  Anything else returns None and the caller
plays the game in Python; no note is needed, as the per-move kernel still
serves whatever it covers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pacsim.agents.engines import _enabled, unsupported
from pacsim.agents.ghosts import AdversarialGhost, DirectionalGhost, RandomGhost
from pacsim.agents.search_agents import SEARCH_PACMEN, SearchPacman
from pacsim.engine import GameRecord, GameState, Layout, initial_state
from pacsim.errors import AgentError
from pacsim.fast import SUPPORTED_ALGORITHMS
from pacsim.search import ALGORITHMS

_BUILT_IN_PACMEN = frozenset(SEARCH_PACMEN.values())


def play_in_kernel(layout: Layout, agents: Sequence[Any], seed: int, max_moves: int,
                   move_time_limit: float | None = None) -> GameRecord | None:
    """The record ``play_game(layout, agents, seed, max_moves,
    move_time_limit)`` gives, played by the kernel, or None when the game
    is not covered (then nothing has been asked of the agents)."""
    if move_time_limit is not None or len(agents) < 1:
        return None
    num_ghosts = min(len(agents) - 1, layout.num_ghosts)
    state = initial_state(layout, num_ghosts)
    pacman = pacman_plan(agents[0], state)  # None, among other reasons, where numba is missing
    if pacman is None:
        return None
    ghosts = [ghost_plan(agent) for agent in agents[1:]]
    if None in ghosts:
        return None
    from pacsim.fast.game import play_kernel_game

    return play_kernel_game(layout, pacman, tuple(ghosts[:num_ghosts]), seed, max_moves)


def pacman_plan(agent: Any, state: GameState) -> Any:
    """The kernel's :class:`~pacsim.fast.game.PacmanPlan` of ``agent``
    (what ``try_fast_search`` passes to ``kernel_search``), or None."""
    if type(agent) not in _BUILT_IN_PACMEN:  # a subclass may play differently
        return None
    assert isinstance(agent, SearchPacman)
    options = agent.options
    if not _enabled(options.engine) or options.time or unsupported(agent, state) is not None:
        return None
    kinds = ("max", *(agent.ghost_kind(ghost) for ghost in range(len(state.ghosts))))
    if not set(kinds) <= ALGORITHMS[agent.algorithm][0]:
        return None  # the Python search reports the misuse
    try:
        levels = agent.levels(state)
    except AgentError:  # too deep: each move fails in Python, with its message
        return None
    from pacsim.fast.game import PacmanPlan

    return PacmanPlan(kinds=kinds, evaluation=options.eval, levels=levels,
                      pruned=SUPPORTED_ALGORITHMS[agent.algorithm],
                      model=options.model if "chance" in kinds else "uniform", trust=options.trust,
                      slip=options.slip, ties_random=options.ties == "random")


def ghost_plan(agent: Any) -> Any:
    """The kernel's :class:`~pacsim.fast.game.GhostPlan` of a built-in
    ghost, or None."""
    from pacsim.fast.game import GhostPlan

    kind = type(agent)
    if kind is RandomGhost:
        return GhostPlan("random")
    if kind is DirectionalGhost:
        return GhostPlan("directional", attack=agent.options.attack, flee=agent.options.flee)
    if kind is AdversarialGhost and _enabled(agent.options.engine):
        return GhostPlan("adversarial", p=agent.options.p, depth=agent.options.depth)
    return None
