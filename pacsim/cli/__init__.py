"""The ``pacsim`` command.  Each subcommand is a module with ``add_parser``
and ``run``; user mistakes become one line on stderr and exit status 2."""

from __future__ import annotations

import argparse
import importlib
import sys

from pacsim import __version__
from pacsim.errors import PacsimError

COMMANDS = ["play", "layouts", "analyze", "replay", "run", "report", "reproduce", "export", "bench", "agents", "probcut"]
USER_ERROR = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse's own exit code is 2 too; keep it to one line
        self.exit(USER_ERROR, f"pacsim: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pacsim", description="A Pacman testbed for game-tree search.")
    parser.add_argument("--version", action="version", version=f"pacsim {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"pacsim.cli.{name}")
        except ModuleNotFoundError as error:
            if error.name == f"pacsim.cli.{name}":
                continue  # a command not built yet
            raise
        module.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit:  # --help, --version, or a usage error already printed
        return exit.code if isinstance(exit.code, int) else USER_ERROR
    try:
        return args.run(args) or 0
    except PacsimError as error:
        print(f"pacsim: error: {error}", file=sys.stderr)
        return USER_ERROR
    except KeyboardInterrupt:
        print("pacsim: interrupted", file=sys.stderr)
        return USER_ERROR
    except BrokenPipeError:
        return 0


def entry() -> None:
    sys.exit(main())
