"""A room: one child process under limits, hosting one entrant's agents, and the parent's side of its pipe.

:class:`Room` is the one interface the rest of pacsim uses to isolate code
(see the package's docstring): a :class:`Tenant` says which of pacsim's
modules builds the agents in the child and what of the disk the child sees;
:meth:`Room.open` starts (or reuses) the child and asks it to build one agent
per :class:`Seat`; :meth:`Room.send` and :meth:`Room.receive` carry each
request and its answer within a time limit; :meth:`Room.pause` stops all of
the child between moves; :meth:`Room.release` keeps a clean child for the
same tenant's next game; :meth:`Room.stop` kills it.  The parent

* waits for each answer at most the time it is given, and kills the child's
  whole process group (and control group) on an overrun;
* reads only JSON from the child, never a pickle, each line bounded and held
  to a schema (:mod:`pacsim.sandbox.protocol`).

Every failure of the child raises :class:`~pacsim.engine.game.AgentFault`
with its kind (docs/sandbox.md).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import pickle
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from pacsim.engine.game import AgentFault
from pacsim.sandbox import cgroups
from pacsim.sandbox.bubblewrap import BWRAP_SIGNALLED, bubblewrap_command, child_environment
from pacsim.sandbox.cgroups import ChildGroup
from pacsim.sandbox.child import HEADER, MEMORY_EXIT
from pacsim.sandbox.isolation import isolation_level
from pacsim.sandbox.limits import BUBBLEWRAP, GAMES_PER_CHILD, LIMITS, Limits, apply_limits, process_limit
from pacsim.sandbox.processes import (
    group_members,
    process_tree,
    renew_cpu_budget,
    signal_group,
    tree_resident_mb,
    tree_threads,
)
from pacsim.sandbox.protocol import parse_reply, refuse

REPLY_BYTES = 1 << 16
"""The longest answer the parent reads from a child: an entrant that sends more has broken the protocol."""
IDLE_MEMORY_MB = 1024
"""The resident memory a worker thread's idle children may hold in all; a child that would go over it is ended
(a fresh Python child holds about 22 MB; an entrant's model can hold far more)."""
CHAIN = {LIMITS: 1, BUBBLEWRAP: 3}
"""How many processes an idle child is at each level: Python alone; bwrap, its init in the namespace, and Python."""


@dataclass(frozen=True)
class Tenant:
    """Who lives in a room: what builds its agents in the child, and what of the disk the child sees.
    Two rooms of equal tenants and limits may take each other's idle children."""

    host: str
    """The module of pacsim's own, imported in the child, whose ``build(role, spec, options)`` returns an agent
    and what the start reply says of it, and whose ``state(layout, fields)`` rebuilds the state an agent sees."""
    folder: Path
    """The child's working folder, shown read-only: the entrant's own."""
    who: str
    """What the child builds (the seats' roles, specs and options, as text)."""
    shared: tuple[tuple[Path, str], ...] = ()
    """Further folders shown read-only under bubblewrap, each with where the child sees it (checked by the caller:
    :func:`pacsim.agents.sandboxed.shareable`)."""
    environment: tuple[tuple[str, str], ...] = ()
    """Variables added to the child's small environment."""


class Seat(NamedTuple):
    """One agent a child hosts: a Pacman or ghost entrant has one seat, a capture team two."""

    role: str
    spec: str
    options: dict[str, Any]
    agent_index: int
    """Its agent's index in the game: each move request names the seat that moves by it."""
    rng: Any
    """Its random stream (a :class:`random.Random`), as an agent in pacsim's own process would get it."""


class Room:
    """The parent's side of one child (see the module's docstring)."""

    def __init__(self, tenant: Tenant, limits: Limits) -> None:
        self.tenant, self.limits = tenant, limits
        self.level = isolation_level(limits)
        self.process_id: int | None = None
        """The child process of the latest game (a game reusing a child has its predecessor's)."""
        self.ready = False
        """Whether the child has answered its start request."""
        self._process: subprocess.Popen[bytes] | None = None
        self._games = 0
        """Games the child played before this one."""
        self._buffer = b""

    def open(self, seats: Sequence[Seat]) -> None:
        """Start (or take an idle) child for this game and ask it to build one agent per seat."""
        self.stop()
        self._process, self._games = idle_children.take(self.key, self.limits) or (self._spawn(), 0)
        self.process_id = self._process.pid
        self.resume()
        self.send(("start", self.tenant.host, [tuple(seat) for seat in seats]), self.limits.startup_seconds)

    def started(self) -> dict[str, Any]:
        """Wait (within the start-up limit) for the child to have built its agents; its answer, once."""
        if self.ready:
            return {}
        reply = self.receive(self.limits.startup_seconds, "startup_timeout", "start")
        self.ready = True
        record = child_records.get(self.process_id or 0)
        if record is not None and record.tasks is None:
            record.tasks = task_count(self.process_id or 0)  # a fresh child's, its agents built: none may be added
        return reply

    @property
    def key(self) -> tuple[Any, ...]:
        """What makes two games' children interchangeable: the same tenant, limits and level."""
        return (self.tenant, self.limits, self.level)

    def release(self) -> None:
        """Hand the child to the idle pool, paused, unless it left a process of its own behind (under its parent
        or, at the ``limits`` level, anywhere in its process group) or has more threads or processes than when
        its agents were first built (they would run on, or wake, in another entrant's game); then forget it."""
        process = self._process
        if process is None or len(process_tree(process.pid)) != CHAIN[self.level]:
            return
        if self.level == LIMITS and group_members(process.pid) != 1:
            return
        record = child_records.get(process.pid)
        if record is not None and (record.tasks is None or task_count(process.pid) > record.tasks):
            return
        self.pause()
        self._process, self.ready, self._buffer = None, False, b""
        idle_children.keep(self.key, process, self._games + 1)

    def _group(self) -> ChildGroup | None:
        record = child_records.get(self.process_id or 0)
        return None if record is None else record.group

    def pause(self) -> None:
        """Stop all of the child between its moves and games: none of its processes or threads runs while
        another agent thinks (nothing happens without a control group). One with more threads than when its
        agents were built is frozen first and waited for until all of it has stopped (:meth:`ChildGroup.park`)."""
        record = child_records.get(self.process_id or 0)
        if record is not None and record.group is not None:
            record.group.park(suspect=record.tasks is None or task_count(self.process_id or 0) > record.tasks)

    def resume(self) -> None:
        group = self._group()
        if group is not None:
            group.unpark()

    def stop(self) -> None:
        """Kill the child's whole process group (its own namespace under bubblewrap) and reap it."""
        process, self._process, self.ready, self._buffer = self._process, None, False, b""
        if process is not None:
            end_process(process)

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.stop()

    def _spawn(self) -> subprocess.Popen[bytes]:
        command = [sys.executable, "-m", "pacsim.sandbox.child"]
        if self.level == BUBBLEWRAP:
            command = bubblewrap_command(self.tenant.folder, self.limits, self.tenant.shared) + command
        group = cgroups.make_group(cgroups.Budget(self.limits.processes, self.limits.memory_mb << 20))
        try:
            process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                       cwd=self.tenant.folder, env=child_environment(dict(self.tenant.environment)),
                                       start_new_session=True,
                                       preexec_fn=functools.partial(apply_limits, self.limits, process_limit(self.limits),
                                                                    group, self.level == LIMITS))
        except OSError as error:
            if group is not None:
                group.end()
            raise AgentFault("crash", f"could not start its sandbox: {error.strerror or error}") from None
        child_records[process.pid] = ChildRecord(group)
        return process

    def send(self, message: Any, seconds: float) -> None:
        """Write one request to the child within ``seconds``."""
        assert self._process is not None and self._process.stdin is not None
        data = pickle.dumps(message)
        data = HEADER.pack(len(data)) + data
        descriptor = self._process.stdin.fileno()
        deadline = time.monotonic() + seconds
        while data:
            if not select.select([], [descriptor], [], max(0.0, deadline - time.monotonic()))[1]:
                self._overran("move_timeout" if self.ready else "startup_timeout", "reading its input")
            try:
                data = data[os.write(descriptor, data[:select.PIPE_BUF]):]
            except BrokenPipeError:
                self._died("reading its input")

    def receive(self, seconds: float, timeout_kind: str, doing: str) -> dict[str, Any]:
        """The child's next answer within ``seconds``, checked (:func:`~pacsim.sandbox.protocol.parse_reply`)."""
        assert self._process is not None and self._process.stdout is not None
        descriptor = self._process.stdout.fileno()
        deadline = time.monotonic() + seconds
        while b"\n" not in self._buffer:
            if len(self._buffer) > REPLY_BYTES:
                self.stop()
                raise refuse(f"sent over {REPLY_BYTES:,} bytes without an answer")
            if not select.select([descriptor], [], [], max(0.0, deadline - time.monotonic()))[0]:
                self._overran(timeout_kind, doing)
            chunk = os.read(descriptor, REPLY_BYTES)
            if not chunk:
                self._died(doing)
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            reply = parse_reply(line, doing)
        except AgentFault:
            self.stop()
            raise
        if "error" in reply:
            self.stop()
            raise AgentFault("memory" if reply["memory"] else "crash", reply["error"][:500])
        return reply

    def _overran(self, kind: str, doing: str) -> None:
        self.stop()
        limit = self.limits.startup_seconds if kind == "startup_timeout" else self.limits.move_seconds
        what = "start-up" if kind == "startup_timeout" else "move"
        raise AgentFault(kind, f"overran the {limit}s {what} limit ({doing}); its processes were killed")

    def _died(self, doing: str) -> None:
        assert self._process is not None
        status = self._process.wait()
        group = self._group()
        memory_killed = group is not None and group.out_of_memory()  # read before the group is ended
        self.stop()
        if self.level == BUBBLEWRAP and status > BWRAP_SIGNALLED:  # bwrap passes on a signal's death as 128 + signal
            status = BWRAP_SIGNALLED - status
        if status == MEMORY_EXIT or memory_killed:
            raise AgentFault("memory", f"ran out of its {self.limits.memory_mb} MB of memory")
        if status == -signal.SIGXCPU:
            raise AgentFault("cpu", f"used up its {self.limits.cpu_seconds}s of CPU time")
        how = f"killed by signal {-status}" if status < 0 else f"exited with status {status}"
        raise AgentFault("crash", f"died ({how}) while {doing}")


def resident_mb(pid: int) -> float:
    """The memory of child ``pid``: what its control group is charged (tmpfs and ``memfd`` included), else
    the resident memory of ``pid`` and every process under it, in MB, from ``/proc``."""
    record = child_records.get(pid)
    charged = None if record is None or record.group is None else record.group.memory_mb()
    return tree_resident_mb(pid) if charged is None else charged


def task_count(pid: int) -> int:
    """The threads of child ``pid`` and of every process it started: its control group's ``pids.current``
    (one read, which also counts a process that left the tree), else the threads under it in ``/proc``."""
    record = child_records.get(pid)
    counted = None if record is None or record.group is None else record.group.task_count()
    return tree_threads(pid) if counted is None else counted


class IdleChildren(threading.local):
    """Children that finished a game cleanly, kept for the same tenant's next
    game in this thread (a new game is a new ``start`` request: the child builds
    its agents afresh, without a new process or a new import).  Per thread,
    because the kernel's parent-death signal follows the thread that started a child."""

    def __init__(self) -> None:
        self.children: dict[tuple[Any, ...], list[tuple[subprocess.Popen[bytes], int]]] = {}
        """Idle children by key, each with the games it has played."""
        self.resident: dict[int, float] = {}
        """Each idle child's resident memory in MB when it was kept, by process id."""

    def keep(self, key: tuple[Any, ...], process: subprocess.Popen[bytes], games: int) -> None:
        """Keep a child that just ended its ``games``-th game cleanly, unless it has played its share
        or would take the idle children over :data:`IDLE_MEMORY_MB` (the ones kept first stay: a
        worker's games cycle through the entrants, so ending the oldest would leave none to reuse)."""
        resident = resident_mb(process.pid)
        if games >= GAMES_PER_CHILD or sum(self.resident.values()) + resident > IDLE_MEMORY_MB:
            end_process(process)
        else:
            self.children.setdefault(key, []).append((process, games))
            self.resident[process.pid] = resident

    def take(self, key: tuple[Any, ...], limits: Limits) -> tuple[subprocess.Popen[bytes], int] | None:
        """An idle child for ``key`` with its CPU budget renewed and the games it has played, or None."""
        waiting = self.children.get(key, [])
        while waiting:
            process, games = waiting.pop()
            self.resident.pop(process.pid, None)
            try:
                if process.poll() is None:
                    renew_cpu_budget(process.pid, limits.cpu_seconds)
                    return process, games
            except (OSError, ValueError, IndexError):  # it went while being read
                pass
            end_process(process)
        return None

    def end_all(self) -> None:
        for waiting in self.children.values():
            for process, _ in waiting:
                end_process(process)
        self.forget()

    def forget(self) -> None:
        """Drop the idle children without ending them (a forked worker's are its parent's)."""
        self.children.clear()
        self.resident.clear()


idle_children = IdleChildren()
"""This thread's idle children; they die with the worker (``PR_SET_PDEATHSIG``, bwrap's ``--die-with-parent``)."""


def end_process(process: subprocess.Popen[bytes]) -> None:
    """Kill a child's whole process group (its own namespace under bubblewrap) and reap it."""
    signal_group(process.pid, signal.SIGKILL)
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
    record = child_records.pop(process.pid, None)
    if record is not None and record.group is not None:
        record.group.end()  # thawed first, then every task killed, one that left the process group too
    process.wait()


@dataclass
class ChildRecord:
    """What the parent keeps of a live child."""

    group: ChildGroup | None
    """Its control group, ended with it (None where none could be made)."""
    tasks: int | None = None
    """Its threads and processes once its agents were first built."""


child_records: dict[int, ChildRecord] = {}
"""Each live child's record, by process id."""


def end_all_cgroups() -> None:
    """At exit: the groups of children no one ended (a room dropped without ``stop``)."""
    for record in list(child_records.values()):
        if record.group is not None:
            record.group.end()
    child_records.clear()


atexit.register(end_all_cgroups)  # after the idle children are ended (atexit runs last-registered first)
atexit.register(idle_children.end_all)
os.register_at_fork(after_in_child=idle_children.forget)
os.register_at_fork(after_in_child=child_records.clear)  # a forked worker's children are its parent's
