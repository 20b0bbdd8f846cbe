"""The isolation room: untrusted code in a process of its own, its limits enforced from outside.

Below :mod:`pacsim.agents` and :mod:`pacsim.runner` (it imports only
:mod:`pacsim.engine` and :mod:`pacsim.errors`; they import it), and the one
place pacsim talks to the operating system about untrusted code: bubblewrap's
command line, control groups, resource limits, ``/proc``, the child process
and its protocol, and the copies of hand-ins.

**The interface.**  A :class:`~pacsim.sandbox.room.Room` is one child process
under :class:`~pacsim.sandbox.limits.Limits`.  Whatever plays in it (a
Pacman entrant, a ghost entrant, a capture-the-flag team of two agents) uses
the same few calls::

    room = Room(Tenant(host, folder, who, shared, environment), limits)
    room.open([Seat(role, spec, options, agent_index, rng), ...])   # one seat per agent the child hosts
    room.started()                                             # its start reply, within startup_seconds
    room.send(("layout", layout), seconds)                     # once a game
    room.send(("move", agent_index, fields), seconds)                # the seat whose turn it is
    reply = room.receive(seconds, "move_timeout", "move")      # {"action", "type", "stats"?}, checked
    room.pause(); room.resume()                                # all of the child stopped between moves
    room.send(("final", fields), seconds); room.receive(...); room.release()   # kept for the next game
    room.stop()                                                # on any fault: the child and its group killed

``Tenant.folder`` is the child's working folder, shown read-only (the
entrant's own); ``Tenant.shared`` pairs further folders with where the child
sees them, read-only (the user's built kernel); ``Tenant.environment`` adds
to the child's small environment; ``Tenant.who`` says what the child builds
(equal tenants and limits share idle children).  ``Tenant.host`` names a
module of pacsim's own that the child imports (the room never imports it): its ``build(role, spec, options)`` returns one agent
and what the start reply says of it, its ``state(layout, fields)`` rebuilds
the state an agent sees from the fields the parent sent.  A Pacman or ghost
entrant is one seat (:mod:`pacsim.agents.sandboxed`, host
:mod:`pacsim.agents.sandbox_host`).  A capture team is one child with two
seats, one per agent of the team: its host builds both agents from the
team's file, each move request names the agent whose turn it is by its game
index, ``final`` shows every seat the last state, and the start reply
describes the team (its first agent's depth and options, every file its
code used).  What the child receives is each agent's view, never the whole
game; a team's two agents share one process, one control group and one set
of limits, so they may share memory as one team's code would.

Every failure of the child (a crash, a timeout, a memory or CPU fault, a
reply off the protocol) is an :class:`~pacsim.engine.game.AgentFault` of its
kind; the adapter checks what the child answers against the game's rules.

**Modules.**  :mod:`~pacsim.sandbox.room` (the parent's side, idle children
kept between games), :mod:`~pacsim.sandbox.child` (the child's side),
:mod:`~pacsim.sandbox.protocol` (every reply checked),
:mod:`~pacsim.sandbox.limits` (:class:`~pacsim.sandbox.limits.Limits`, the
resource limits), :mod:`~pacsim.sandbox.bubblewrap` (namespaces, the view of
the disk), :mod:`~pacsim.sandbox.cgroups` (a control group per child, v1 or
v2), :mod:`~pacsim.sandbox.isolation` (how strong it is here),
:mod:`~pacsim.sandbox.processes` (``/proc``, and every signal, never to an id
of 0 or below), :mod:`~pacsim.sandbox.handin` (a hand-in's own files copied).
The names below are imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pacsim.lazy import lazy_attribute

if TYPE_CHECKING:
    from pacsim.sandbox.bubblewrap import bubblewrap_works
    from pacsim.sandbox.isolation import FULL, WEAK, Isolation, isolation, isolation_level, isolation_summary
    from pacsim.sandbox.limits import AUTO, BUBBLEWRAP, LEVELS, LIMITS, Limits
    from pacsim.sandbox.room import Room, Seat, Tenant, idle_children

_HOMES = {
    "pacsim.sandbox.limits": ("AUTO", "BUBBLEWRAP", "LEVELS", "LIMITS", "Limits"),
    "pacsim.sandbox.isolation": ("FULL", "WEAK", "Isolation", "isolation", "isolation_level", "isolation_summary"),
    "pacsim.sandbox.bubblewrap": ("bubblewrap_works",),
    "pacsim.sandbox.room": ("Room", "Seat", "Tenant", "idle_children"),
}

__all__ = ["AUTO", "BUBBLEWRAP", "FULL", "LEVELS", "LIMITS", "WEAK", "Isolation", "Limits", "Room", "Seat", "Tenant",
           "bubblewrap_works", "idle_children", "isolation", "isolation_level", "isolation_summary"]


def __getattr__(name: str) -> Any:
    return lazy_attribute(__name__, name, _HOMES)
