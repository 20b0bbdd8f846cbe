"""Where results came from, as pytest-benchmark records a run's ``machine_info`` and ``commit_info``.

For a stored game (``pacsim/runner``): :class:`RunProvenance` is found once
per run by the coordinator (a git call costs milliseconds) and travels in
every task; :class:`Machine` is asked by the worker that plays the game (on
Dask, another computer).  ``pacsim bench`` records the same facts.
"""

from __future__ import annotations

import contextlib
import os
import platform
import signal
import subprocess
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

PACSIM_FOLDER = Path(__file__).resolve().parent
"""The ``pacsim`` package folder: its checkout, if any, is the one whose commit is recorded."""

GIT_SECONDS = 5.0
"""How long a git call may take before the commit is recorded as unknown."""


@dataclass(frozen=True)
class RunProvenance:
    """What every row of a run records about the code that played it."""

    git_commit: str | None = None
    """pacsim's commit, ``-dirty`` appended when its files differ from it; None outside a git checkout."""

    @classmethod
    def here(cls) -> RunProvenance:
        return cls(git_commit=git_commit(PACSIM_FOLDER))


@dataclass(frozen=True)
class Machine:
    """The computer and Python that play a game."""

    hostname: str
    os: str
    arch: str
    cores: int | None
    python_version: str
    numba_version: str | None
    """The worker's numba (the one its kernel searches with); None without numba."""

    @classmethod
    def here(cls) -> Machine:
        """This process's machine (microseconds: ``platform`` and :func:`installed_version` keep what they learn)."""
        return cls(hostname=platform.node(), os=platform.platform(), arch=platform.machine(),
                   cores=os.cpu_count(), python_version=platform.python_version(),
                   numba_version=installed_version("numba"))


def git_commit(package: Path) -> str | None:
    """The commit of the git checkout whose top folder holds ``package``
    (not of some repository it happens to be installed inside), with
    ``-dirty`` when tracked files under ``package`` differ from it; None when
    there is no such checkout or git is missing, slow or failing."""
    found = _git(package, "rev-parse", "--show-toplevel", "HEAD")
    if found is None:
        return None
    top, _, commit = found.partition("\n")
    if Path(top).resolve() != package.parent or not commit:
        return None
    changed = _git(package, "status", "--porcelain", "--untracked-files=no", "--", ".")
    return f"{commit}-dirty" if changed else commit


def _git(folder: Path, *arguments: str) -> str | None:
    """git's output (stripped) in ``folder``, or None when it fails or takes
    over :data:`GIT_SECONDS`.  It must never disturb the user's own git: no
    optional index lock, no ``GIT_*`` variables redirecting it to another
    repository, no terminal; on a timeout its whole process group is killed,
    so that a hook it started cannot hold the pipe open."""
    environment = {name: value for name, value in os.environ.items() if not name.startswith("GIT_")}
    try:
        process = subprocess.Popen(["git", "--no-optional-locks", *arguments], cwd=folder, env=environment,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                   text=True, start_new_session=True)
    except OSError:  # no git
        return None
    try:
        output, _ = process.communicate(timeout=GIT_SECONDS)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        return None
    return output.strip() if process.returncode == 0 else None


def _kill_group(process: subprocess.Popen) -> None:
    killpg = getattr(os, "killpg", None)  # POSIX; elsewhere only git itself
    with contextlib.suppress(OSError):  # already gone
        killpg(process.pid, signal.SIGKILL) if killpg else process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.communicate(timeout=1)


def short_commit(commit: str) -> str:
    """A :func:`git_commit` as people read it: 12 hex digits (and ``-dirty``)."""
    return commit[:12] + ("-dirty" if commit.endswith("-dirty") else "")


@cache
def installed_version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None
