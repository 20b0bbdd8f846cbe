"""Capture-the-flag teams: pacsim's own and the course's, built in one place.

:func:`build_team` is the one function that turns a team's name into a
playing :class:`~pacsim.engine.capture.game.CaptureTeam`, so that a team can
later be built inside a sandboxed child behind the same interface.
"""

from __future__ import annotations

from pathlib import Path

from pacsim.engine.capture.game import CaptureTeam
from pacsim.errors import AgentError, did_you_mean

BUILT_IN_TEAMS = {"baseline": (), "alphabeta": ("depth",), "mcts": ("iterations", "rollout_depth"), "keyboard": ()}
"""pacsim's own teams, by name, and the whole-number options each takes (``--redOpts depth=2``)."""


def team_file(spec: str) -> Path | None:
    """The course team file ``spec`` names (``myTeam``, ``myTeam.py`` or a path), or None."""
    path = Path(spec if spec.endswith(".py") else f"{spec}.py")
    return path if path.is_file() else None


def build_team(spec: str, is_red: bool, options: dict[str, str] | None = None) -> CaptureTeam:
    """The team ``spec`` names, for red or blue: a course team file (``-r myTeam.py``,
    constructed with ``options`` as its ``createTeam`` keywords), or one of :data:`BUILT_IN_TEAMS`.
    Raises :class:`AgentError` (one line) for anything else."""
    path = team_file(spec)
    if path is not None:
        from pacsim.agents.capture.course_team import CourseTeam

        return CourseTeam(path, is_red, options)
    if spec in BUILT_IN_TEAMS:
        return built_in_team(spec, is_red, options)
    if spec.endswith(".py") or "/" in spec:
        raise AgentError(f"no team file {spec!r}")
    raise AgentError(f"no team {spec!r}: neither a team file ({spec}.py) nor one of pacsim's teams "
                     f"({', '.join(BUILT_IN_TEAMS)}){did_you_mean(spec, BUILT_IN_TEAMS)}")


def built_in_team(name: str, is_red: bool, options: dict[str, str] | None = None) -> CaptureTeam:
    """One of :data:`BUILT_IN_TEAMS` (never a file of that name: what a record names is built only so)."""
    if name not in BUILT_IN_TEAMS:
        raise AgentError(f"no team {name!r} among pacsim's ({', '.join(BUILT_IN_TEAMS)}){did_you_mean(name, BUILT_IN_TEAMS)}")
    return _built_in(name, is_red, _numbers(name, options or {}))


def _built_in(name: str, is_red: bool, options: dict[str, int]) -> CaptureTeam:
    if name == "baseline":
        from pacsim.agents.capture.baseline import BaselineTeam

        return BaselineTeam(is_red)
    if name == "keyboard":
        from pacsim.agents.capture.keyboard import KeyboardTeam

        return KeyboardTeam(is_red)
    from pacsim.agents.capture.search_team import AlphaBetaTeam, MctsTeam

    return AlphaBetaTeam(is_red, **options) if name == "alphabeta" else MctsTeam(is_red, **options)


def _numbers(name: str, options: dict[str, str]) -> dict[str, int]:
    """A built-in team's options as whole numbers of at least 1, checked."""
    allowed = BUILT_IN_TEAMS[name]
    numbers = {}
    for key, value in options.items():
        if key not in allowed:
            raise AgentError(f"team {name}: unknown option {key!r} (options: {', '.join(allowed) or 'none'})")
        if not value.isdigit() or int(value) < 1:
            raise AgentError(f"team {name}: {key}={value!r} is not a whole number of at least 1")
        numbers[key] = int(value)
    return numbers
