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
from pacsim.web.live import from_the_page, listening_socket, serve_until_read


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


def application(state: CapturePageState, page_text: str, key_token: str, host: str) -> Any:
    """The Starlette application: the page, its frames and its keys, answering only to ``host``'s names."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    from pacsim.web.serving import guarded

    def home(request: Request) -> Response:
        return HTMLResponse(page_text)

    def frames(request: Request) -> Response:
        try:
            start = max(0, int(request.query_params.get("since", "0")))
        except ValueError:
            return JSONResponse({"error": "since: a number of frames"}, status_code=400)
        return JSONResponse(state.since(start))

    async def key(request: Request) -> Response:
        if not from_the_page(request.headers, request.url.scheme, key_token):
            return Response(status_code=403)
        pressed = (await request.body()).decode("utf-8", "replace").strip()
        return Response(status_code=204 if state.press(pressed) else 400)

    return guarded(Starlette(routes=[Route("/", home), Route("/frames.json", frames),
                                     Route("/key", key, methods=["POST"])]), host)


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
