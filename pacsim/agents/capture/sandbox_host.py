"""What a sandbox child runs for a capture team: both of its agents built from one ``createTeam``, and their views.

The room's child (:mod:`pacsim.sandbox.child`) imports this module by the name
the parent's start request gives (:mod:`pacsim.agents.capture.sandboxed`).  A
team is one child with two seats: the first seat's :func:`build` builds the
team (:func:`~pacsim.agents.capture.build_team`, so a course file's
``createTeam`` runs once), the second seat's takes that same team.  Each seat
is a :class:`SeatAgent` that answers the child's generic requests for its own
agent index.

Requests carry views, never the true state: a move's fields are
``(kind, state_fields, noisy_distances)`` (``kind`` ``start`` for the
course's ``registerInitialState``, ``move`` for a move); ``final``'s are
``("final", {index: (state_fields, noisy_distances)})``, each agent's own view.
"""

from __future__ import annotations

import random
from typing import Any

from pacsim.agents import plugins
from pacsim.agents.capture import build_team
from pacsim.engine.capture.game import CaptureTeam
from pacsim.engine.capture.layout import CaptureLayout
from pacsim.engine.capture.observation import CaptureView
from pacsim.engine.capture.state import CaptureState
from pacsim.engine.layout import STOP

FIRST, SECOND = "first", "second"
"""The two seats of a team, in the order the parent asks for them (a role is ``red:first`` and the like)."""
START, MOVE, FINAL = "start", "move", "final"

_built: list[CaptureTeam] = []
"""The team the first seat built, for the second seat (one child hosts one team)."""


class SeatAgent:
    """One agent of the team, as the child's generic loop sees an agent (``reset``, ``get_action``, ``final``)."""

    last_stats = None

    def __init__(self, team: CaptureTeam, leads: bool) -> None:
        self.team, self.leads, self.index = team, leads, 0

    def reset(self, index: int, rng: random.Random | None) -> None:
        """The game begins: the leading seat hands the team its stream (the team has one, as in-process)."""
        self.index = index
        if self.leads and rng is not None:
            self.team.prepare(rng)

    def get_action(self, request: tuple[str, CaptureView]) -> str:
        kind, view = request
        if kind == START:
            self.team.start(self.index, view)
            return STOP
        return self.team.act(self.index, view)

    def final(self, views: dict[int, CaptureView]) -> None:
        self.team.finish(self.index, views[self.index])


def build(role: str, spec: str, options: dict[str, Any]) -> tuple[SeatAgent, dict[str, Any]]:
    """The seat ``role`` (``red:first``, ``blue:second``, ...) of team ``spec``, and what the start reply says."""
    colour, seat = role.split(":")
    if seat == FIRST:
        _built.clear()
        with plugins.recording() as used:
            _built.append(build_team(spec, colour == "red", {str(key): str(value) for key, value in options.items()}))
        files = [[item.label, item.path, item.identity, item.kind] for item in used]
    else:
        files = []
    return SeatAgent(_built[0], seat == FIRST), {"depth": None, "options": [], "used": files}


def state(layout: CaptureLayout, fields: tuple[Any, ...]) -> Any:
    """What the parent sent, as views of ``layout``: ``(kind, view)`` for a move, ``{index: view}`` for the end."""
    if fields[0] == FINAL:
        return {int(index): _view(layout, index, *seen) for index, seen in fields[1].items()}
    kind, agent, state_fields, noisy = fields
    return kind, _view(layout, agent, state_fields, noisy)


def _view(layout: CaptureLayout, agent: int, state_fields: tuple[Any, ...], noisy: tuple[int, ...]) -> CaptureView:
    return CaptureView(CaptureState(layout, *state_fields), int(agent), tuple(noisy))
