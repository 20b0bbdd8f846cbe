"""Untrusted agents in a sandbox: each entrant in its own process, its limits enforced from outside.

:class:`SandboxedAgent` is an ordinary agent to the game loop (``reset``,
``get_action``, ``final``, ``last_stats``), so the runner, the store and
``pacsim play`` use it unchanged.  Behind it, for every game, a child process
(:mod:`pacsim.sandbox.child`) builds the entrant's agent and answers
the moves over a pipe.  The parent

* sends each state as its fields (the layout once a game), so whatever the
  entrant does to its copy never reaches the real game;
* waits for each answer at most the per-move limit (plus what is left of an
  optional time bank), the first answer at most the start-up limit, and
  kills the child's whole process group on an overrun;
* checks the returned action against the rules itself;
* reads only JSON from the child, never a pickle, each line bounded and held
  to a schema (:mod:`pacsim.sandbox.protocol`).

The child runs under resource limits (CPU time, address space, file size,
processes; :class:`Limits`), in a control group of its own where one can be
made (:mod:`pacsim.sandbox.cgroups`: a task count, memory that counts tmpfs
and ``memfd``, one core, stopped whenever it is not moving) and, where
``bwrap`` (bubblewrap) works, in namespaces of its own without privileges: its
own user namespace with no capabilities, no network, its own process tree, and
a file system that shows the Python install and pacsim read-only, a small
``/tmp``, and of the rest only the entrant's own folder (read-only).  Where
bubblewrap is missing or cannot create namespaces, the floor is a separate
process under the limits; :attr:`SandboxedAgent.level` says which ran
(:data:`LEVELS`), :func:`isolation_summary` how strong that is.

An entrant's failure raises :class:`~pacsim.engine.game.AgentFault`: its
side loses the game, the kind recorded (docs/sandbox.md).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import functools
import math
import os
import pickle
import random
import resource
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pacsim
from pacsim.agents import plugins
from pacsim.agents.registry import BUILTIN_HOMES, GHOST, PACMAN, parse_spec
from pacsim.engine.game import AgentFault
from pacsim.engine.layout import Layout
from pacsim.engine.state import GameState
from pacsim.engine.stats import MoveStats
from pacsim.errors import AgentError, ConfigError
from pacsim.sandbox import cgroups
from pacsim.sandbox.cgroups import ChildGroup
from pacsim.sandbox.child import HEADER, MEMORY_EXIT
from pacsim.sandbox.protocol import parse_reply, refuse

BUBBLEWRAP, LIMITS = "bubblewrap", "limits"
LEVELS = (BUBBLEWRAP, LIMITS)
"""What isolated an entrant: bubblewrap namespaces and the limits, or the limits and a separate process alone."""
FULL, WEAK = "full", "weak"
"""How strong the isolation is (:attr:`Isolation.strength`): full is bubblewrap with a user namespace and no
capabilities, and a control group of every controller (pids, memory, cpu, freezer); anything less is weak."""
NO_PRIVILEGES = ["--unshare-user", "--uid", "65534", "--gid", "65534", "--cap-drop", "ALL"]
"""bwrap's options for an entrant without privileges: its own user namespace (root or not outside, it is
``nobody`` inside), every capability dropped, and bwrap sets no new privileges; where bwrap has it (0.8 on),
``--disable-userns`` too: no further user namespace (:func:`bubblewrap_privileges`)."""
AUTO = "auto"
"""Bubblewrap where it works, else the limits alone."""
BWRAP_SIGNALLED = 128
"""bwrap exits with this plus the signal that killed the entrant's process."""
REPLY_BYTES = 1 << 16
"""The longest answer the parent reads from a child: an entrant that sends more has broken the protocol."""
GAMES_PER_CHILD = 100
"""How many games one child plays at most: its ``RLIMIT_CPU`` hard limit is this many games' CPU time (a whole-run guard)."""
IDLE_MEMORY_MB = 1024
"""The resident memory a worker thread's idle children may hold in all; a child that would go over it is ended
(a fresh Python child holds about 22 MB; an entrant's model can hold far more)."""
CHAIN = {LIMITS: 1, BUBBLEWRAP: 3}
"""How many processes an idle child is at each level: Python alone; bwrap, its init in the namespace, and Python."""


@dataclass(frozen=True)
class Limits:
    """What a sandboxed entrant may use; the defaults are an instructor's."""

    move_seconds: float = 1.0
    """Wall time of one move."""
    startup_seconds: float = 10.0
    """Wall time to start the process, import the entrant and build its agent."""
    time_bank: float = 0.0
    """Seconds a game's moves may borrow beyond ``move_seconds``, in all."""
    cpu_seconds: int = 600
    """CPU time of the entrant's process over a game."""
    memory_mb: int = 2048
    """Address space of the entrant's process, memory of its control group (all it starts, page cache, tmpfs
    and ``memfd`` included) and size of its private ``/tmp``."""
    file_mb: int = 64
    """Largest file the entrant may write."""
    processes: int = 64
    """Processes and threads the entrant may have: its control group's ``pids.max`` where a pids controller
    is writable (then for root too), else ``RLIMIT_NPROC`` (processes only, and root is exempt)."""
    isolation: str = AUTO
    """``auto``, ``bubblewrap`` (an error where it does not work) or ``limits``."""

    def __post_init__(self) -> None:
        for name in ("move_seconds", "startup_seconds", "cpu_seconds", "memory_mb", "file_mb", "processes"):
            if not getattr(self, name) > 0:
                raise ConfigError(f"sandbox limit {name} must be above 0, not {getattr(self, name)!r}")
        if self.time_bank < 0:
            raise ConfigError(f"sandbox limit time_bank must be 0 or more, not {self.time_bank!r}")
        if self.isolation not in (AUTO, *LEVELS):
            raise ConfigError(f"sandbox isolation must be one of {AUTO}, {', '.join(LEVELS)}; not {self.isolation!r}")


def needs_sandbox(spec: str) -> bool:
    """Whether a spec runs code from outside pacsim: every spec but a
    built-in agent's whose options name no other agent (``minimax:model=x.py:G``
    runs x.py).  Decided from the text alone: nothing is imported."""
    parsed = parse_spec(spec)
    if parsed.attribute is not None:
        return True
    known = {*BUILTIN_HOMES[PACMAN], *BUILTIN_HOMES[GHOST]}
    return parsed.target not in known or any(":" in value or value.endswith(".py") for value in parsed.options.values())


def sandboxed(role: str, spec: str, options: Mapping[str, Any] | None, limits: Limits) -> SandboxedAgent | None:
    """The entrant ``spec`` in a sandbox, or None for a built-in agent (it needs none):
    the one switch the runner, ``pacsim play`` and tournaments use."""
    if not needs_sandbox(spec):
        return None
    return SandboxedAgent(role, spec, dict(options or {}), limits)


def bubblewrap_works() -> bool:
    """Whether ``bwrap`` is installed and can create the namespaces here, a user namespace included (some
    containers forbid them), and whether the entrant then really has no capability left (probed once)."""
    return bubblewrap_privileges() is not None


@functools.cache
def bubblewrap_privileges() -> list[str] | None:
    """:data:`NO_PRIVILEGES` with ``--disable-userns`` where this bwrap takes it, without where not; None
    where bwrap cannot run an entrant so, or the entrant would keep a capability."""
    executable = shutil.which("bwrap")
    for options in ([*NO_PRIVILEGES, "--disable-userns"], NO_PRIVILEGES):
        try:
            probe = subprocess.run([executable or "bwrap", "--ro-bind", "/", "/", "--unshare-all", *options,
                                    "--die-with-parent", "--proc", "/proc", "cat", "/proc/self/status"],
                                   capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            return None
        if probe.returncode == 0:
            return options if no_capabilities(probe.stdout) else None
    return None


def no_capabilities(status: str) -> bool:
    """Whether every capability set in a ``/proc/<pid>/status`` text is empty (and there are the five)."""
    sets = [line.split(":")[1] for line in status.splitlines() if line.startswith("Cap")]
    return len(sets) == 5 and all(int(value, 16) == 0 for value in sets)


@functools.cache
def control_groups() -> tuple[str, ...]:
    """The cgroup controllers each child gets here (probed once)."""
    return cgroups.available()


@dataclass(frozen=True)
class Isolation:
    """What isolates an entrant here, as it will run."""

    level: str
    """:data:`BUBBLEWRAP` or :data:`LIMITS`."""
    controllers: tuple[str, ...]
    """The control group each child gets (:data:`pacsim.sandbox.cgroups.CONTROLLERS` at best; empty without one)."""
    root: bool
    """Whether pacsim runs as root (at the limits level the entrant then acts as root)."""

    @property
    def strength(self) -> str:
        """:data:`FULL` with bubblewrap and every controller, else :data:`WEAK`."""
        full = self.level == BUBBLEWRAP and set(self.controllers) >= set(cgroups.CONTROLLERS)
        return FULL if full else WEAK

    def summary(self) -> str:
        """One line saying the strength, what isolates an entrant and, below full, what an entrant can still do."""
        jail = ("bubblewrap (own user, process, network and mount namespaces, no capabilities, read-only view)"
                if self.level == BUBBLEWRAP else "resource limits and a process of its own")
        groups = f"a control group ({', '.join(self.controllers)})" if self.controllers else "no control group"
        text = f"{self.strength} isolation: {jail}, {groups}"
        missing = [controller for controller in cgroups.CONTROLLERS if controller not in self.controllers]
        gaps = [*(["an entrant can read what pacsim's user can, open sockets" + " and act as root" * self.root]
                  if self.level == LIMITS else []),
                *([f"no {', '.join(missing)} control: memory outside its address space, its CPU share or its work "
                   "between moves is not held"] if missing else [])]
        return text + ("; " + "; ".join(gaps) if gaps else "")


def isolation(limits: Limits) -> Isolation:
    """What will isolate an entrant under ``limits`` here (an error if ``isolation = bubblewrap`` cannot run)."""
    return Isolation(isolation_level(limits), control_groups(), os.geteuid() == 0)


def isolation_summary(limits: Limits) -> str:
    """The line a tournament prints first: ``full isolation: ...`` or ``weak isolation: ...; what is not held``."""
    return isolation(limits).summary()


def isolation_level(limits: Limits) -> str:
    """The level that will run under ``limits`` (:data:`LEVELS`)."""
    if limits.isolation == LIMITS:
        return LIMITS
    if bubblewrap_works():
        return BUBBLEWRAP
    if limits.isolation == BUBBLEWRAP:
        raise ConfigError("sandbox isolation = bubblewrap, but bwrap is not installed or cannot create namespaces here "
                          "(install the bubblewrap package, or use isolation = limits)")
    return LIMITS


class SandboxedAgent:
    """An entrant played in a child process (see the module's docstring)."""

    def __init__(self, role: str, spec: str, options: dict[str, Any], limits: Limits) -> None:
        self.role, self.spec, self.options, self.limits = role, spec, options, limits
        self.level = isolation_level(limits)
        self.folder, self.child_spec = entrant_folder(spec)
        self.last_stats: MoveStats | None = None
        self.index = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._games = 0
        """Games the child played before this one."""
        self.process_id: int | None = None
        """The child process of the latest game (a game reusing a child has its predecessor's)."""
        self._ready = False
        self._layout: Layout | None = None
        self._bank = limits.time_bank
        self._buffer = b""

    # -- the Agent protocol ----------------------------------------------

    def reset(self, index: int, rng: random.Random) -> None:
        """Start this game's child process and ask it to build the agent."""
        self.stop()
        self.index, self.last_stats, self._bank, self._layout = index, None, self.limits.time_bank, None
        self._process, self._games = idle_children.take(self._key(), self.limits) or (self._spawn(), 0)
        self.process_id = self._process.pid
        self._resume()
        self._send(("start", self.role, self.child_spec, self.options, index, rng), self.limits.startup_seconds)

    def get_action(self, state: GameState) -> str:
        self._started()
        self._resume()
        started = time.monotonic()
        allowed = self.limits.move_seconds + self._bank
        if state.layout is not self._layout:
            self._send(("layout", state.layout), allowed)
            self._layout = state.layout
        self._send(("move", tuple(state)[1:]), allowed - (time.monotonic() - started))
        reply = self._receive(allowed - (time.monotonic() - started), "move_timeout", "move")
        self._bank -= max(0.0, time.monotonic() - started - self.limits.move_seconds)
        self._pause()
        return self._checked_action(reply, state)

    def _started(self) -> dict[str, Any]:
        """Wait (within the start-up limit) for the child to have built its agent; its answer, once."""
        if self._ready:
            return {}
        reply = self._receive(self.limits.startup_seconds, "startup_timeout", "start")
        self._ready = True
        record = child_records.get(self.process_id or 0)
        if record is not None and record.tasks is None:
            record.tasks = task_count(self.process_id or 0)  # a fresh child's, its agent built: none may be added
        return reply

    def check(self) -> Checked:
        """Build the entrant in its sandbox, as the planner does before any game
        (its spec and options checked without importing it here), and end it."""
        self.reset(0, random.Random(0))
        try:
            reply = self._started()
        finally:
            self.stop()
        return checked_reply(reply, self.spec)

    def final(self, state: GameState) -> None:
        """Show the child the last state, then keep it for this worker's next
        game; a failure here changes no result (and ends the child)."""
        with contextlib.suppress(AgentFault):
            if self._ready:
                self._resume()
                self._send(("final", tuple(state)[1:]), self.limits.move_seconds)
                self._receive(self.limits.move_seconds, "move_timeout", "final")
                self._release()
        self.stop()

    def _key(self) -> tuple[Any, ...]:
        """What makes two games' children interchangeable: the same entrant, options, limits and role."""
        return (self.role, self.child_spec, repr(sorted(self.options.items())), self.limits, self.level, self.folder)

    def _release(self) -> None:
        """Hand the child to the idle pool, paused, unless it left a process of its own behind (under its parent
        or, at the ``limits`` level, anywhere in its process group) or has more threads or processes than when
        its agent was first built (they would run on, or wake, in another entrant's game)."""
        process = self._process
        if process is None or len(process_tree(process.pid)) != CHAIN[self.level]:
            return
        if self.level == LIMITS and group_members(process.pid) != 1:
            return
        record = child_records.get(process.pid)
        if record is not None and (record.tasks is None or task_count(process.pid) > record.tasks):
            return
        self._pause()
        self._process, self._ready, self._buffer = None, False, b""
        idle_children.keep(self._key(), process, self._games + 1)

    def _group(self) -> ChildGroup | None:
        record = child_records.get(self.process_id or 0)
        return None if record is None else record.group

    def _pause(self) -> None:
        """Stop all of the child between its moves and games: none of its processes or threads runs while
        another agent thinks (nothing happens without a control group). One with more threads than when its
        agent was built is frozen first and waited for until all of it has stopped (:meth:`ChildGroup.park`)."""
        record = child_records.get(self.process_id or 0)
        if record is not None and record.group is not None:
            record.group.park(suspect=record.tasks is None or task_count(self.process_id or 0) > record.tasks)

    def _resume(self) -> None:
        group = self._group()
        if group is not None:
            group.unpark()

    def stop(self) -> None:
        """Kill the child's whole process group (its own namespace under bubblewrap) and reap it."""
        process, self._process, self._ready, self._buffer = self._process, None, False, b""
        if process is not None:
            end_process(process)

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.stop()

    # -- the child --------------------------------------------------------

    def _spawn(self) -> subprocess.Popen[bytes]:
        command = [sys.executable, "-m", "pacsim.sandbox.child"]
        if self.level == BUBBLEWRAP:
            command = bubblewrap_command(self.folder, self.limits.memory_mb) + command
        group = cgroups.make_group(cgroups.Budget(self.limits.processes, self.limits.memory_mb << 20))
        try:
            process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                       cwd=self.folder, env=child_environment(), start_new_session=True,
                                       preexec_fn=functools.partial(apply_limits, self.limits, self._process_limit(), group,
                                                                    self.level == LIMITS))
        except OSError as error:
            if group is not None:
                group.end()
            raise AgentFault("crash", f"could not start its sandbox: {error.strerror or error}") from None
        child_records[process.pid] = ChildRecord(group)
        return process

    def _process_limit(self) -> int:
        """``RLIMIT_NPROC`` for the child: root is exempt from it, anyone else's count includes all their processes."""
        return self.limits.processes if os.getuid() == 0 else user_processes() + self.limits.processes

    def _send(self, message: Any, seconds: float) -> None:
        assert self._process is not None and self._process.stdin is not None
        data = pickle.dumps(message)
        data = HEADER.pack(len(data)) + data
        descriptor = self._process.stdin.fileno()
        deadline = time.monotonic() + seconds
        while data:
            if not select.select([], [descriptor], [], max(0.0, deadline - time.monotonic()))[1]:
                self._overran("move_timeout" if self._ready else "startup_timeout", "reading its input")
            try:
                data = data[os.write(descriptor, data[:select.PIPE_BUF]):]
            except BrokenPipeError:
                self._died("reading its input")

    def _receive(self, seconds: float, timeout_kind: str, doing: str) -> dict[str, Any]:
        """The child's next answer within ``seconds``."""
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


def checked_reply(reply: dict[str, Any], spec: str) -> Checked:
    code: dict[str, str] = {}
    files: dict[str, str] = {}
    parsed = parse_spec(spec)
    own = Path(parsed.target).expanduser().resolve() if plugins.is_file_target(parsed.target) else None
    for label, path, identity, kind in reply["used"]:  # its shape checked by parse_reply
        if own is not None and Path(path) == own:
            label, identity = parsed.target, plugins.file_digest(own)
        (files if kind == plugins.DATA else code)[label[:200]] = identity[:200]
    return Checked(code, files, reply["depth"], frozenset(name[:100] for name in reply["options"]))


def check_in_sandbox(role: str, spec: str, options: Mapping[str, Any], limits: Limits) -> Checked:
    """:meth:`SandboxedAgent.check` of the entrant ``spec``; an :class:`AgentError` naming it if it fails.
    Asked again for the same entrant, options and unchanged file, the answer
    is remembered: a tournament's planning asks several times, and each
    sandbox takes about a second to start."""
    key = (role, spec, repr(sorted(options.items())), limits, _file_state(spec))
    if key not in _CHECKED:
        try:
            _CHECKED[key] = SandboxedAgent(role, spec, dict(options), limits).check()
        except AgentFault as fault:
            raise AgentError(f"agent {spec!r} in its sandbox: {fault}") from None
    return _CHECKED[key]


_CHECKED: dict[tuple[Any, ...], Checked] = {}
"""The entrants checked in this process (a class's hand-ins: a few hundred at most)."""


def _file_state(spec: str) -> tuple[int, int] | None:
    """When and how large the entrant's own file is, for a file entrant: an edited file is checked again."""
    parsed = parse_spec(spec)
    if parsed.attribute is None or not plugins.is_file_target(parsed.target):
        return None
    try:
        status = Path(parsed.target).expanduser().stat()
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


# -- how the child is started ----------------------------------------------

def entrant_folder(spec: str) -> tuple[Path, str]:
    """The folder of the entrant's file (what its sandbox shows of the disk;
    the current folder for a module or installed entrant), and the spec with
    the file's path made absolute (the child runs in that folder)."""
    parsed = parse_spec(spec)
    if parsed.attribute is not None and plugins.is_file_target(parsed.target):
        path = Path(parsed.target).expanduser()
        if not path.is_file():
            raise AgentError(f"agent {spec!r}: no file {parsed.target!r}")
        path = path.resolve()
        return path.parent, str(path) + spec[spec.index(parsed.target) + len(parsed.target):]
    return Path.cwd(), spec


def pacsim_root() -> Path:
    """The folder pacsim is imported from (its parent goes on the child's path)."""
    return Path(pacsim.__file__).resolve().parent


def child_environment() -> dict[str, str]:
    """A small environment: pacsim importable, nothing of the parent's secrets."""
    return {"PATH": os.defpath, "PYTHONPATH": str(pacsim_root().parent), "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONHASHSEED": "0", "HOME": "/tmp", "LANG": "C.UTF-8"}


def bubblewrap_command(folder: Path, tmp_mb: int) -> list[str]:
    """``bwrap`` with no network, no privileges, its own process tree, and a file system of
    the system's programs, Python and pacsim (read-only), an empty ``/tmp`` of ``tmp_mb``
    and the entrant's ``folder`` (read-only)."""
    command = ["bwrap", "--unshare-all", *(bubblewrap_privileges() or NO_PRIVILEGES), "--die-with-parent", "--new-session", "--proc", "/proc",
               "--dev", "/dev", "--size", str(tmp_mb << 20), "--tmpfs", "/tmp"]
    for system in ("/usr", "/bin", "/lib", "/lib64", "/sbin"):
        if os.path.islink(system):
            command += ["--symlink", os.readlink(system), system]
        elif os.path.isdir(system):
            command += ["--ro-bind", system, system]
    for folder_needed in {*python_folders(), str(pacsim_root())}:
        command += ["--ro-bind", folder_needed, folder_needed]
    return command + ["--ro-bind", str(folder), str(folder), "--chdir", str(folder)]


def python_folders() -> list[str]:
    """Python's install and the environment's (a virtualenv's packages), real paths."""
    folders = {os.path.realpath(sys.base_prefix), os.path.realpath(sys.prefix),
               os.path.dirname(os.path.dirname(os.path.realpath(sys.executable)))}
    return sorted(folder for folder in folders if folder not in ("/", "/usr"))


def user_processes() -> int:
    """How many processes this user runs now: the kernel counts them all against
    ``RLIMIT_NPROC``, so an entrant's allowance comes on top of them."""
    uid = os.getuid()
    count = 0
    for entry in os.scandir("/proc"):
        with contextlib.suppress(OSError):
            count += entry.name.isdigit() and entry.stat().st_uid == uid
    return count


def process_tree(pid: int) -> list[int]:
    """``pid`` and every process under it (all its threads' children), from ``/proc``; empty if it is gone."""
    tree, waiting = [], [pid]
    while waiting:
        current = waiting.pop()
        try:
            threads = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        tree.append(current)
        for thread in threads:
            with contextlib.suppress(OSError):
                waiting += [int(child) for child in Path(f"/proc/{current}/task/{thread}/children").read_text().split()]
    return tree


def group_members(group: int) -> int:
    """How many processes are in process group ``group`` now, from ``/proc``."""
    count = 0
    for entry in os.scandir("/proc"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            count += entry.name.isdigit() and int(stat_fields(entry.name)[2]) == group
    return count


def resident_mb(pid: int) -> float:
    """The memory of child ``pid``: what its control group is charged (tmpfs and ``memfd`` included), else
    the resident memory of ``pid`` and every process under it, in MB, from ``/proc``."""
    record = child_records.get(pid)
    charged = None if record is None or record.group is None else record.group.memory_mb()
    if charged is not None:
        return charged
    kilobytes = 0
    for member in process_tree(pid):
        with contextlib.suppress(OSError, IndexError, ValueError):
            kilobytes += int(Path(f"/proc/{member}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    return kilobytes / 1024


def stat_fields(pid: int | str) -> list[str]:
    """The fields of ``/proc/<pid>/stat`` after the command's name (the third field, its state, first)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds_used(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used in its life, from ``/proc``."""
    fields = stat_fields(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime: the 14th, 15th fields


def renew_cpu_budget(pid: int, limits: Limits) -> None:
    """Give a reused child's processes ``cpu_seconds`` more CPU time from now:
    ``RLIMIT_CPU`` counts a process's whole life, so each game moves it on."""
    for member in process_tree(pid):
        used = math.ceil(cpu_seconds_used(member))
        hard = resource.prlimit(member, resource.RLIMIT_CPU)[1]
        soft = used + limits.cpu_seconds if hard == resource.RLIM_INFINITY else min(used + limits.cpu_seconds, hard - 1)
        resource.prlimit(member, resource.RLIMIT_CPU, (soft, hard))


class IdleChildren(threading.local):
    """Children that finished a game cleanly, kept for the same entrant's next
    game in this thread (a new game is a new ``start`` request: the child builds
    its agent afresh, without a new process or a new import).  Per thread,
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
                    renew_cpu_budget(process.pid, limits)
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
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
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
    """Its threads and processes once its agent was first built."""


child_records: dict[int, ChildRecord] = {}
"""Each live child's record, by process id."""


def task_count(pid: int) -> int:
    """The threads of child ``pid`` and of every process it started: its control group's ``pids.current``
    (one read, which also counts a process that left the tree), else the threads under it in ``/proc``."""
    record = child_records.get(pid)
    counted = None if record is None or record.group is None else record.group.task_count()
    if counted is not None:
        return counted
    threads = 0
    for member in process_tree(pid):
        with contextlib.suppress(OSError):
            threads += len(os.listdir(f"/proc/{member}/task"))
    return threads


def end_all_cgroups() -> None:
    """At exit: the groups of children no one ended (an agent dropped without ``stop``)."""
    for record in list(child_records.values()):
        if record.group is not None:
            record.group.end()
    child_records.clear()


atexit.register(end_all_cgroups)  # after the idle children are ended (atexit runs last-registered first)
atexit.register(idle_children.end_all)
os.register_at_fork(after_in_child=idle_children.forget)
os.register_at_fork(after_in_child=child_records.clear)  # a forked worker's children are its parent's


def apply_limits(limits: Limits, processes: int, group: ChildGroup | None = None, no_new_privileges: bool = True) -> None:
    """In the child, before it runs Python (or bwrap): its control ``group`` (when one was made), its resource
    limits (``processes`` in all for this user), death with its parent, and with ``no_new_privileges`` no
    set-user-id program raising them again (not before bwrap, which may need its set-user-id bit and sets
    no new privileges itself)."""
    if group is not None:
        with contextlib.suppress(OSError):
            group.join()
    megabyte = 1 << 20
    whole_run = limits.cpu_seconds * GAMES_PER_CHILD + 1  # each game's soft limit is moved on (renew_cpu_budget)
    for which, soft, hard in ((resource.RLIMIT_CPU, limits.cpu_seconds, whole_run),  # SIGXCPU first
                              (resource.RLIMIT_AS, limits.memory_mb * megabyte, limits.memory_mb * megabyte),
                              (resource.RLIMIT_FSIZE, limits.file_mb * megabyte, limits.file_mb * megabyte),
                              (resource.RLIMIT_NPROC, processes, processes), (resource.RLIMIT_CORE, 0, 0)):
        with contextlib.suppress(ValueError, OSError):  # a hard limit already lower stays
            resource.setrlimit(which, (soft, hard))
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: a dead parent takes the child with it
        if no_new_privileges:
            libc.prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS
