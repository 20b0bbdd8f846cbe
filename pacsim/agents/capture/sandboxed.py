"""A capture team played in a sandbox room: one child process hosting both of its agents.

:class:`SandboxedTeam` is a :class:`~pacsim.engine.capture.game.CaptureTeam`
to the game loop; behind it a :class:`~pacsim.sandbox.room.Room` with two
seats (the team's agents, built by one ``createTeam`` in
:mod:`pacsim.agents.capture.sandbox_host`).  The parent

* sends each agent its view (the layout once a game), never the true state:
  the child cannot reach what the view does not hold;
* gives building the team (``createTeam``) and each agent's first look
  (``registerInitialState``) the start-up limit, each move the move limit,
  and kills the child when it overruns (the game loop then counts the
  course's warnings and forfeits from the times it measures);
* pauses the whole child between its moves (its control group frozen where
  one could be made): a team's spinning threads and processes get no CPU
  while the other team thinks.

A fault of the child (crash, timeout, memory, protocol) raises
:class:`~pacsim.engine.game.AgentFault`; the game loop makes it this team's loss.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from pacsim.agents.capture import BUILT_IN_TEAMS, team_file
from pacsim.agents.capture.sandbox_host import FINAL, FIRST, MOVE, SECOND, START
from pacsim.agents.sandboxed import built_kernel
from pacsim.engine.capture.game import CaptureTeam
from pacsim.engine.capture.observation import CaptureView
from pacsim.engine.game import AgentFault
from pacsim.errors import AgentError
from pacsim.sandbox.isolation import isolation_level
from pacsim.sandbox.limits import Limits
from pacsim.sandbox.room import Room, Seat, Tenant

HOST = "pacsim.agents.capture.sandbox_host"
"""The module a child imports to build a capture team."""


def team_tenant(spec: str, is_red: bool, options: dict[str, str], level: str, empty_folder: Path) -> tuple[Tenant, str]:
    """The room's tenant for team ``spec`` and the spec as the child names it: a team file's own folder (its
    path made absolute), or ``empty_folder`` for one of pacsim's teams (its child sees nothing of the disk's)."""
    path = team_file(spec)
    if path is not None:
        folder, child_spec = path.resolve().parent, str(path.resolve())
    elif spec in BUILT_IN_TEAMS:
        folder, child_spec = empty_folder, spec
    else:
        raise AgentError(f"no team {spec!r}: neither a team file nor one of pacsim's teams ({', '.join(BUILT_IN_TEAMS)})")
    shared, environment = built_kernel(level)
    colour = "red" if is_red else "blue"
    return Tenant(HOST, folder, f"capture {colour} {child_spec} {sorted(options.items())!r}", shared, environment), child_spec


class SandboxedTeam(CaptureTeam):
    """A team in a room of its own (see the module's docstring)."""

    def __init__(self, spec: str, is_red: bool, limits: Limits, empty_folder: Path,
                 options: dict[str, str] | None = None) -> None:
        self.options = dict(options or {})
        self.is_red, self.limits = is_red, limits
        self.first = 0 if is_red else 1
        lodger, self.child_spec = team_tenant(spec, is_red, self.options, isolation_level(limits), empty_folder)
        self.name = Path(spec).stem if spec.endswith(".py") else spec
        self.room = Room(lodger, limits)
        self._layout: Any = None
        self._last: dict[int, CaptureView] = {}

    def prepare(self, rng: random.Random) -> None:
        """Open the child for this game and ask it to build the team (its first seat gets the team's stream)."""
        colour = "red" if self.is_red else "blue"
        self._layout, self._last = None, {}
        self.room.open([Seat(f"{colour}:{FIRST}", self.child_spec, self.options, self.first, rng),
                        Seat(f"{colour}:{SECOND}", self.child_spec, self.options, self.first + 2, None)])

    def start(self, index: int, view: CaptureView) -> None:
        self.room.started()
        self._ask(START, index, view, self.limits.startup_seconds, "startup_timeout")

    def act(self, index: int, view: CaptureView) -> str:
        reply = self._ask(MOVE, index, view, self.limits.move_seconds, "move_timeout")
        action = reply.get("action")
        return action if isinstance(action, str) else f"a {str(reply.get('type'))[:40]}"  # the game loop refuses it

    def finish(self, index: int, view: CaptureView) -> None:
        """Kept until both agents have their last view; then the child sees both and is kept for the next game
        (a failure here changes no result and ends the child)."""
        self._last[index] = view
        if len(self._last) < 2 or not self.room.ready:
            return
        views = {agent: (tuple(seen.state)[1:], seen.noisy_distances) for agent, seen in self._last.items()}
        try:
            self.room.resume()
            self.room.send(("final", (FINAL, views)), self.limits.move_seconds)
            self.room.receive(self.limits.move_seconds, "move_timeout", "final")
            self.room.release()
        except AgentFault:
            pass
        self.stop()

    def stop(self) -> None:
        """End the child unless it was handed back for the next game (after any game, finished or not)."""
        self.room.stop()

    def _ask(self, kind: str, index: int, view: CaptureView, seconds: float, timeout_kind: str) -> dict[str, Any]:
        self.room.resume()
        if view.state.layout is not self._layout:
            self.room.send(("layout", view.state.layout), seconds)
            self._layout = view.state.layout
        self.room.send(("move", index, (kind, index, tuple(view.state)[1:], view.noisy_distances)), seconds)
        reply = self.room.receive(seconds, timeout_kind, "move")  # the protocol's name for any answer with an action
        self.room.pause()
        return reply


