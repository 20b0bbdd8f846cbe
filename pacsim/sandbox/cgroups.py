"""One control group per sandboxed child: a count, a memory limit, a CPU quota and a pause that hold all it starts.

A child and every process and thread it starts (in a session of its own or
not) are in its group: the kernel counts them together against ``pids.max``,
charges their memory (page cache, tmpfs and ``memfd`` included) against one
limit, lets them use one core between them however many they are, and the
parent pauses all of them at once between moves (:meth:`ChildGroup.park`).
Under cgroup v1 (``/sys/fs/cgroup/<controller>``) the group is a folder per
controller, made inside pacsim's own group; under cgroup v2 (``/sys/fs/cgroup``
is the unified tree) one folder under the root where pacsim may write it
(root), else in the nearest writable group of pacsim's own branch (a user's
delegated subtree), the controllers it offers enabled for it.  No signal goes to a process id of 0 or below
(:mod:`pacsim.sandbox.processes`).
Where neither can be written the sandbox has no group (:func:`make_group` is None).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pacsim.sandbox.processes import alive, signal_process

ROOT = Path("/sys/fs/cgroup")
SELF = Path("/proc/self/cgroup")
"""Where this process's groups are named (v1: a line per hierarchy; v2: ``0::/its/path``)."""
CONTROLLERS = ("pids", "memory", "cpu", "freezer")
"""What a group holds under cgroup v1, each in its own hierarchy; all four make full isolation."""
V2_CONTROLLERS = ("pids", "memory", "cpu")
"""What a v2 group enables in its parent (the freezer is part of every v2 group)."""
PREFIX = "pacsim-sandbox"
PERIOD = 100_000
"""The CPU quota's period in microseconds: a quota of one period a period is one core."""
MAX_ROUNDS = 50
"""How many times :meth:`ChildGroup.park` reads the group for processes forked while it stopped the others."""
CPU_CORES = 1.0
"""The CPU a child and everything it starts may use at once, in cores."""


@dataclass(frozen=True)
class Budget:
    """What a group allows."""

    processes: int
    """Tasks (processes and threads) at once."""
    memory_bytes: int
    """Memory charged to the group: resident pages, page cache, tmpfs and ``memfd`` files."""


class ChildGroup:
    """The control group of one child (a folder per controller under v1, one folder under v2)."""

    def __init__(self, folders: dict[str, Path], version: int) -> None:
        self.folders, self.version = folders, version
        self.stopped: set[int] = set()
        """The processes :meth:`park` stopped, for :meth:`unpark`."""

    def join(self) -> None:
        """Put the calling process in the group (run in the child before it runs anything else)."""
        for folder in set(self.folders.values()):
            (folder / "cgroup.procs").write_text(str(os.getpid()))

    def controllers(self) -> tuple[str, ...]:
        return tuple(sorted(self.folders))

    def tasks(self) -> list[int]:
        """The processes in the group now that this process can name (the kernel lists one of another pid
        namespace as 0: it is left out, never signalled)."""
        with contextlib.suppress(OSError, ValueError):
            return [pid for pid in map(int, (self._folder() / "cgroup.procs").read_text().split()) if pid > 0]
        return []

    def task_count(self) -> int | None:
        """Threads and processes in the group now (``pids.current``), None without a pids controller."""
        with contextlib.suppress(OSError, KeyError, ValueError):
            return int((self.folders["pids"] / "pids.current").read_text())
        return None

    def _folder(self) -> Path:
        return self.folders.get("pids") or next(iter(self.folders.values()))

    def park(self, suspect: bool = True) -> None:
        """Stop every process of the group (all their threads) until :meth:`unpark`, each with ``SIGSTOP``, so
        that a ``SIGKILL`` (the parent's, or the parent-death signal if the worker dies) still ends them: a frozen
        task cannot die. The group is read again for processes forked meanwhile (a process sent the signal cannot
        finish a fork). A ``suspect`` group (one that grew) is first asked to freeze whole, so that nothing of it
        forks meanwhile, and waited for until no thread of it runs on (:meth:`_settle`); that costs a millisecond
        or more on a busy machine, which an honest child's every move does not pay."""
        if suspect:
            self._freeze(True, seconds=0.0)
        for _ in range(MAX_ROUNDS):
            waiting = set(self.tasks()) - self.stopped
            if not waiting:
                break
            for pid in waiting:
                signal_process(pid, signal.SIGSTOP)
            self.stopped |= waiting
        if suspect:
            self._freeze(False)
            self._settle()

    def _settle(self, seconds: float = 0.2) -> None:
        """Wait (at most ``seconds``) until no thread of the group is running: a stop signal takes effect when its
        thread is next scheduled, so on a busy machine spinning threads would run on into the next agent's move.
        Threads asleep (an honest child waiting on its pipe) do not wait: they stop when they wake. The wait is
        bounded: a group throttled by its CPU quota runs again (and stops) within a quota period."""
        deadline = time.monotonic() + seconds
        while any(thread_state(thread) == "R" for thread in self.threads()) and time.monotonic() < deadline:
            time.sleep(0.001)

    def threads(self) -> list[int]:
        """The threads of the group now (v1 ``tasks``, v2 ``cgroup.threads``)."""
        name = "cgroup.threads" if self.version == 2 else "tasks"
        with contextlib.suppress(OSError, ValueError):
            return [int(thread) for thread in (self._folder() / name).read_text().split()]
        return []

    def unpark(self) -> None:
        for pid in self.stopped:
            signal_process(pid, signal.SIGCONT)
        self.stopped.clear()

    def _freeze(self, frozen: bool, seconds: float = 0.5) -> None:
        """Freeze (waiting, at most ``seconds``, until every task is) or thaw the group; nothing without a freezer."""
        if self.version == 2:
            path, value, done = self.folders["freezer"] / "cgroup.freeze", "1" if frozen else "0", "frozen 1"
            state = self.folders["freezer"] / "cgroup.events"
        elif "freezer" in self.folders:
            path = state = self.folders["freezer"] / "freezer.state"
            value = done = "FROZEN" if frozen else "THAWED"
        else:
            return
        with contextlib.suppress(OSError):
            path.write_text(value)
            deadline = time.monotonic() + seconds
            while frozen and done not in state.read_text() and time.monotonic() < deadline:
                time.sleep(0.0005)

    def out_of_memory(self) -> bool:
        """Whether the kernel killed a task of the group for going over its memory limit."""
        name = "memory.events" if self.version == 2 else "memory.oom_control"
        with contextlib.suppress(OSError, KeyError, ValueError):
            fields = dict(line.split() for line in (self.folders["memory"] / name).read_text().splitlines())
            return int(fields["oom_kill"]) > 0
        return False

    def memory_mb(self) -> float | None:
        """The memory charged to the group now, in MB (None without a memory controller)."""
        name = "memory.current" if self.version == 2 else "memory.usage_in_bytes"
        with contextlib.suppress(OSError, KeyError, ValueError):
            return int((self.folders["memory"] / name).read_text()) / (1 << 20)
        return None

    def end(self, seconds: float = 1.0) -> None:
        """Kill every task left in the group (thawed first: a frozen task does not die) and remove its folders
        once the kernel has emptied them (at most ``seconds`` later; a folder still busy then stays)."""
        self._freeze(False)
        deadline = time.monotonic() + seconds
        while (tasks := self.tasks()) and time.monotonic() < deadline:
            for pid in tasks:
                signal_process(pid, signal.SIGKILL)
            time.sleep(0.01)
        for folder in set(self.folders.values()):
            with contextlib.suppress(OSError):
                folder.rmdir()


def thread_state(thread: int) -> str:
    """The scheduler's state of a thread (``R`` running or waiting to run, ``S`` asleep, ``T`` stopped, ...)."""
    try:
        return Path(f"/proc/{thread}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "X"  # gone


def make_group(budget: Budget) -> ChildGroup | None:
    """A new group allowing ``budget`` (every controller that can be written here), or None where none can."""
    if version() == 2:
        return _make_v2_group(budget)
    folders: dict[str, Path] = {}
    name = f"{PREFIX}-{os.getpid()}-{secrets.token_hex(4)}"
    for controller in CONTROLLERS:
        parent = own_folder(controller)
        if parent is None:
            continue
        remove_orphans(parent, controller)
        with contextlib.suppress(OSError):
            (parent / name).mkdir()
            folders[controller] = parent / name
            _limit_v1(controller, parent / name, budget)
    return ChildGroup(folders, 1) if folders else None


def own_folder(controller: str) -> Path | None:
    """Where this process's v1 group of ``controller`` is (a child's group goes inside it), if it is writable."""
    with contextlib.suppress(OSError):
        for line in SELF.read_text().splitlines():
            _, names, path = line.split(":", 2)
            if controller in names.split(","):
                folder = ROOT / controller / path.lstrip("/")
                return folder if os.access(folder, os.W_OK) and (folder / "cgroup.procs").exists() else None
    return None


def _limit_v1(controller: str, folder: Path, budget: Budget) -> None:
    """Write a v1 controller's limits (the memory limit before the memory+swap one: the kernel keeps it the larger)."""
    settings = {"pids": [("pids.max", budget.processes)],
                "memory": [("memory.limit_in_bytes", budget.memory_bytes), ("memory.memsw.limit_in_bytes", budget.memory_bytes)],
                "cpu": [("cpu.cfs_period_us", PERIOD), ("cpu.cfs_quota_us", int(PERIOD * CPU_CORES))]}
    for name, value in settings.get(controller, []):
        if name == "memory.memsw.limit_in_bytes" and not (folder / name).exists():
            continue  # no swap accounting in this kernel: memory.limit_in_bytes alone
        (folder / name).write_text(str(value))


def _make_v2_group(budget: Budget) -> ChildGroup | None:
    """A v2 group under the root where this process may write it (root, as before), else in the nearest group
    of this process's own branch of the tree that can hand controllers down (a user's delegated subtree).  A
    group holding processes cannot hand controllers down (the kernel's no-internal-process rule), so a
    delegated leaf is passed over for the group above it."""
    for parent in v2_parents():
        group = _make_v2_group_in(parent, budget)
        if group is not None:
            return group
    return None


def v2_parents() -> list[Path]:
    """The folders a v2 group may be made in, those this process can write: the root first, then this process's
    own group (``0::`` in ``/proc/self/cgroup``) and each above it, nearest first."""
    own = ROOT
    with contextlib.suppress(OSError):
        for line in SELF.read_text().splitlines():
            if line.startswith("0::"):
                own = ROOT / line[3:].strip().lstrip("/")
    branch = [own, *own.parents]
    return [folder for folder in [ROOT, *branch[:branch.index(ROOT)]] if writable(folder)]


def writable(folder: Path) -> bool:
    """Whether this process may make a group in ``folder`` and hand it controllers."""
    return os.access(folder, os.W_OK) and os.access(folder / "cgroup.subtree_control", os.W_OK)


def _make_v2_group_in(parent: Path, budget: Budget) -> ChildGroup | None:
    """A v2 group in ``parent`` with every controller ``parent`` has of :data:`V2_CONTROLLERS`, or None."""
    remove_orphans(parent)
    folder = parent / f"{PREFIX}-{os.getpid()}-{secrets.token_hex(4)}"
    try:
        offered = (parent / "cgroup.controllers").read_text().split()
        controllers = [name for name in V2_CONTROLLERS if name in offered]
        (parent / "cgroup.subtree_control").write_text(" ".join(f"+{name}" for name in controllers))
        folder.mkdir()
        for name, value in (("pids.max", budget.processes), ("memory.max", budget.memory_bytes),
                            ("memory.swap.max", 0), ("cpu.max", f"{int(PERIOD * CPU_CORES)} {PERIOD}")):
            if name.split(".")[0] in controllers:
                with contextlib.suppress(FileNotFoundError):  # no swap: no memory.swap.max
                    (folder / name).write_text(str(value))
    except OSError:
        with contextlib.suppress(OSError):
            folder.rmdir()
        return None
    return v2_group(folder, controllers)


def v2_group(folder: Path, controllers: Iterable[str] = V2_CONTROLLERS) -> ChildGroup:
    """The v2 group in ``folder`` with ``controllers`` (and the freezer every v2 group has)."""
    return ChildGroup({controller: folder for controller in (*controllers, "freezer")}, 2)


def version() -> int:
    """The control groups pacsim uses here: 2 where ``/sys/fs/cgroup`` is the unified tree, else 1."""
    return 2 if (ROOT / "cgroup.controllers").exists() else 1


def remove_orphans(parent: Path, controller: str | None = None) -> None:
    """End the groups (in ``parent``, of v1's ``controller`` or else v2's) of pacsim processes that died without
    ending them (a worker killed by a signal runs no exit code): their tasks killed, their folders removed."""
    for folder in parent.glob(f"{PREFIX}-*-*"):
        owner = folder.name.removeprefix(f"{PREFIX}-").split("-")[0]
        if not owner.isdigit():
            continue
        if int(owner) > 0 and alive(int(owner)) is False:  # None: alive, another user's
            (v2_group(folder) if controller is None else ChildGroup({controller: folder}, 1)).end()


def available() -> tuple[str, ...]:
    """The controllers a child's group gets here (empty where none can be made)."""
    group = make_group(Budget(processes=1, memory_bytes=1 << 30))
    if group is None:
        return ()
    group.end()
    return group.controllers()
