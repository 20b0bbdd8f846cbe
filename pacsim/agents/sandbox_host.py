"""What a sandbox child runs for a Pacman or ghost entrant: its agent built from the spec, and the state it sees.

The room's child (:mod:`pacsim.sandbox.child`) imports this module by the
name its start request gives (:attr:`pacsim.sandbox.room.Tenant.host`): the
room itself knows nothing of agents.  A capture team's host will build its two
agents and its game's view the same way.
"""

from __future__ import annotations

from typing import Any

from pacsim.agents import plugins
from pacsim.agents.registry import make_agent, option_names, resolve
from pacsim.engine.layout import Layout
from pacsim.engine.state import GameState


def build(role: str, spec: str, options: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The agent ``spec`` (with ``options``) for ``role``, and what the start reply says of it: its ``depth``,
    the option names its class takes, and every plugin file its building used."""
    with plugins.recording() as used:
        agent = make_agent(role, spec, options)
    return agent, {"depth": getattr(agent, "depth", None), "options": sorted(option_names(resolve(role, spec))),
                   "used": [[item.label, item.path, item.identity, item.kind] for item in used]}


def state(layout: Layout, fields: tuple[Any, ...]) -> GameState:
    """The state the parent sent as its fields (the layout once a game): the child's own copy."""
    return GameState(layout, *fields)
