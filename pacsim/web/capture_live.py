"""``pacsim capture --browser``: a capture game shown in the capture page while it is played.

The same server as ``pacsim play --browser`` (:mod:`pacsim.web.live`,
hardened by :mod:`pacsim.web.serving`): the page polls
``frames.json?since=N`` for the frames a :class:`~pacsim.engine.capture.frames.FrameFeed`
has made, and, for a keyboard team, posts each key to ``key`` as
``"SLOT ACTION"`` (slot 0: the team's first agent, 1: its second) with the
token the server put in the page; only that page can press a key.
"""

from __future__ import annotations

import secrets
import sys
import threading
from typing import Any

from pacsim.engine.capture.frames import FrameFeed
from pacsim.web.live import application, listening_socket, serve_until_read


class CapturePageState:
    """What the server's requests read: the feed, and the keyboard team to press keys for (if any)."""

    def __init__(self, feed: FrameFeed, keyboard: Any = None) -> None:
        self.feed, self.keyboard = feed, keyboard
        self.read_to_end = threading.Event()
        """Set when the page has read the last frame: the server may stop."""

    def since(self, start: int) -> dict[str, Any]:
        frames, done = self.feed.since(start)
        error = self.feed.error
        if done:
            self.read_to_end.set()
        return {"frames": frames, "done": done, "outcome": self.feed.outcome(),
                "error": None if error is None else str(error)}

    def press(self, body: str) -> bool:
        """A key from the page, ``"SLOT ACTION"``; False for anything else (or without a keyboard team)."""
        slot, _, action = body.partition(" ")
        return self.keyboard is not None and slot in ("0", "1") and self.keyboard.press(int(slot), action)


def watch_in_browser(feed: FrameFeed, board: dict[str, Any], heading: str, *, host: str, port: int,
                     keyboard: Any = None, keyboard_side: str | None = None) -> None:
    """Serve the page of ``feed``'s game at ``http://host:port/`` (its URL the first line printed) until
    the page has shown its end; a keyboard team takes its keys from the page."""
    from pacsim.web.capture_page import capture_page
    from pacsim.web.serving import exposure_warning

    key_token = secrets.token_urlsafe(24)
    state = CapturePageState(feed, keyboard)
    page_text = capture_page(board, [], heading, live=True, keyboard=keyboard_side, key_token=key_token)
    bound = listening_socket(host, port)
    shown_host = f"[{host}]" if ":" in host else host
    print(f"http://{shown_host}:{bound.getsockname()[1]}/", flush=True)
    warning = exposure_warning(host, "open the page" + (" and steer a team" if keyboard is not None else ""))
    if warning:
        print(warning, file=sys.stderr, flush=True)
    if keyboard is not None:
        keyboard.gone = feed.stopped.is_set
    serve_until_read(application(state, page_text, key_token, host), state.read_to_end, feed.stopped, bound,
                     feed.thread, lambda line: print(line, flush=True))
