"""A child's processes as ``/proc`` shows them, and the one way the room signals them.

Every signal the room sends goes through :func:`signal_process` or
:func:`signal_group`, which refuse a process id of 0 or below: ``kill(0, ...)``
signals the caller's own process group and ``kill(-1, ...)`` every process the
caller may signal, and a control group's ``cgroup.procs`` lists a process of
another pid namespace as 0.
"""

from __future__ import annotations

import contextlib
import math
import os
import resource
from pathlib import Path


def signal_process(pid: int, signal_number: int) -> None:
    """Send ``signal_number`` to process ``pid`` (nothing for an id of 0 or below; a process gone is no error)."""
    if pid <= 0:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal_number)


def signal_group(group: int, signal_number: int) -> None:
    """Send ``signal_number`` to process group ``group`` (nothing for an id of 0 or below)."""
    if group <= 0:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal_number)


def alive(pid: int) -> bool | None:
    """Whether process ``pid`` lives (None: it does, but is another user's); False for an id of 0 or below."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return None
    return True


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


def tree_resident_mb(pid: int) -> float:
    """The resident memory of ``pid`` and every process under it, in MB."""
    kilobytes = 0
    for member in process_tree(pid):
        with contextlib.suppress(OSError, IndexError, ValueError):
            kilobytes += int(Path(f"/proc/{member}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    return kilobytes / 1024


def tree_threads(pid: int) -> int:
    """The threads of ``pid`` and of every process under it."""
    threads = 0
    for member in process_tree(pid):
        with contextlib.suppress(OSError):
            threads += len(os.listdir(f"/proc/{member}/task"))
    return threads


def stat_fields(pid: int | str) -> list[str]:
    """The fields of ``/proc/<pid>/stat`` after the command's name (the third field, its state, first)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds_used(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used in its life, from ``/proc``."""
    fields = stat_fields(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime: the 14th, 15th fields


def renew_cpu_budget(pid: int, cpu_seconds: int) -> None:
    """Give a reused child's processes ``cpu_seconds`` more CPU time from now:
    ``RLIMIT_CPU`` counts a process's whole life, so each game moves it on."""
    for member in process_tree(pid):
        used = math.ceil(cpu_seconds_used(member))
        hard = resource.prlimit(member, resource.RLIMIT_CPU)[1]
        soft = used + cpu_seconds if hard == resource.RLIM_INFINITY else min(used + cpu_seconds, hard - 1)
        resource.prlimit(member, resource.RLIMIT_CPU, (soft, hard))

