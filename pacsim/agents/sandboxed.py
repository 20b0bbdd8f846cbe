"""A Pacman or ghost entrant played in a sandbox room: an ordinary agent to the game loop.

:class:`SandboxedAgent` (``reset``, ``get_action``, ``final``, ``last_stats``)
is what the runner, the store and ``pacsim play`` see; behind it a
:class:`~pacsim.sandbox.room.Room` hosts the entrant's agent in a child
process (one seat), which :mod:`pacsim.agents.sandbox_host` builds there.
The parent

* sends each state as its fields (the layout once a game), so whatever the
  entrant does to its copy never reaches the real game;
* gives each answer at most the per-move limit (plus what is left of an
  optional time bank), the first at most the start-up limit;
* checks the returned action against the rules itself.

An entrant's failure raises :class:`~pacsim.engine.game.AgentFault`: its
side loses the game, the kind recorded (docs/sandbox.md).
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pacsim.agents import plugins
from pacsim.agents.registry import AgentSpec, as_spec
from pacsim.engine.game import AgentFault
from pacsim.engine.layout import Layout
from pacsim.engine.state import GameState
from pacsim.engine.stats import MoveStats
from pacsim.errors import AgentError
from pacsim.sandbox.isolation import isolation_level
from pacsim.sandbox.limits import LIMITS, Limits
from pacsim.sandbox.protocol import refuse
from pacsim.sandbox.room import Room, Seat, Tenant

HOST = "pacsim.agents.sandbox_host"
"""The module a child imports to build a Pacman or ghost entrant."""


def needs_sandbox(spec: str | AgentSpec) -> bool:
    """Whether a spec runs code from outside pacsim (:attr:`AgentSpec.needs_sandbox`,
    decided from the text alone: nothing is imported)."""
    return as_spec(spec).needs_sandbox


def sandboxed(role: str, spec: str | AgentSpec, options: Mapping[str, Any] | None,
              limits: Limits) -> SandboxedAgent | None:
    """The entrant ``spec`` in a sandbox, or None for a built-in agent (it needs none):
    the one switch the runner, ``pacsim play`` and tournaments use."""
    parsed = as_spec(spec)
    if not parsed.needs_sandbox:
        return None
    return SandboxedAgent(role, parsed, dict(options or {}), limits)


KERNEL_CACHE_INSIDE = "/tmp/pacsim-cache"
"""The child's cache folder under bubblewrap: in its private ``/tmp`` (writable, for a user's compiled code), with
the user's built kernel shown read-only inside it."""


def built_kernel(level: str) -> tuple[tuple[tuple[Path, str], ...], tuple[tuple[str, str], ...]]:
    """The user's built kernel for a child at ``level``: the folder to show it read-only (and where), and the
    variable that makes the child look for it there.  A hand-in that subclasses a built-in search then loads
    it instead of building its own (a minute, over the start-up limit).  Nothing where none is built, or it is
    not the user's alone (:func:`shareable`).  At the limits level the child sees
    the user's files anyway: it is pointed at the user's cache folder."""
    from pacsim.fast import aot
    from pacsim.fast.cache_folder import CACHE_ENVIRONMENT

    if aot.jit_forced():
        return (), ()
    folder = aot.module_folder()
    if not (folder / aot.SIGNATURES).is_file() or not shareable(folder):
        return (), ()
    if level == LIMITS:
        return (), ((CACHE_ENVIRONMENT, str(aot.cache_root())),)
    return ((folder, f"{KERNEL_CACHE_INSIDE}/{folder.name}"),), ((CACHE_ENVIRONMENT, KERNEL_CACHE_INSIDE),)


def shareable(folder: Path) -> bool:
    """Whether ``folder`` may be shown to every entrant's child: it, the folder above it and each file in it
    pass the cache's own trust check (:func:`~pacsim.fast.cache_folder.check_private`: this user's or root's, no
    one else may write it), and none is a link (what a child is shown must be what was checked)."""
    from pacsim.errors import UntrustedCacheError
    from pacsim.fast.cache_folder import check_private

    try:
        for path in (folder.parent, folder, *folder.iterdir()):
            if path.is_symlink():
                return False
            check_private(path)
    except (OSError, UntrustedCacheError):
        return False
    return True


def tenant(role: str, spec: str | AgentSpec, options: dict[str, Any], level: str) -> tuple[Tenant, str]:
    """The room's tenant for the entrant ``spec``, and the spec as its child names it (its file's path absolute)."""
    folder, child_spec = entrant_folder(spec)
    shared, environment = built_kernel(level)
    return Tenant(HOST, folder, f"{role} {child_spec} {sorted(options.items())!r}", shared, environment), child_spec


class SandboxedAgent:
    """An entrant played in a room of its own (see the module's docstring)."""

    def __init__(self, role: str, spec: str | AgentSpec, options: dict[str, Any], limits: Limits) -> None:
        self.parsed = as_spec(spec)
        self.role, self.spec, self.options, self.limits = role, self.parsed.text, options, limits
        lodger, self.child_spec = tenant(role, self.parsed, options, isolation_level(limits))
        self.room = Room(lodger, limits)
        self.level = self.room.level
        self.folder = lodger.folder
        self.last_stats: MoveStats | None = None
        self.index = 0
        self._layout: Layout | None = None
        self._bank = limits.time_bank

    @property
    def process_id(self) -> int | None:
        """The child process of the latest game (a game reusing a child has its predecessor's)."""
        return self.room.process_id

    def reset(self, index: int, rng: random.Random) -> None:
        """Start this game's child process and ask it to build the agent."""
        self.index, self.last_stats, self._bank, self._layout = index, None, self.limits.time_bank, None
        self.room.open([Seat(self.role, self.child_spec, self.options, index, rng)])

    def get_action(self, state: GameState) -> str:
        self.room.started()
        self.room.resume()
        started = time.monotonic()
        allowed = self.limits.move_seconds + self._bank
        if state.layout is not self._layout:
            self.room.send(("layout", state.layout), allowed)
            self._layout = state.layout
        self.room.send(("move", self.index, tuple(state)[1:]), allowed - (time.monotonic() - started))
        reply = self.room.receive(allowed - (time.monotonic() - started), "move_timeout", "move")
        self._bank -= max(0.0, time.monotonic() - started - self.limits.move_seconds)
        self.room.pause()
        return self._checked_action(reply, state)

    def check(self) -> Checked:
        """Build the entrant in its sandbox, as the planner does before any game
        (its spec and options checked without importing it here), and end it."""
        self.reset(0, random.Random(0))
        try:
            reply = self.room.started()
        finally:
            self.stop()
        return checked_reply(reply, self.parsed)

    def final(self, state: GameState) -> None:
        """Show the child the last state, then keep it for this worker's next
        game; a failure here changes no result (and ends the child)."""
        with contextlib.suppress(AgentFault):
            if self.room.ready:
                self.room.resume()
                self.room.send(("final", tuple(state)[1:]), self.limits.move_seconds)
                self.room.receive(self.limits.move_seconds, "move_timeout", "final")
                self.room.release()
        self.stop()

    def stop(self) -> None:
        """End the child (its whole process group, and its control group)."""
        self.room.stop()

    def _checked_action(self, reply: dict[str, Any], state: GameState) -> str:
        action = reply.get("action")
        legal = state.legal_actions()
        if action not in legal:
            self.stop()
            shown = repr(action)[:40] if action is not None else f"a {str(reply.get('type'))[:40]}"
            raise AgentFault("illegal", f"played illegal action {shown}; legal: {legal}")
        try:
            self.last_stats = move_stats(reply.get("stats"))
        except AgentFault:
            self.stop()
            raise
        return str(action)


@dataclass(frozen=True)
class Checked:
    """What the planner needs of an entrant built in its sandbox."""

    code: dict[str, str]
    """Its plugin code, label -> identity (the entrant's own file hashed here, not taken from the child)."""
    files: dict[str, str]
    """The data files it read, label -> identity, as the child reported them."""
    depth: int | None
    options: frozenset[str] = frozenset()
    """The option names its class takes."""


def checked_reply(reply: dict[str, Any], spec: str | AgentSpec) -> Checked:
    code: dict[str, str] = {}
    files: dict[str, str] = {}
    parsed = as_spec(spec)
    own = Path(parsed.target).expanduser().resolve() if plugins.is_file_target(parsed.target) else None
    for label, path, identity, kind in reply["used"]:  # its shape checked by parse_reply
        if own is not None and Path(path) == own:
            label, identity = parsed.target, plugins.file_digest(own)
        (files if kind == plugins.DATA else code)[label[:200]] = identity[:200]
    return Checked(code, files, reply["depth"], frozenset(name[:100] for name in reply["options"]))


def check_in_sandbox(role: str, spec: str | AgentSpec, options: Mapping[str, Any], limits: Limits) -> Checked:
    """:meth:`SandboxedAgent.check` of the entrant ``spec``; an :class:`AgentError` naming it if it fails.
    Asked again for the same entrant, options and unchanged file, the answer
    is remembered: a tournament's planning asks several times, and each
    sandbox takes about a second to start."""
    parsed = as_spec(spec)
    key = (role, parsed.text, repr(sorted(options.items())), limits, _file_state(parsed))
    if key not in _CHECKED:
        try:
            _CHECKED[key] = SandboxedAgent(role, parsed, dict(options), limits).check()
        except AgentFault as fault:
            raise AgentError(f"agent {parsed.text!r} in its sandbox: {fault}") from None
    return _CHECKED[key]


_CHECKED: dict[tuple[Any, ...], Checked] = {}
"""The entrants checked in this process (a class's hand-ins: a few hundred at most)."""


def _file_state(spec: AgentSpec) -> tuple[int, int] | None:
    """When and how large the entrant's own file is, for a file entrant: an edited file is checked again."""
    if spec.file is None:
        return None
    try:
        status = spec.file.expanduser().stat()
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size


def move_stats(fields: dict[str, Any] | None) -> MoveStats | None:
    """The statistics a child reported (their numbers checked by :func:`parse_reply`), None if it sent none."""
    if fields is None:
        return None
    try:
        return MoveStats(**fields)
    except (AgentError, TypeError, ValueError) as error:
        raise refuse(f"statistics that are no MoveStats ({str(error)[:80]})") from None


def entrant_folder(spec: str | AgentSpec) -> tuple[Path, str]:
    """The folder of the entrant's file (what its sandbox shows of the disk;
    the current folder for a module or installed entrant), and the spec with
    the file's path made absolute (the child runs in that folder)."""
    parsed = as_spec(spec)
    text = parsed.text
    if parsed.file is not None:
        path = parsed.file.expanduser()
        if not path.is_file():
            raise AgentError(f"agent {text!r}: no file {parsed.target!r}")
        path = path.resolve()
        return path.parent, str(path) + text[text.index(parsed.target) + len(parsed.target):]
    return Path.cwd(), text
