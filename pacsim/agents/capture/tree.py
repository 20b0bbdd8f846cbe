"""The tree a capture search team searched at a move of a recorded game (``pacsim tree --record``).

The team is built again from the record's name for it (pacsim's own teams
only: a team file the record names is never imported), handed every look
its agents had up to the move (:func:`~pacsim.engine.capture.record.recorded_views`,
so its beliefs about the unseen opponents are the ones it held in the game),
and its search of the move is traced.
"""

from __future__ import annotations

from dataclasses import dataclass

from pacsim.engine.capture.layout import is_red
from pacsim.engine.capture.record import CaptureRecord, recorded_views
from pacsim.engine.capture.state import CaptureState
from pacsim.engine.game import agent_rng
from pacsim.errors import AgentError, ConfigError
from pacsim.search.trace import SearchTrace

TRACEABLE = ("alphabeta", "mcts")
"""pacsim's capture teams whose search can be traced."""


@dataclass(frozen=True)
class CaptureTree:
    """A traced move: the trace, the move's number in the game, its agent and the game's true state there."""

    trace: SearchTrace
    move: int
    agent: int
    team: str
    state: CaptureState


def game_move(record: CaptureRecord, move: int, agent: int | None) -> int:
    """The game's move number of ``move``: the game's own numbering, or with
    ``agent``, that agent's ``move``-th move (both from 0)."""
    if move < 0:
        raise ConfigError(f"--move {move}: moves are numbered from 0")
    if agent is None:
        if move >= len(record.moves):
            raise ConfigError(f"--move {move}: the game has {len(record.moves)} moves (0-{len(record.moves) - 1})")
        return move
    if not 0 <= agent < 4:
        raise ConfigError(f"--agent {agent}: a capture game's agents are 0-3 (red 0, 2; blue 1, 3)")
    numbers = [number for number, (mover, _) in enumerate(record.moves) if mover == agent]
    if move >= len(numbers):
        raise ConfigError(f"--move {move}: agent {agent} made {len(numbers)} moves in the game")
    return numbers[move]


def team_spec(record: CaptureRecord, agent: int, team: str | None) -> tuple[str, dict[str, str]]:
    """The team to trace for ``agent``'s side and its options: ``team`` when
    given (``alphabeta``, ``alphabeta:depth=2``, ``mcts:iterations=50``), else the record's."""
    side = "red" if is_red(agent) else "blue"
    if team is None:
        name, options = record.teams[agent % 2], record.options[agent % 2]
        if name not in TRACEABLE:
            from pacsim.agents.capture import team_file

            what = ("a team file, which pacsim never imports from a record" if name.endswith(".py") or "/" in name
                    or team_file(name) is not None else "not a search team pacsim can trace")
            raise AgentError(f"the record's {side} team {name!r} is {what}; name the team to trace at its move: "
                             f"--team {' or '.join(TRACEABLE)}")
        return name, options
    name, _, text = team.partition(":")
    if name not in TRACEABLE:
        raise ConfigError(f"--team {team!r}: the capture teams pacsim traces are {', '.join(TRACEABLE)}")
    options = {}
    for piece in filter(None, text.split(",")):
        key, _, value = piece.partition("=")
        options[key] = value
    return name, options


def capture_move_tree(record: CaptureRecord, move: int, agent: int | None = None, team: str | None = None,
                      depth: int | None = None) -> CaptureTree:
    """The tree the team searched at ``move`` (see :func:`game_move`) of ``record``."""
    from pacsim.agents.capture import built_in_team
    from pacsim.agents.capture.search_team import PlacingTeam

    number = game_move(record, move, agent)
    mover = record.moves[number][0]
    name, options = team_spec(record, mover, team)
    if depth is not None and name == "mcts":
        raise ConfigError(f"--depth {depth}: the mcts team's search has no depth (--team mcts:iterations=N,rollout_depth=N)")
    searcher = built_in_team(name, is_red(mover), options)  # pacsim's own, even beside a file of its name
    assert isinstance(searcher, PlacingTeam)
    searcher.prepare(agent_rng(record.seed, mover % 2))  # the stream the game gave it
    ours = {mover, (mover + 2) % 4}
    for at, view, state in recorded_views(record):
        if view.agent not in ours:
            continue
        if at is None:
            searcher.start(view.agent, view)
        elif at < number:
            searcher.passed(view.agent, view)  # its move, without the search
        else:
            return CaptureTree(searcher.trace(view.agent, view, depth), number, mover, name, state)
    raise AssertionError("unreachable: the move is one of the record's")
