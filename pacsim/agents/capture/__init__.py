"""Capture-the-flag teams: pacsim's own and the course's, built in one place.

:func:`build_team` is the one function that turns a team's name into a
playing :class:`~pacsim.engine.capture.game.CaptureTeam`, so that a team can
later be built inside a sandboxed child behind the same interface.
"""

from __future__ import annotations

from pathlib import Path

from pacsim.engine.capture.game import CaptureTeam
from pacsim.errors import AgentError, did_you_mean

BUILT_IN_TEAMS = ("baseline",)
"""pacsim's own teams, by name."""


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
    if spec == "baseline":
        from pacsim.agents.capture.baseline import BaselineTeam

        return BaselineTeam(is_red)
    if spec.endswith(".py") or "/" in spec:
        raise AgentError(f"no team file {spec!r}")
    raise AgentError(f"no team {spec!r}: neither a team file ({spec}.py) nor one of pacsim's teams "
                     f"({', '.join(BUILT_IN_TEAMS)}){did_you_mean(spec, BUILT_IN_TEAMS)}")
