"""``pacsim dashboard [STORE ...]``: a local page that follows the stores as
runs write them, and its frozen copy (``--snapshot FILE.html``).

Served by Starlette on Uvicorn (the ``dashboard`` extra): a small, maintained
ASGI pair, where the page is three routes and its state one JSON document
the page fetches every second (no reload, no websocket to keep alive, and
the snapshot is the same page with the state written in).  Every asset is
inline: nothing is fetched from the internet.  The server only reads: each
look opens the store read-only (``mode=ro``) and SQLite's write-ahead log
never makes the writer wait for a reader.  It answers only to its own host
names and bounds what a client may cost it (:mod:`pacsim.web.serving`); a
replay page is built once per store and game (:class:`ReplayPages`).
"""

from __future__ import annotations

import html
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pacsim._version import __version__
from pacsim.engine.recording import SavedGame
from pacsim.errors import ConfigError, ReplayError
from pacsim.runner.row import REPLAYED_OUTCOMES
from pacsim.web.dashboard_state import DashboardState
from pacsim.web.markup import script_json
from pacsim.web.player import asset

DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8765
REPLAY_HREF = re.compile(r"^replay/(\d+)/(\d+)$")
REPLAY_PAGES_KEPT = 32
"""Replay pages a server keeps built (each at most a few MB: see :data:`pacsim.web.player.MAX_PAGE_MOVES`)."""


def page(state: dict[str, Any], live: bool, replays: dict[str, str] | None = None) -> str:
    """The dashboard page: live (it polls ``state.json``) or frozen with ``state`` and the ``replays`` it links to."""
    return (asset("dashboard.html").replace("@@VERSION@@", __version__)
            .replace("@@STATE@@", script_json(state)).replace("@@REPLAYS@@", script_json(replays or {}))
            .replace("@@LIVE@@", "true" if live else "false"))


def replay_html(stores: Sequence[Path], store: int, game: int) -> str:
    """The replay page (the HTML player) of game ``game`` of the ``store``-th store."""
    return _replay(stores, store, game)[1]


def _replay(stores: Sequence[Path], store: int, game: int) -> tuple[SavedGame, str]:
    from pacsim.runner.store import load_saved_game
    from pacsim.web.player import replay_page

    if not 0 <= store < len(stores):
        raise ReplayError(f"no store {store}")
    saved = load_saved_game(stores[store], game)
    return saved, replay_page(saved)


class ReplayPages:
    """The replay pages a server has built, kept per store and game (the
    :data:`REPLAY_PAGES_KEPT` last asked for): a page is built once, not at
    every request, and one at a time, so requests for pages cost a client
    no more than one build at once.  A store file replaced by another (its
    inode) starts afresh; a game stored as an error or a crash, which a
    re-run may replace, is never kept."""

    def __init__(self, stores: Sequence[Path]) -> None:
        self.stores = list(stores)
        self._pages: OrderedDict[tuple[int, int, tuple[int, int] | None], str] = OrderedDict()
        self._lock = threading.Lock()

    def page(self, store: int, game: int) -> str:
        with self._lock:
            key = (store, game, _identity(self.stores[store]) if 0 <= store < len(self.stores) else None)
            if key in self._pages:
                self._pages.move_to_end(key)
                return self._pages[key]
            saved, text = _replay(self.stores, store, game)
            if saved.outcome not in REPLAYED_OUTCOMES:
                self._pages[key] = text
                while len(self._pages) > REPLAY_PAGES_KEPT:
                    self._pages.popitem(last=False)
            return text


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_dev, status.st_ino


def linked_replays(state: dict[str, Any]) -> list[str]:
    """Every replay link in a state, once."""
    found: dict[str, None] = {}
    for store in state["stores"]:
        for run in store["runs"]:
            for table in run["tables"]:
                for row in table["rows"]:
                    for value in row:
                        if isinstance(value, dict) and REPLAY_HREF.match(value["href"]):
                            found[value["href"]] = None
    return list(found)


@dataclass(frozen=True)
class Snapshot:
    """What a snapshot holds: the stores' state at one time, and the replays inside."""

    at: str
    stores: int
    runs: int
    games: int
    replays: int

    def words(self, path: str | Path) -> str:
        return (f"wrote {path}: the dashboard as of {self.at}, frozen: {self.stores} store{_s(self.stores)}, "
                f"{self.runs} run{_s(self.runs)}, {self.games:,} game{_s(self.games)}, with the {self.replays} "
                f"replay{_s(self.replays)} it links to inside (one file: it opens offline)")


def _s(count: int) -> str:
    return "" if count == 1 else "s"


def write_snapshot(stores: Sequence[str | Path], path: str | Path) -> Snapshot:
    """The page frozen now, with the replays it links to, as one file; returns what it holds."""
    from pacsim.files import write_atomically

    paths = [Path(store) for store in stores]
    state = DashboardState(paths).state()
    replays = {}
    for href in linked_replays(state):
        match = REPLAY_HREF.match(href)
        assert match is not None
        replays[href] = replay_html(paths, int(match[1]), int(match[2]))
    write_atomically(path, page(state, live=False, replays=replays), "the snapshot")
    runs = [run for store in state["stores"] for run in store["runs"]]
    return Snapshot(at=state["at"], stores=len(paths), runs=len(runs), games=sum(run["done"] for run in runs),
                    replays=len(replays))


def application(stores: Sequence[str | Path], host: str = DEFAULT_HOST) -> Any:
    """The Starlette application serving the page, its state and the replays (read-only: GET only),
    answering only to ``host``'s names (see :mod:`pacsim.web.serving`)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    from pacsim.web.serving import guarded

    paths = [Path(store) for store in stores]
    dashboard = DashboardState(paths)
    replays = ReplayPages(paths)

    def home(request: Request) -> Response:
        return HTMLResponse(page(dashboard.state(), live=True))

    def state(request: Request) -> Response:  # a plain function: Starlette runs it in a thread, off the event loop
        return JSONResponse(dashboard.state())

    def replay(request: Request) -> Response:
        try:
            return HTMLResponse(replays.page(request.path_params["store"], request.path_params["game"]))
        except (ReplayError, ConfigError) as error:  # its text names the store's file: text, never markup
            return HTMLResponse(f"<p>{html.escape(str(error))}</p>", status_code=404)

    return guarded(Starlette(routes=[Route("/", home), Route("/state.json", state),
                                     Route("/replay/{store:int}/{game:int}", replay)]), host)


def serve(stores: Sequence[str | Path], host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> None:
    import uvicorn

    from pacsim.web.serving import server_config

    uvicorn.Server(server_config(application(stores, host), host=host, port=port)).run()
