"""``pacsim play --browser``: a game shown in the HTML replay's page while it
is played, served by the dashboard's Starlette on Uvicorn (docs/web.md).

The game runs in a background thread; each position the player shows
becomes a frame of :mod:`pacsim.web.frames`'s format, so the replay's
renderer draws it.  The page polls ``frames.json?since=N`` for the frames
after the N it has (no websocket to keep alive) and, for a keyboard Pacman,
posts each arrow or WASD key to ``key`` (with the token the server put in
the page: no other page can press a key, see :func:`from_the_page`); the
agent takes them from a thread-safe queue.  The server stops once the page has read the last frame,
or on Ctrl-C.
"""

from __future__ import annotations

import queue
import secrets
import socket
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from pacsim.engine.game import GameRecord, PlayerStopped, play_game
from pacsim.engine.layout import ACTIONS, Layout
from pacsim.engine.state import GameState, initial_state
from pacsim.web.frames import ActionValues, frame, game_data, values_row

KEY_WAIT_SECONDS = 0.05
"""How often a keyboard Pacman waiting for the first key looks whether the page has gone."""


class PageGone(PlayerStopped):
    """The server stopped (Ctrl-C) while the game was still being played."""


@dataclass
class LiveGame:
    """What the game thread has played so far, read by the server's requests (under ``lock``)."""

    frames: list[list[int]] = field(default_factory=list)
    values: list[list[list[Any]] | None] = field(default_factory=list)
    outcome: str | None = None
    record: GameRecord | None = None
    error: BaseException | None = None
    finished: threading.Event = field(default_factory=threading.Event)
    """Set when the game ended (or failed): its last frame is in ``frames``."""
    read_to_end: threading.Event = field(default_factory=threading.Event)
    """Set when the page has read the last frame: the server may stop."""
    stopped: threading.Event = field(default_factory=threading.Event)
    """Set when the server stops first: the game thread gives up."""
    page_opened: threading.Event = field(default_factory=threading.Event)
    """Set at the page's first look (its first poll for frames): the game waits for it after its start, so a
    searching Pacman does not play the game out before anyone sees it and the page opens at the start."""
    keys: queue.Queue[str] = field(default_factory=queue.Queue)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, frame_numbers: list[int], values: ActionValues | None) -> None:
        row = values_row(values)
        with self.lock:
            self.frames.append(frame_numbers)
            self.values.append(row)

    def since(self, start: int) -> dict[str, Any]:
        """The frames after the first ``start``, and whether the game is over (then the page has it all)."""
        self.page_opened.set()
        with self.lock:
            done = self.finished.is_set()
            reply = {"frames": self.frames[start:], "values": self.values[start:], "done": done,
                     "outcome": self.outcome, "error": None if self.error is None else str(self.error)}
            if done:
                self.read_to_end.set()
        return reply

    def press(self, key: str) -> bool:
        """A direction pressed in the page; False for anything else."""
        if key not in ACTIONS:
            return False
        self.keys.put(key)
        return True

    def next_key(self) -> str | None:
        """The next direction pressed, if any (the agent holds the last one meanwhile)."""
        try:
            return self.keys.get_nowait()
        except queue.Empty:
            return None

    def wait_for_page(self) -> None:
        """Block until the page has looked once, or the server stops."""
        while not self.page_opened.wait(KEY_WAIT_SECONDS):
            if self.stopped.is_set():
                raise PageGone("the page's server stopped before the page was opened")

    def wait_for_key(self) -> None:
        """Block until the first key (the game starts when the person does), or the server stops."""
        while self.keys.empty():
            if self.stopped.wait(KEY_WAIT_SECONDS):
                raise PageGone("the page's server stopped before the game started")


def start_data(layout: Layout, num_ghosts: int, title: str, values_heading: tuple[str, ...] | None) -> dict[str, Any]:
    """The page's data before the first frame: the maze, its food, no frames yet."""
    data = game_data([initial_state(layout, num_ghosts)], title=title, outcome=None, recorded_score=None)
    data.update(frames=[], live=True, standalone=True)
    if values_heading is not None:
        data.update(valuesHeading=list(values_heading), values=[])
    return data


def game_thread(live: LiveGame, layout: Layout, agents: list[Any], *, seed: int, max_moves: int,
                move_time_limit: float | None, frame_time: float, valued: Any = None) -> threading.Thread:
    """The game, played in a daemon thread that fills ``live``, ``frame_time`` seconds between Pacman's moves."""
    from pacsim.viewer.sources import FrameMaker

    maker = FrameMaker(valued)
    previous: list[GameState] = []  # the last position shown: its frame lists what was eaten since

    def on_state(state: GameState, action: str | None) -> None:
        made = maker.next(state, action)
        if live.stopped.is_set():
            raise PageGone("the page's server stopped during the game")
        if not (state.turn == 0 or state.is_terminal):
            return
        live.add(frame(state, previous[0] if previous else None), made.values if valued is not None else None)
        first = not previous
        previous[:] = [state]
        if first:
            live.wait_for_page()  # the start is shown; the first move waits for someone to see it
        if frame_time and not state.is_terminal:
            time.sleep(frame_time)

    def play() -> None:
        try:
            live.record = play_game(layout, agents, seed=seed, max_moves=max_moves,
                                    move_time_limit=move_time_limit, on_state=on_state)
            live.outcome = live.record.outcome
        except BaseException as error:  # said by the caller, after the server stops
            live.error = error
        finally:
            live.finished.set()

    return threading.Thread(target=play, name="pacsim game", daemon=True)


class PageFeed(Protocol):
    """What a live page's server asks of the game it shows: frames from an index on, and a key pressed."""

    def since(self, start: int) -> dict[str, Any]: ...

    def press(self, key: str, /) -> bool: ...


def application(live: PageFeed, page_text: str, key_token: str, host: str = "127.0.0.1") -> Any:
    """The Starlette application: the page, its frames, and the keys it sends, answering only to
    ``host``'s names (see :mod:`pacsim.web.serving`); a key is taken only from the page itself
    (:func:`from_the_page`), which carries ``key_token``."""
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
        return JSONResponse(live.since(start))

    async def key(request: Request) -> Response:
        if not from_the_page(request.headers, request.url.scheme, key_token):
            return Response(status_code=403)
        pressed = (await request.body()).decode("utf-8", "replace").strip()
        return Response(status_code=204 if live.press(pressed) else 400)

    return guarded(Starlette(routes=[Route("/", home), Route("/frames.json", frames),
                                     Route("/key", key, methods=["POST"])]), host)


KEY_TOKEN_HEADER = "X-Pacsim-Key-Token"
"""The header the page sends its token in: a header of its own, which no form can send and no other site's
script can without the server's leave (a CORS preflight this server never grants)."""


def from_the_page(headers: Mapping[str, str], scheme: str, key_token: str) -> bool:
    """Whether a key request comes from the page this server gave out: sent by a page of this
    server's own origin (``Origin``, which browsers send with every POST) and carrying the
    page's token.  Another site's form or script, open in the same browser, has neither."""
    origin_ok = headers.get("origin") == f"{scheme}://{headers.get('host', '')}"
    return origin_ok and secrets.compare_digest(headers.get(KEY_TOKEN_HEADER.lower(), ""), key_token)


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (port 0: any free one), so the URL printed is the one served."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    bound = socket.socket(family, socket.SOCK_STREAM)
    bound.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    bound.bind((host, port))
    return bound


def serve_game(live: LiveGame, page_text: str, key_token: str, bound: socket.socket, host: str,
               thread: threading.Thread, say: Callable[[str], None]) -> None:
    """Serve the page until the game is over and the page has read its end (or Ctrl-C), then say why it stopped."""
    serve_until_read(application(live, page_text, key_token, host), live.read_to_end, live.stopped, bound, thread, say)


def serve_until_read(app: Any, read_to_end: threading.Event, stopped: threading.Event, bound: socket.socket,
                     thread: threading.Thread, say: Callable[[str], None]) -> None:
    """Serve ``app`` on ``bound`` while ``thread`` plays the game, until ``read_to_end`` is set (the page has read
    the game's end) or Ctrl-C; then set ``stopped`` and say why the server stopped."""
    import uvicorn

    from pacsim.web.serving import server_config

    server = uvicorn.Server(server_config(app, lifespan="off"))

    def stop_when_read() -> None:
        read_to_end.wait()
        time.sleep(0.2)  # the reply carrying the last frame is on its way
        server.should_exit = True

    threading.Thread(target=stop_when_read, name="pacsim page watcher", daemon=True).start()
    thread.start()
    try:
        server.run(sockets=[bound])
    finally:
        stopped.set()
    if read_to_end.is_set():
        say("pacsim: the page has shown the game's end; server stopped")
        return
    say("pacsim: server stopped before the game ended")
    raise KeyboardInterrupt


def play_in_browser(layout: Layout, agents: list[Any], *, seed: int, max_moves: int, move_time_limit: float | None,
                    frame_time: float, show_values: bool, host: str, port: int, heading: str) -> GameRecord:
    """One game played while the page at ``http://host:port/`` shows it (its URL the first line printed);
    a keyboard Pacman takes its moves from the page's keys."""
    from pacsim.agents.api import ValuingAgent
    from pacsim.agents.simple import KeyboardPacman
    from pacsim.viewer.style import values_heading
    from pacsim.web.player import page
    from pacsim.web.serving import exposure_warning

    pacman = agents[0]
    valued = pacman if show_values and isinstance(pacman, ValuingAgent) else None
    live = LiveGame()
    if isinstance(pacman, KeyboardPacman):
        pacman.keys, pacman.wait_for_key = live.next_key, live.wait_for_key
    data = start_data(layout, len(agents) - 1, f"pacsim play: {layout.name}",
                      None if valued is None else values_heading(valued))
    data["keyboard"] = isinstance(pacman, KeyboardPacman)
    key_token = data["keyToken"] = secrets.token_urlsafe(24)  # this page's, for its keys (see from_the_page)
    bound = listening_socket(host, port)
    shown_host = f"[{host}]" if ":" in host else host
    print(f"http://{shown_host}:{bound.getsockname()[1]}/", flush=True)
    warning = exposure_warning(host, "open the page" + (" and steer Pacman" if data["keyboard"] else ""))
    if warning:
        print(warning, file=sys.stderr, flush=True)
    thread = game_thread(live, layout, agents, seed=seed, max_moves=max_moves, move_time_limit=move_time_limit,
                         frame_time=frame_time, valued=valued)
    serve_game(live, page(data, heading), key_token, bound, host, thread, lambda line: print(line, flush=True))
    if live.error is not None:
        raise live.error
    assert live.record is not None
    return live.record
