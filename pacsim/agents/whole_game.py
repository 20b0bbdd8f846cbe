"""Whole games in the kernel when every agent of a game is covered.

:func:`play_in_kernel` is ``play_game`` for a built-in search Pacman whose
search the game loop runs (:func:`~pacsim.fast.request.game_loop_declined`
lets its request through: the plain search, no Star1/Star2, table or
adversarial model; and it has no ``time=`` budget) against built-in ghosts
(random, directional, ambusher, adversarial with any ``p``) or users'
own (:class:`~pacsim.agents.ghosts.KernelGhost`, one policy a game: ghosts
playing two different policies are played in Python), with no per-move time
limit: the kernel plays the whole game (:mod:`pacsim.fast.game`) and the
record is the one the Python loop gives, times apart.  Anything else
returns None and the caller plays the game in Python; no note is needed,
as the per-move kernel still serves whatever it covers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pacsim.agents.backend import kernel_wanted
from pacsim.agents.ghosts import KernelGhost
from pacsim.agents.notes import say_once
from pacsim.agents.search_agents import SearchPacman
from pacsim.engine import GameRecord, GameState, Layout, initial_state
from pacsim.engine.streams import PUBLIC_STREAMS, Streams
from pacsim.errors import AgentError
from pacsim.fast.kinds import KERNEL_GHOSTS
from pacsim.fast.request import SearchRequest, game_loop_declined


def play_in_kernel(layout: Layout, agents: Sequence[Any], seed: int, max_moves: int,
                   move_time_limit: float | None = None, streams: Streams = PUBLIC_STREAMS) -> GameRecord | None:
    """The record ``play_game(layout, agents, seed, max_moves,
    move_time_limit, streams=streams)`` gives, played by the kernel, or None when the game
    is not covered (then nothing has been asked of the agents)."""
    if move_time_limit is not None or len(agents) < 1:
        return None
    num_ghosts = min(len(agents) - 1, layout.num_ghosts)
    state = initial_state(layout, num_ghosts)
    request = pacman_request(agents[0], state)  # None, among other reasons, where numba is missing
    if request is None:
        return None
    ghosts = [ghost_plan(agent) for agent in agents[1:num_ghosts + 1]]
    if None in ghosts or len({ghost.policy for ghost in ghosts if ghost.policy is not None}) > 1:
        return None
    from pacsim.fast.game import play_kernel_game  # numba: loaded only when the kernel plays

    ties_random = agents[0].options.ties == "random"
    return play_kernel_game(layout, request, ties_random, tuple(ghosts), seed, max_moves, streams)


def pacman_request(agent: Any, state: GameState) -> SearchRequest | None:
    """The request ``agent`` makes for each of its moves in a game from
    ``state`` (``SearchPacman.get_action``'s), if the kernel runs it; else None."""
    if not (isinstance(agent, SearchPacman) and type(agent).kernel_plays):  # declared by its class (Agent.kernel_plays)
        return None
    options = agent.options
    if not kernel_wanted(options.backend) or options.time:
        return None
    try:
        levels = agent.levels(state)
    except AgentError:  # too deep: each move fails in Python, with its message
        return None
    request = agent.search_request(len(state.ghosts), levels, state.layout.num_cells,
                                   root_values=options.ties == "random")
    return request if game_loop_declined(request) is None else None


def ghost_plan(agent: Any) -> Any:
    """The kernel's :class:`~pacsim.fast.game.GhostPlan` of a built-in
    ghost or a user's own (:class:`~pacsim.agents.ghosts.KernelGhost`),
    or None."""
    from pacsim.fast.game import OWN, GhostPlan
    from pacsim.fast.policies import parameters_of

    kind = type(agent)
    if not getattr(kind, "kernel_plays", False):  # declared by its class (Agent.kernel_plays)
        return None
    if isinstance(agent, KernelGhost):
        if not kernel_wanted(agent.options.backend):
            return None
        note = agent.backend_note()  # numba cannot compile it: said once, and Python plays
        if note is not None:
            say_once(note)
            return None
        return GhostPlan(OWN, policy=kind.policy)
    if kind.name not in KERNEL_GHOSTS:
        return None
    options = agent.options
    if not kernel_wanted(getattr(options, "backend", "auto")):
        return None
    return GhostPlan(kind.name, parameters_of(options), getattr(options, "depth", 2))

