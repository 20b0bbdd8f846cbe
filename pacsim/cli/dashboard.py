"""``pacsim dashboard [STORE ...]``: a live local page of results stores (see docs/dashboard.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pacsim.cli.common import require_server
from pacsim.errors import ConfigError
from pacsim.files import check_output


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("stores", metavar="STORE", nargs="*",
                        help="results stores (.sqlite) to follow (default: every .sqlite under results/)")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8765, help="the port to listen on (default 8765)")
    parser.add_argument("--snapshot", metavar="FILE.html", default=None,
                        help="write the page as it is now, frozen and self-contained (with the replays it links to), and stop")


def stores_of(args: argparse.Namespace) -> list[Path]:
    """The stores asked for, each checked now (a missing or foreign file is one line, not a page of errors); a
    capture contest's store is taken as it is (the page shows its standings)."""
    from pacsim.runner.contest_store import read_contests
    from pacsim.runner.store import open_existing

    stores = [Path(store) for store in args.stores] or sorted(Path("results").glob("**/*.sqlite"))
    if not stores:
        raise ConfigError("dashboard: which results stores? (pacsim dashboard STORE ...; none under results/)")
    for store in stores:
        if read_contests(store) is None:
            open_existing(store).close()
    return stores


def run(args: argparse.Namespace) -> int:
    stores = stores_of(args)
    if args.snapshot:
        from pacsim.web.dashboard import write_snapshot

        check_output(args.snapshot, "--snapshot", inputs=[str(store) for store in stores])
        snapshot = write_snapshot(stores, args.snapshot)
        if not args.quiet:
            print(snapshot.words(args.snapshot))
        return 0
    if not 0 < args.port < 65536:
        raise ConfigError(f"--port {args.port}: a port is 1 to 65535")
    require_server("dashboard", " (--snapshot needs neither)")
    from pacsim.web.dashboard import serve
    from pacsim.web.serving import exposure_warning, host_name

    warning = exposure_warning(args.host, "read every store it follows")
    if warning:
        print(warning, file=sys.stderr, flush=True)
    if not args.quiet:
        print(f"pacsim dashboard: http://{host_name(args.host)}:{args.port}/ following {', '.join(map(str, stores))} "
              "(read-only; Ctrl-C stops it)", flush=True)
    serve(stores, args.host, args.port)
    return 0
