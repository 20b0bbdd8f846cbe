"""The ``pacsim`` command.  Each subcommand is a module with ``add_parser``
and ``run``; user mistakes become one line on stderr and exit status 2."""

from __future__ import annotations

import argparse
import importlib
import shlex
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn, TextIO

from pacsim._version import __version__
from pacsim.errors import PacsimError
from pacsim.files import inputs_guarded
from pacsim.runner.execute import RunInterrupted

COMMANDS = ["play", "layouts", "analyze", "replay", "run", "report", "reproduce", "experiments", "export", "bench", "agents", "probcut",
            "train", "compare"]
USER_ERROR = 2
INTERRUPTED = 130
"""Exit status after Ctrl-C: 128 + SIGINT, as a shell reports it."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse's own exit code is 2 too; keep it to one line
        self.exit(USER_ERROR, f"pacsim: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pacsim", description="A Pacman testbed for game-tree search.")
    parser.add_argument("--version", action="version", version=f"pacsim {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in COMMANDS:
        importlib.import_module(f"pacsim.cli.{name}").add_parser(subparsers)
    return parser


class _KeptOpen:
    """A stream whose ``close`` does nothing: agents and plugins run in this
    process, and one that closes ``sys.stdout`` must not silence (or crash)
    pacsim's own output after it."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def close(self) -> None:
        pass

    @property
    def closed(self) -> bool:
        return False

    def __getattr__(self, name: str) -> Any:  # write, flush, isatty, fileno, encoding, ...
        return getattr(self._stream, name)


@contextmanager
def _output_kept_open() -> Iterator[None]:
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _KeptOpen(sys.stdout), _KeptOpen(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = streams


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit:  # --help, --version, or a usage error already printed
        return exit.code if isinstance(exit.code, int) else USER_ERROR
    try:
        with _output_kept_open(), inputs_guarded():  # no output of the command may replace a file it read
            return args.run(args) or 0
    except PacsimError as error:
        print(f"pacsim: error: {error}", file=sys.stderr)
        return USER_ERROR
    except RunInterrupted as interrupted:
        print(f"pacsim: interrupted: {interrupted}; resume with: {shlex.join(['pacsim', *argv])}", file=sys.stderr)
        return INTERRUPTED
    except KeyboardInterrupt:
        print("pacsim: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        return 0


def entry() -> None:
    sys.exit(main())
