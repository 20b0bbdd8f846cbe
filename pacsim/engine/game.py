"""The game loop: agents take turns until the game ends, and everything is recorded.

A game is a pure function of (layout, agents, seed): every agent gets its own
``random.Random`` derived from the seed and its agent index through a one-way
hash (:mod:`pacsim.engine.streams`: its state reveals neither the seed nor
another agent's stream), so a replay of the recorded actions through the rules
reproduces the game exactly.  An agent that
raises, returns an illegal action, or overruns its time limit ends the game
with the ``error`` outcome and a message; it never crashes a batch of games.
A sandboxed entrant's failure (:class:`AgentFault`) is the entrant's own
result instead: its side loses, the fault's kind recorded.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from functools import cache, partial
from traceback import format_exception
from types import TracebackType
from typing import Any, Protocol

from pacsim.engine.deadline import AgentTimeout, UserInterrupt, call_with_deadline, user_interrupts_marked
from pacsim.engine.layout import Layout
from pacsim.engine.state import GameState, apply_move, initial_state
from pacsim.engine.stats import MoveStats
from pacsim.engine.streams import PUBLIC_STREAMS, STREAM_VERSION, Streams
from pacsim.errors import ConfigError

WIN, LOSS, TIMEOUT, ERROR = "win", "loss", "timeout", "error"
OUTCOMES = (WIN, LOSS, TIMEOUT, ERROR)
DEFAULT_MAX_MOVES = 1000
MAX_MOVES_LIMIT = 100_000
"""Largest ``max_moves`` accepted: a game's record (every action, every move's
statistics) grows with its moves, so an unbounded cap is unbounded memory."""


FAULTS = ("crash", "startup_timeout", "move_timeout", "cpu", "memory", "illegal", "protocol")
"""Kinds of :class:`AgentFault`: a sandboxed entrant's process died, did not
start in time, overran a move, used up its CPU time or memory, played an
illegal action, or sent its parent what the sandbox's protocol does not allow."""


class PlayerStopped(Exception):
    """The person playing an agent stopped the game (a keyboard game's input
    ended): not the agent's fault, so the game loop passes it on, as it does
    a Ctrl-C, for the caller to say in one line."""


class AgentFault(Exception):
    """A sandboxed entrant failed (:mod:`pacsim.sandbox`): unlike an
    ``error``, a result the entrant earned.  Its side loses the game (a
    Pacman's fault is a loss, a ghost's a win for Pacman), ``kind`` (one of
    :data:`FAULTS`) recorded with it."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def check_max_moves(moves: int, where: str) -> int:
    """``moves`` if it is from 1 to :data:`MAX_MOVES_LIMIT`, else a one-line
    :class:`ConfigError` that starts with ``where``."""
    if not 1 <= moves <= MAX_MOVES_LIMIT:
        raise ConfigError(f"{where}: the move cap must be from 1 to {MAX_MOVES_LIMIT:,} Pacman moves, not {moves:,}")
    return moves


class Agent(Protocol):
    """What the game loop needs of an agent: every agent, built-in or plugin,
    is one (:class:`pacsim.agents.api.Agent` implements it)."""

    last_stats: MoveStats | None
    """After a move, its search statistics (recorded for Pacman), or None."""

    def reset(self, index: int, rng: random.Random) -> None:
        """Before every game: this agent's index (0 is Pacman) and random stream."""

    def get_action(self, state: GameState) -> str:
        """The action to play in ``state`` (it is this agent's turn)."""

    def final(self, state: GameState) -> None:
        """After a game that ended by the rules or the move cap, with its last state."""


def agent_rng(seed: int, agent: int, streams: Streams = PUBLIC_STREAMS) -> random.Random:
    """The random stream of agent ``agent`` in the game with ``seed``.

    Separate streams per agent keep, say, the ghosts' dice independent of
    which Pacman plays (common random numbers across conditions); ``streams``
    says how they are seeded (:mod:`pacsim.engine.streams`)."""
    return streams.rng(seed, agent)


def start_agents(agents: Sequence[Agent], seed: int, first_index: int = 0,
                 streams: Streams = PUBLIC_STREAMS) -> None:
    """Give each agent its index and random stream before a game."""
    for index, agent in enumerate(agents, start=first_index):
        agent.reset(index, agent_rng(seed, index, streams))


SHORT_LIST = 8
"""Lists up to this long are shown whole in a record's repr (the ghosts' specs); longer ones by their length."""


def short_repr(record: Any) -> str:
    """A dataclass's repr with each long list field (hundreds of actions,
    times, statistics) given as its length instead of inlined on one line."""
    shown = []
    for field_info in fields(record):
        if field_info.repr:
            value = getattr(record, field_info.name)
            long = isinstance(value, list) and len(value) > SHORT_LIST
            shown.append(f"{field_info.name}=<{len(value)} items>" if long else f"{field_info.name}={value!r}")
    return f"{type(record).__name__}({', '.join(shown)})"


@dataclass(repr=False)
class GameRecord:
    """Everything that happened in one game, enough to replay it exactly."""

    layout: str
    """Layout name."""
    seed: int
    num_ghosts: int
    outcome: str = ERROR
    """win, loss, timeout (move cap reached) or error (an agent failed)."""
    score: int = 0
    moves: int = 0
    """Pacman moves played."""
    actions: list[str] = field(default_factory=list)
    """Every agent's action in order: the replay log."""
    error: str | None = None
    """What went wrong when the outcome is error."""
    error_traceback: str | None = field(default=None, compare=False, repr=False)
    """The full traceback when an agent raised (``play --debug`` prints it);
    not part of a game's identity, nor stored."""
    seconds: float = 0.0
    """Wall time of the whole game."""
    move_seconds: list[float] = field(default_factory=list)
    """Pacman's thinking time per move."""
    search_stats: list[MoveStats] = field(default_factory=list)
    """Per Pacman move, the :class:`MoveStats` its agent reported (moves it reported none for are left out)."""
    fault: str | None = None
    """The kind of a sandboxed entrant's :class:`AgentFault` that ended the game (its side lost), else None."""
    streams: int = STREAM_VERSION
    """The version of the agents' random streams (:mod:`pacsim.engine.streams`)."""

    @property
    def nodes(self) -> int:
        return sum(stats.generated for stats in self.search_stats)

    __repr__ = short_repr


def play_game(
    layout: Layout,
    agents: Sequence[Agent],
    seed: int = 0,
    max_moves: int = DEFAULT_MAX_MOVES,
    move_time_limit: float | None = None,
    on_state: Callable[[GameState, str | None], None] | None = None,
    streams: Streams = PUBLIC_STREAMS,
) -> GameRecord:
    """Play one game: ``agents[0]`` is Pacman, ``agents[i]`` ghost i.

    ``max_moves`` caps Pacman's moves (the game then ends as a timeout);
    ``move_time_limit`` (seconds) applies to every agent's every move.
    ``on_state(state, action)`` is called with the start (action None) and
    after every action, for displays.  ``streams`` seeds the agents' random
    streams (a tournament's carry its secret key).
    """
    check_max_moves(max_moves, "max_moves")
    with user_interrupts_marked():
        return _play(layout, agents, seed, max_moves, move_time_limit, on_state, streams)


def _play(
    layout: Layout,
    agents: Sequence[Agent],
    seed: int,
    max_moves: int,
    move_time_limit: float | None,
    on_state: Callable[[GameState, str | None], None] | None,
    streams: Streams,
) -> GameRecord:
    num_ghosts = min(len(agents) - 1, layout.num_ghosts)
    state = initial_state(layout, num_ghosts)
    record = GameRecord(layout=layout.name, seed=seed, num_ghosts=num_ghosts, streams=streams.version)
    failure = _start_agents(agents, seed, record, streams)
    started = time.perf_counter()
    if failure is not None:
        return _failed(record, state, started, failure)
    if on_state is not None:
        on_state(state, None)
    while not state.is_terminal:
        if state.turn == 0 and record.moves >= max_moves:
            record.outcome = TIMEOUT
            break
        agent_index = state.turn
        agent = agents[agent_index]
        before = time.perf_counter()
        try:
            action = call_with_deadline(partial(agent.get_action, state), move_time_limit)
        except (UserInterrupt, PlayerStopped):  # the user's Ctrl-C (or a person's stop) stops everything
            raise
        except AgentTimeout:
            return _failed(record, state, started, f"agent {agent_index} exceeded the {move_time_limit}s move time limit")
        except AgentFault as fault:
            return _faulted(record, state, started, agent_index, fault)
        except BaseException as error:  # SystemExit and KeyboardInterrupt too: an agent ends only its own game
            record.error_traceback = "".join(format_exception(error))
            return _failed(record, state, started, f"agent {agent_index} {describe_failure(error)}")
        elapsed = time.perf_counter() - before
        if move_time_limit is not None and elapsed > move_time_limit:
            return _failed(record, state, started, f"agent {agent_index} took {elapsed:.3f}s, over the {move_time_limit}s move time limit")
        if not isinstance(action, str):  # an object equal to 'North' is still not an action
            return _failed(record, state, started, f"agent {agent_index} returned a {type(action).__name__}, "
                                                   f"not an action name (a str); legal: {state.legal_actions()}")
        action = str.__str__(action)  # a str subclass's own __eq__ or __hash__ must not reach the rules
        target = _target(state, action)
        if target is None:
            return _failed(record, state, started, f"agent {agent_index} played illegal action {action!r}; legal: {state.legal_actions()}")
        if agent_index == 0:
            record.moves += 1
            record.move_seconds.append(elapsed)
            stats = agent.last_stats
            if isinstance(stats, MoveStats):  # a plugin may have set anything
                record.search_stats.append(stats)
        record.actions.append(action)
        state = apply_move(state, action, target)
        if on_state is not None:
            on_state(state, action)
    else:
        record.outcome = WIN if state.is_win() else LOSS
    failure = _final_agents(agents, state)
    if failure is not None:
        return _failed(record, state, started, failure)
    record.score = state.score
    record.seconds = time.perf_counter() - started
    return record


def _start_agents(agents: Sequence[Agent], seed: int, record: GameRecord, streams: Streams) -> str | None:
    """:func:`start_agents`, except that an agent failing in ``reset``
    gives the message of a failed game (its traceback kept in ``record``)
    instead of an exception."""
    for index, agent in enumerate(agents):
        try:
            start_agents([agent], seed, first_index=index, streams=streams)
        except (UserInterrupt, PlayerStopped):
            raise
        except BaseException as error:
            record.error_traceback = "".join(format_exception(error))
            return f"agent {index} {describe_failure(error)} in reset"
    return None


def _final_agents(agents: Sequence[Agent], state: GameState) -> str | None:
    """Show every agent the last state of a game that ended by the rules or
    the move cap (CS188's loop does, and its learning agents learn from it);
    the message of a failed game if one raises."""
    for index, agent in enumerate(agents):
        try:
            agent.final(state)
        except (UserInterrupt, PlayerStopped):
            raise
        except BaseException as error:
            return f"agent {index} {describe_failure(error)} in final"
    return None


_ENGINE_FOLDER = os.path.dirname(os.path.abspath(__file__))
_PACSIM_FOLDER = os.path.dirname(_ENGINE_FOLDER)


@cache
def _library_folders() -> tuple[str, ...]:
    """The standard library's and installed libraries' folders (asked of
    ``sysconfig`` when a game first fails, not at every start-up)."""
    import sysconfig

    return tuple({os.path.abspath(sysconfig.get_paths()[key]) for key in ("stdlib", "platstdlib", "purelib", "platlib")})


def describe_failure(error: BaseException) -> str:
    """``raised ValueError at my_agents.py:12: bad value``: the exception
    and the innermost line of the agent's own code that it passed through
    (not the game loop's, nor the standard library's or an installed
    library's; pacsim's own agents count as agent code)."""
    where = _agent_line(error.__traceback__)
    message = str(error)
    return f"raised {type(error).__name__}{f' at {where}' if where else ''}{f': {message}' if message else ''}"


def _agent_line(traceback: TracebackType | None) -> str | None:
    innermost = None
    while traceback is not None:
        filename = os.path.abspath(traceback.tb_frame.f_code.co_filename)
        if _is_agent_code(filename):
            innermost = f"{os.path.basename(filename)}:{traceback.tb_lineno}"
        traceback = traceback.tb_next
    return innermost


def _is_agent_code(filename: str) -> bool:
    if filename.startswith(_ENGINE_FOLDER + os.sep):
        return False
    if filename.startswith(_PACSIM_FOLDER + os.sep):  # pacsim may itself be an installed library
        return True
    return not filename.startswith(tuple(folder + os.sep for folder in _library_folders()))


def _target(state: GameState, action: Any) -> int | None:
    for legal, target in state.legal_moves():
        if legal == action:
            return target
    return None


def _failed(record: GameRecord, state: GameState, started: float, message: str) -> GameRecord:
    record.outcome = ERROR
    record.error = message
    record.score = state.score
    record.seconds = time.perf_counter() - started
    return record


def _faulted(record: GameRecord, state: GameState, started: float, agent_index: int, fault: AgentFault) -> GameRecord:
    _failed(record, state, started, f"agent {agent_index} {fault}")
    record.outcome = LOSS if agent_index == 0 else WIN
    record.fault = fault.kind
    return record


def replay(layout: Layout, num_ghosts: int, actions: list[str]) -> list[GameState]:
    """Every state of a recorded game, from the start; raises
    :class:`~pacsim.errors.IllegalActionError` at the first illegal action."""
    state = initial_state(layout, num_ghosts)
    states = [state]
    for action in actions:
        state = state.successor(action)
        states.append(state)
    return states
