"""Notes agents say on stderr once per process: a search falling back to
Python, an option read under its old name.

A run's coordinator says them once, before its games (it builds each agent
once to check the experiment); its workers build and play inside
:func:`notes_said` and say nothing, rather than once per worker process or
thread.  What was said is kept per process: a note is about the process's
code and environment, which every game of the process shares.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_said: set[str] = set()
_quiet = threading.local()


def say_once(message: str) -> None:
    """Print ``message`` on stderr unless this process said it already or
    this thread is inside :func:`notes_said`."""
    if message not in _said and not getattr(_quiet, "on", False):
        _said.add(message)
        print(message, file=sys.stderr)


@contextmanager
def notes_said() -> Iterator[None]:
    """Within this block, in this thread, notes are not said: a run's
    coordinator has said them already, once for the run."""
    previous = getattr(_quiet, "on", False)
    _quiet.on = True
    try:
        yield
    finally:
        _quiet.on = previous
