"""Whole games in the kernel, behind ``pacsim.engine.game``'s record.

:func:`play_kernel_game` plays one game of a search Pacman against the
built-in ghosts, or a user's own (:mod:`pacsim.fast.gameloop`) and returns the
:class:`~pacsim.engine.GameRecord` that ``play_game`` returns for the same
agents and seed: the same actions, outcome, score and per-move search
statistics; only the times are the kernel's own.  It knows nothing of
agents: :mod:`pacsim.agents.whole_game` decides when a game is covered and
describes the Pacman by his :class:`~pacsim.fast.request.SearchRequest` and
each ghost by a :class:`GhostPlan`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from pacsim.engine import ACTIONS, LOSS, TIMEOUT, WIN, GameRecord, Layout, initial_state
from pacsim.engine.game import agent_rng
from pacsim.engine.stats import FAST, MoveStats
from pacsim.engine.streams import PUBLIC_STREAMS, Streams
from pacsim.fast import gameloop, kernel
from pacsim.fast.bundles import GameArrays, GhostTeam, PacmanPlan, Scratch
from pacsim.fast.jit import compile_before_timing
from pacsim.fast.kinds import KERNEL_GHOSTS, GhostKind
from pacsim.fast.maze_arrays import layout_tables, state_row
from pacsim.fast.memo import chase_memo, pacman_memo
from pacsim.fast.policies import DEFAULT_PARAMETERS
from pacsim.fast.request import SearchRequest
from pacsim.fast.slices import SLICE_SECONDS, SMALLEST_SLICE, in_slices
from pacsim.fast.streams import stream_row
from pacsim.fast.subtree_memo import subtree_memo
from pacsim.fast.translate import KernelSearch, chase_model, translate, workspace
from pacsim.fast.view import GhostPolicy

_OUTCOMES = {gameloop.WIN: WIN, gameloop.LOSS: LOSS, gameloop.TIMEOUT: TIMEOUT}
FIRST_GAME_SLICE = 20_000
"""Nodes a game plays before it first hands control back (about 10 ms;
a slice costs about 50 microseconds of calls); later slices are sized
to about ``SLICE_SECONDS``."""


OWN = GhostKind.OWN.label
"""A :class:`GhostPlan`'s kind for a user's own ghost (its ``policy``)."""


@dataclass(frozen=True)
class GhostPlan:
    """One built-in ghost, or a user's own, as the game loop plays it."""

    kind: str
    """A name in :data:`pacsim.fast.kinds.KERNEL_GHOSTS`, or :data:`OWN`."""
    parameters: tuple[float, ...] = DEFAULT_PARAMETERS
    """Its numbers (:data:`pacsim.fast.policies.PARAMETERS`)."""
    depth: int = 2
    """The adversarial ghost's search depth in rounds."""
    policy: GhostPolicy | None = None
    """A user's own ghost's :func:`~pacsim.fast.view.kernel_ghost` (kind :data:`OWN`)."""


def play_kernel_game(layout: Layout, pacman: SearchRequest, ties_random: bool, ghosts: tuple[GhostPlan, ...],
                     seed: int, max_moves: int, streams: Streams = PUBLIC_STREAMS) -> GameRecord | None:
    """The game ``play_game`` plays on ``layout`` and ``seed`` (its agents' ``streams``) with a search
    Pacman making ``pacman`` (a request the kernel runs) at every move,
    breaking ties at random if ``ties_random``, against ``ghosts`` (whose
    own ghosts, if any, play one policy); None in the rare position the
    kernel leaves to Python (a ghost without a legal move, a user's own
    ghost's bad distribution: Python plays the game to the same error)."""
    started = time.perf_counter()
    state = initial_state(layout, len(ghosts))
    row = state_row(state)
    progress = np.zeros(gameloop.PROGRESS_SLOTS, np.int64)
    played = np.empty(max_moves * (len(ghosts) + 1), np.int64)
    move_stats = np.zeros((max_moves, gameloop.MOVE_COLUMNS), np.int64)
    move_values = np.zeros(max_moves, np.float64)
    game = GameArrays(row, progress, _streams(seed, len(ghosts), streams), played, move_stats, move_values)
    scratch = Scratch(np.empty(5, np.int64), np.empty(5, np.int64), np.empty(5, np.float64), np.empty(5, np.int64))
    work = workspace(row, max([pacman.levels, *_ghost_levels(state, ghosts)]), subtree_memo(row.shape[0]))
    search = translate(state, pacman)
    settings = (pacman.levels, search.full_window, search.model.settings.tobytes(), search.model.weights.tobytes(),
                search.chance_mode, search.adversary, search.evaluation, search.ghost)  # all his search reads but the position
    plan = PacmanPlan(search.model, pacman.levels, search.full_window, ties_random,
                      pacman_memo(layout, row.shape[0], settings))
    arguments = (layout_tables(layout), game, max_moves, plan, _ghost_team(state, ghosts), work, scratch)
    game_loop = _game_loop(search, ghosts)
    compiling = compile_before_timing(game_loop, (*arguments, FIRST_GAME_SLICE))  # its own figure, not the game's
    kernel_seconds = in_slices(game_loop, arguments, FIRST_GAME_SLICE, SMALLEST_SLICE, SLICE_SECONDS,
                               users_code=game_loop is not gameloop.play_slice)
    if progress[gameloop.OUTCOME] == gameloop.DECLINED:
        return None
    seconds_per_cycle = kernel_seconds / max(int(progress[gameloop.SLICE_CYCLES]), 1)
    moves = int(progress[gameloop.MOVES])
    move_seconds = [float(cycles) * seconds_per_cycle for cycles in move_stats[:moves, gameloop.MOVE_TIME]]
    return GameRecord(
        layout=layout.name, seed=seed, num_ghosts=len(ghosts), streams=streams.version, outcome=_OUTCOMES[int(progress[gameloop.OUTCOME])],
        score=int(row[kernel.SCORE]), moves=moves,
        actions=[ACTIONS[action] for action in played[:progress[gameloop.ACTIONS_PLAYED]]],
        seconds=time.perf_counter() - started - compiling, move_seconds=move_seconds,
        search_stats=_search_stats(move_stats[:moves], move_values, move_seconds, pacman.levels),
    )


def _game_loop(pacman: KernelSearch, ghosts: tuple[GhostPlan, ...]) -> Any:
    """``gameloop.play_slice``, or its copy compiled around the users' own
    functions the game plays (:func:`pacsim.fast.own.play_slice`): the
    Pacman's evaluation and the ghost he models, the ghosts' policy."""
    evaluation, model = pacman.evaluation, pacman.ghost
    policies = {ghost.policy for ghost in ghosts if ghost.policy is not None}
    if len(policies) > 1:
        raise ValueError("play_kernel_game: the ghosts play more than one own policy (pacsim.agents.whole_game plays such games in Python)")
    ghost = next(iter(policies), None)
    if evaluation is None and model is None and ghost is None:
        return gameloop.play_slice
    from pacsim.fast.own import play_slice as own_play_slice  # numba: only for users' own code

    return own_play_slice(evaluation, model, ghost)


def _ghost_levels(state: Any, ghosts: tuple[GhostPlan, ...]) -> list[int]:
    """Each ghost's search levels (AdversarialGhost: depth times the agents)."""
    return [ghost.depth * state.num_agents if ghost.kind == "adversarial" else 0 for ghost in ghosts]


def _ghost_team(state: Any, ghosts: tuple[GhostPlan, ...]) -> GhostTeam:
    count = len(ghosts)
    settings = [chase_model(state, index).settings for index in range(1, count + 1)]  # chase_values' game
    settings_array = np.array(settings, np.int64).reshape(count, count + 1 + kernel.KINDS)
    weights = np.array([ghost.parameters for ghost in ghosts], np.float64)
    kinds = [GhostKind.OWN if ghost.policy is not None else KERNEL_GHOSTS[ghost.kind] for ghost in ghosts]
    return GhostTeam(np.array(kinds, np.int64), settings_array,
                     np.array(_ghost_levels(state, ghosts), np.int64), weights.reshape(count, gameloop.GHOST_WEIGHTS),
                     chase_memo(state.layout, len(state_row(state))))


def _streams(seed: int, ghosts: int, streams: Streams) -> np.ndarray:
    """Every agent's ``agent_rng`` as a stream row of :mod:`pacsim.fast.streams`."""
    return np.array([stream_row(agent_rng(seed, agent, streams)) for agent in range(ghosts + 1)], np.int64)


def _search_stats(move_stats: np.ndarray, move_values: np.ndarray, move_seconds: list[float],
                  levels: int) -> list[MoveStats]:
    """Each move's :class:`MoveStats`, as ``SearchPacman.get_action`` reports it."""
    return [MoveStats(generated=generated, evaluated=evaluated, cutoffs=cutoffs, seconds=seconds, depth=levels,
                      max_depth=deepest, value=value, backend=FAST)
            for (generated, evaluated, cutoffs, deepest, _), value, seconds
            in zip(move_stats.tolist(), move_values.tolist(), move_seconds)]
