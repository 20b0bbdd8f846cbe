"""How strong the isolation is here: which level runs, which control groups a child gets, and what that leaves open."""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass

from pacsim.errors import ConfigError
from pacsim.sandbox import cgroups
from pacsim.sandbox.bubblewrap import bubblewrap_works
from pacsim.sandbox.limits import BUBBLEWRAP, LIMITS, Limits

FULL, WEAK = "full", "weak"
"""How strong the isolation is (:attr:`Isolation.strength`): full is bubblewrap with a user namespace and no
capabilities, and a control group of every controller (pids, memory, cpu, freezer); anything less is weak."""


@functools.cache
def control_groups() -> tuple[str, ...]:
    """The cgroup controllers each child gets here (probed once)."""
    return cgroups.available()


@dataclass(frozen=True)
class Isolation:
    """What isolates an entrant here, as it will run."""

    level: str
    """:data:`~pacsim.sandbox.limits.BUBBLEWRAP` or :data:`~pacsim.sandbox.limits.LIMITS`."""
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
    """The level that will run under ``limits`` (:data:`~pacsim.sandbox.limits.LEVELS`)."""
    if limits.isolation == LIMITS:
        return LIMITS
    if bubblewrap_works():
        return BUBBLEWRAP
    if limits.isolation == BUBBLEWRAP:
        raise ConfigError("sandbox isolation = bubblewrap, but bwrap is not installed or cannot create namespaces here "
                          "(install the bubblewrap package, or use isolation = limits)")
    return LIMITS
