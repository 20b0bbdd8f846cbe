"""A capture game: two teams, the loop that asks them for moves, and its result.

A team is a :class:`CaptureTeam`: one object playing both its agents
(the course's ``createTeam`` makes two agents; pacsim's adapter puts them
behind this interface), asked for each of its agents' moves with that
agent's :class:`~pacsim.engine.capture.observation.CaptureView`.  Teams are
built in one place (:func:`pacsim.agents.capture.build_team`) so that a team
can be hosted elsewhere (a sandboxed child) behind the same interface.

The loop follows the course's ``Game.run``: the first mover (red or blue)
is drawn from the game's seed; every agent is handed its view before each
of its moves; a team whose code raises, or plays an illegal move, loses
(the score set as the course sets it: -1 when red crashed, 1 when blue);
with :class:`TimeRules` a move over the time out, a third slow move or a
slow start forfeits.  Times are measured after the call returns: a team
that never returns is the sandbox's business, not this loop's.
"""

from __future__ import annotations

import random
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pacsim.engine.capture.layout import NUM_AGENTS, CaptureLayout, is_red
from pacsim.engine.capture.observation import CaptureView, observe
from pacsim.engine.capture.state import MAX_MOVES, CaptureState, apply_move, initial_state
from pacsim.engine.game import AgentFault, PlayerStopped, agent_rng

TIMEOUTS = ("startup_timeout", "move_timeout")
"""The sandbox's faults that are the course's forfeit (over the time out), not a crash."""

RED, BLUE, TIE = "red", "blue", "tie"


class CaptureTeam:
    """A team of two agents (indices ``first`` and ``first + 2``).

    Subclasses define :meth:`act`; :meth:`prepare`, :meth:`start` and
    :meth:`finish` do nothing unless overridden."""

    name = "team"

    def prepare(self, rng: random.Random) -> None:
        """A new game begins; ``rng`` is this team's own stream for it."""

    def start(self, index: int, view: CaptureView) -> None:
        """Agent ``index``'s first look at the game (the course's ``registerInitialState``)."""

    def act(self, index: int, view: CaptureView) -> str:
        """Agent ``index``'s move."""
        raise NotImplementedError

    def finish(self, index: int, view: CaptureView) -> None:
        """The game is over (the course's ``final``)."""

    def debug_marks(self, index: int) -> list[Any]:
        """What agent ``index`` wants drawn over the board now (the course's ``debugDraw``
        ``(cells, color)`` pairs), for a display to show; none unless overridden."""
        return []


@dataclass(frozen=True)
class TimeRules:
    """The course's time limits (``capture.py -c``), in seconds."""

    startup: float = 15.0
    move_warning: float = 1.0
    move_timeout: float = 3.0
    max_warnings: int = 2
    """A move over ``move_warning`` is a warning; one more than this many forfeits."""


@dataclass
class CaptureResult:
    """How a game went: its moves, its end and who won."""

    layout: str
    seed: int
    first: int
    moves: list[tuple[int, str]] = field(default_factory=list)
    score: int = 0
    winner: str = TIE
    reason: str = "time"
    """``food`` (a team returned enough), ``time``, ``crash`` or ``forfeit``."""
    culprit: int | None = None
    """The agent that crashed or forfeited."""
    error: str = ""
    """What the culprit did, in one line."""
    fault: str = ""
    """The sandbox's kind of the culprit's fault (:data:`~pacsim.engine.game.FAULTS`), when its child failed."""
    seconds: list[float] = field(default_factory=lambda: [0.0] * NUM_AGENTS)
    """Each agent's thinking time."""
    final_state: CaptureState | None = None

    def to_dict(self) -> dict[str, object]:
        return {"layout": self.layout, "seed": self.seed, "first": self.first, "score": self.score,
                "winner": self.winner, "reason": self.reason, "culprit": self.culprit, "error": self.error, "fault": self.fault,
                "moves": [list(move) for move in self.moves], "seconds": [round(value, 4) for value in self.seconds]}


class _TeamFailed(Exception):
    def __init__(self, agent: int, reason: str, message: str, fault: str = "") -> None:
        super().__init__(message)
        self.agent, self.reason, self.fault = agent, reason, fault


Observer = Callable[[CaptureState, int | None, str | None], None]
"""Called with the state after each move (and the start, with no mover): a display."""
ViewWatcher = Callable[[CaptureView], None]
"""Called with each view handed to an agent for its move, before the move: a display of what it heard."""


def game_streams(seed: int, noise_seed: int | None = None) -> tuple[int, random.Random]:
    """Who moves first (0: red, 1: blue) and the noise stream of the game with ``seed`` (and ``noise_seed``:
    :func:`play_capture_game`), the one place they are drawn (a record's views are drawn again from them)."""
    rng = random.Random(seed)
    first = rng.randint(0, 1)
    drawn = rng.getrandbits(64)
    return first, random.Random(drawn if noise_seed is None else noise_seed)


def play_capture_game(layout: CaptureLayout, red: CaptureTeam, blue: CaptureTeam, seed: int,
                      max_moves: int = MAX_MOVES, time_rules: TimeRules | None = None,
                      observer: Observer | None = None, on_view: ViewWatcher | None = None,
                      noise_seed: int | None = None) -> CaptureResult:
    """Play one game; ``seed`` decides who moves first, the noise and the teams' streams; ``noise_seed``, when
    given, decides the noise instead (a contest plays one seed in many pairings: keyed by the pairing, what a
    team saw of the noise in one game tells it nothing of the noise in another)."""
    first, noise = game_streams(seed, noise_seed)
    game = _Game(layout, (red, blue), noise, time_rules, CaptureResult(layout.name, seed, first), on_view)
    state = initial_state(layout, first, max_moves)
    if observer:
        observer(state, None, None)
    try:
        game.prepare_all(seed)
        game.start_all(state)
        while not state.over:
            state = game.move(state)
            if observer:
                observer(state, game.result.moves[-1][0], game.result.moves[-1][1])
        game.finish_all(state)
    except _TeamFailed as failed:
        return game.lost(state, failed)
    return game.ended(state)


class _Game:
    def __init__(self, layout: CaptureLayout, teams: tuple[CaptureTeam, CaptureTeam], noise: random.Random,
                 time_rules: TimeRules | None, result: CaptureResult, on_view: ViewWatcher | None = None) -> None:
        self.layout, self.teams, self.noise, self.time_rules, self.result = layout, teams, noise, time_rules, result
        self.on_view = on_view
        self.warnings = [0] * NUM_AGENTS

    def team(self, agent: int) -> CaptureTeam:
        return self.teams[agent & 1]  # red's agents are the even ones

    def call(self, agent: int, what: str, function: Callable[[int, CaptureView], object], view: CaptureView) -> object:
        started = time.perf_counter()
        try:
            answer = function(agent, view)
        except PlayerStopped:
            raise  # the person playing stopped: not the team's fault
        except AgentFault as fault:  # a sandboxed team's child: a timeout forfeits, anything else is a crash
            reason = "forfeit" if fault.kind in TIMEOUTS else "crash"
            raise _TeamFailed(agent, reason, f"{what}: {fault}", fault.kind) from fault
        except Exception as error:
            raise _TeamFailed(agent, "crash", f"{what} raised {_one_line(error)}") from error
        seconds = time.perf_counter() - started
        self.result.seconds[agent] += seconds
        self.check_time(agent, what, seconds)
        return answer

    def check_time(self, agent: int, what: str, seconds: float) -> None:
        rules = self.time_rules
        if rules is None:
            return
        limit = rules.startup if what == "start" else rules.move_timeout
        if seconds > limit:
            raise _TeamFailed(agent, "forfeit", f"{what} took {seconds:.1f} s (the limit is {limit:g} s)")
        if what == "move" and seconds > rules.move_warning:
            self.warnings[agent] += 1
            if self.warnings[agent] > rules.max_warnings:
                raise _TeamFailed(agent, "forfeit", f"{self.warnings[agent]} moves over {rules.move_warning:g} s "
                                                    f"(the limit is {rules.max_warnings} warnings)")

    def prepare_all(self, seed: int) -> None:
        """Each team gets its stream, a hash of the seed and its side (not keyed: a team that knew the seed
        could draw the other's; a contest's seeds are secret 63-bit HMACs) that tells
        it nothing of the other's, nor of the noise.  A team that fails here (its sandbox cannot start) loses."""
        for first, team in enumerate(self.teams):
            try:
                team.prepare(agent_rng(seed, first))
            except AgentFault as fault:
                raise _TeamFailed(first, "crash", f"prepare: {fault}", fault.kind) from fault
            except Exception as error:
                raise _TeamFailed(first, "crash", f"prepare raised {_one_line(error)}") from error

    def start_all(self, state: CaptureState) -> None:
        for agent in range(NUM_AGENTS):
            self.call(agent, "start", self.team(agent).start, observe(state, agent, self.noise))

    def move(self, state: CaptureState) -> CaptureState:
        agent = state.turn
        view = observe(state, agent, self.noise)
        if self.on_view:
            self.on_view(view)
        action = self.call(agent, "move", self.team(agent).act, view)
        for legal, target in state.legal_moves(agent):
            if legal == action:
                self.result.moves.append((agent, legal))
                return apply_move(state, agent, legal, target)
        # Not among the moves played (a record replays them): the error says what it was.
        raise _TeamFailed(agent, "crash", f"illegal move {action!r}; legal: {state.legal_actions(agent)}")

    def finish_all(self, state: CaptureState) -> None:
        for agent in range(NUM_AGENTS):
            self.call(agent, "final", self.team(agent).finish, observe(state, agent, self.noise))

    def ended(self, state: CaptureState) -> CaptureResult:
        result = self.result
        result.score, result.final_state = state.score, state
        result.winner = RED if state.score > 0 else BLUE if state.score < 0 else TIE
        returned = (state.team_returned(True), state.team_returned(False))
        result.reason = "food" if any(self.layout.wins_with(count) for count in returned) else "time"
        return result

    def lost(self, state: CaptureState, failed: _TeamFailed) -> CaptureResult:
        result = self.result
        red_lost = is_red(failed.agent)
        result.score = -1 if red_lost else 1  # the course's score for a crash
        result.winner = BLUE if red_lost else RED
        result.reason, result.culprit, result.error, result.fault = failed.reason, failed.agent, str(failed), failed.fault
        result.final_state = state
        return result


def _one_line(error: BaseException) -> str:
    """``Type: message at file:line`` of the innermost frame (the team's own code, usually)."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
    message = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}{': ' + message if message else ''}{where}"
