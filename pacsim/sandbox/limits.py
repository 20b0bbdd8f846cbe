"""What a sandboxed child may use (:class:`Limits`), and the resource limits that hold it from its first instruction.

The limits are the floor of every level: a separate process, its own process
group, ``RLIMIT_CPU``, ``RLIMIT_AS``, ``RLIMIT_FSIZE``, ``RLIMIT_NPROC``, no
core files, the parent-death signal, and (at the ``limits`` level) no new
privileges.  Bubblewrap (:mod:`pacsim.sandbox.bubblewrap`) and a control group
(:mod:`pacsim.sandbox.cgroups`) come on top where they can.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import signal
from dataclasses import dataclass

from pacsim.errors import ConfigError
from pacsim.sandbox.cgroups import ChildGroup
from pacsim.sandbox.processes import user_processes

BUBBLEWRAP, LIMITS = "bubblewrap", "limits"
LEVELS = (BUBBLEWRAP, LIMITS)
"""What isolated an entrant: bubblewrap namespaces and the limits, or the limits and a separate process alone."""
AUTO = "auto"
"""Bubblewrap where it works, else the limits alone."""
GAMES_PER_CHILD = 100
"""How many games one child plays at most: its ``RLIMIT_CPU`` hard limit is this many games' CPU time (a whole-run guard)."""


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
    """Largest file the entrant may write, and the size of its private ``/dev/shm`` under bubblewrap."""
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


def process_limit(limits: Limits) -> int:
    """``RLIMIT_NPROC`` for a child: root is exempt from it, anyone else's count includes all their processes."""
    return limits.processes if os.getuid() == 0 else user_processes() + limits.processes


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
