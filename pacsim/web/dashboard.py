"""``pacsim dashboard [STORE ...]``: a local page that follows the stores as
runs write them, and its frozen copy (``--snapshot FILE.html``).

Served by Starlette on Uvicorn (the ``dashboard`` extra): a small, maintained
ASGI pair, where the page is three routes and its state one JSON document
the page fetches every second (no reload, no websocket to keep alive, and
the snapshot is the same page with the state written in).  Every asset is
inline: nothing is fetched from the internet.  The server only reads: each
look opens the store read-only (``mode=ro``) and SQLite's write-ahead log
never makes the writer wait for a reader.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pacsim._version import __version__
from pacsim.errors import ConfigError, ReplayError
from pacsim.web.dashboard_state import DashboardState
from pacsim.web.player import asset

DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8765
REPLAY_HREF = re.compile(r"^replay/(\d+)/(\d+)$")


def page(state: dict[str, Any], live: bool, replays: dict[str, str] | None = None) -> str:
    """The dashboard page: live (it polls ``state.json``) or frozen with ``state`` and the ``replays`` it links to."""
    return (asset("dashboard.html").replace("@@VERSION@@", __version__)
            .replace("@@STATE@@", _script_json(state)).replace("@@REPLAYS@@", _script_json(replays or {}))
            .replace("@@LIVE@@", "true" if live else "false"))


def _script_json(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` element (no ``</script>`` can end it early)."""
    return json.dumps(value).replace("</", "<\\/")


def replay_html(stores: Sequence[Path], store: int, game: int) -> str:
    """The replay page (the HTML player) of game ``game`` of the ``store``-th store."""
    from pacsim.runner.store import load_saved_game
    from pacsim.web.player import replay_page

    if not 0 <= store < len(stores):
        raise ReplayError(f"no store {store}")
    return replay_page(load_saved_game(stores[store], game))


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


def application(stores: Sequence[str | Path]) -> Any:
    """The Starlette application serving the page, its state and the replays (read-only: GET only)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    paths = [Path(store) for store in stores]
    dashboard = DashboardState(paths)

    def home(request: Request) -> Response:
        return HTMLResponse(page(dashboard.state(), live=True))

    def state(request: Request) -> Response:  # a plain function: Starlette runs it in a thread, off the event loop
        return JSONResponse(dashboard.state())

    def replay(request: Request) -> Response:
        try:
            return HTMLResponse(replay_html(paths, request.path_params["store"], request.path_params["game"]))
        except (ReplayError, ConfigError) as error:
            return HTMLResponse(f"<p>{error}</p>", status_code=404)

    return Starlette(routes=[Route("/", home), Route("/state.json", state),
                             Route("/replay/{store:int}/{game:int}", replay)])


def serve(stores: Sequence[str | Path], host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> None:
    import uvicorn

    uvicorn.run(application(stores), host=host, port=port, log_level="warning")
