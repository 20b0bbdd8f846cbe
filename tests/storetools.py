"""Shared by the tests that watch a results store fill up while a run goes on."""

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path


def wait_for_rows(store: Path, at_least: int, running: Callable[[], str | None], seconds: float = 30.0) -> int:
    """Poll ``store`` until it holds ``at_least`` games.  ``running()`` returns
    None while the run goes on, else a message why it ended too early."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ended = running()
        assert ended is None, ended
        if store.exists():
            try:
                with sqlite3.connect(store, timeout=1.0) as connection:
                    count = connection.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            except sqlite3.OperationalError:  # the schema is not there yet
                count = 0
            if count >= at_least:
                return count
        time.sleep(0.02)
    raise AssertionError(f"no {at_least} rows in {store} after {seconds}s")
