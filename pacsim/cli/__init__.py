"""The ``pacsim`` command.  Each subcommand is a module with
``add_arguments(parser)`` and ``run(args)``; user mistakes become one line
on stderr and exit status 2.

Only the module of the command being run is imported (``pacsim --help``
imports none): a command's start-up costs what that command needs.
"""

from __future__ import annotations

import argparse
import importlib
import re
import shlex
import signal
import sys
import threading
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn, TextIO

from pacsim._version import __version__
from pacsim.errors import PacsimError, did_you_mean
from pacsim.files import inputs_guarded

COMMANDS = {
    "play": "play games (in a window when a display is available); the default command",
    "layouts": "list shipped layouts, check a layout file or generate a maze",
    "analyze": "search a position and show each action's value",
    "tree": "the tree a search visited at a position, as a page that expands on click (or JSON, DOT)",
    "exercises": "a sheet of predict-then-check tree exercises (pages, answer key as JSON and CSV)",
    "replay": "replay a recorded game (JSON record or results store), or list a store's games",
    "run": "run an experiment file (all cores, resumable) and print its summary",
    "report": "summarize a results store",
    "reproduce": "run and report the optimism/pessimism table in one go",
    "lesson-map": "map a maze by how often each Pacman is caught from each start cell (PNG and HTML)",
    "experiments": "list the shipped experiments (run one with: pacsim run NAME)",
    "export": "export a results store to Parquet or CSV",
    "dashboard": "a live local web page of results stores as runs write them (or a frozen copy)",
    "bench": "measure start-up, successor and search rates, batch throughput, memory",
    "agents": "list the agents (built-in and installed), or one agent's options",
    "probcut": "fit a ChanceProbCut model for a Star2 Pacman",
    "compare": "two Pacmen (or ghosts) on the same seeds until a sequential test (SPRT) decides (resumable)",
    "tournament": "play entrants (files or folders, one per student) against ghosts, rate them, print the leaderboard; --game capture: a class's capture contest",
    "train": "train a learning Pacman (approxq, qlearn) into a weights file",
    "capture": "capture the flag: two teams of two (course team files or pacsim's), as the course's capture.py",
}
"""Every subcommand and its line in ``pacsim --help``."""
COMMAND_MODULES = {"bench": "pacsim.bench.command"}
"""Commands whose module is not ``pacsim.cli.NAME``: ``pacsim bench`` lives
with the benchmark, which stands above this package (it measures the
commands by running :func:`main`)."""
DEFAULT_COMMAND = "play"
"""The command of ``pacsim -p ReflexAgent -l testClassic`` (CS188's habit: options, no command)."""
TOP_LEVEL_OPTIONS = ("-h", "--help", "--version")
USER_ERROR = 2
INTERRUPTED = 130
"""Exit status after Ctrl-C: 128 + SIGINT, as a shell reports it."""


class _Parser(argparse.ArgumentParser):
    """argparse with pacsim's one-line errors, naming the nearest known
    choice or option to a mistyped one."""

    command_parser: argparse.ArgumentParser | None = None
    """The chosen command's parser: its options are those an unrecognized one is compared with."""

    def error(self, message: str) -> NoReturn:  # argparse's own exit code is 2 too; keep it to one line
        self.exit(USER_ERROR, f"pacsim: error: {message}{self._suggestion(message)}\n")

    def _suggestion(self, message: str) -> str:
        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
        if choice:
            return did_you_mean(choice.group(1), re.findall(r"'([^']*)'", choice.group(2)))
        unknown = re.match(r"unrecognized arguments: (\S+)", message)
        if unknown and unknown.group(1).startswith("-"):
            options = [*self._option_string_actions, *(self.command_parser._option_string_actions
                                                       if self.command_parser else ())]
            return did_you_mean(unknown.group(1).split("=")[0], options)
        return ""


def command_of(argv: list[str]) -> str | None:
    """The command ``argv`` runs: its first word when that names one, play
    when it starts with an option that is not the top level's (CS188's
    ``pacman.py -p ReflexAgent``), else None (``--help``, or a mistyped command)."""
    if not argv:
        return None
    first = argv[0]
    if first in COMMANDS:
        return first
    option = first.split("=")[0]
    top_level = any(known.startswith(option) for known in TOP_LEVEL_OPTIONS if option.startswith("--"))
    if first.startswith("-") and option not in TOP_LEVEL_OPTIONS and not top_level:  # --vers: argparse's abbreviation
        return DEFAULT_COMMAND
    return None


def build_parser(commands: Collection[str] = tuple(COMMANDS)) -> argparse.ArgumentParser:
    """The parser of ``pacsim``, with every option of ``commands`` (the
    others have their summary line only, enough for ``pacsim --help``)."""
    parser = _Parser(prog="pacsim", description="A Pacman testbed for game-tree search. "
                                                "With options and no command, plays (as CS188's pacman.py does).")
    parser.add_argument("--version", action="version", version=f"pacsim {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")
    for name, summary in COMMANDS.items():
        subparser = subparsers.add_parser(name, help=summary, description=summary)
        if name in commands:
            module = importlib.import_module(command_module(name))
            module.add_arguments(subparser)
            add_common_options(subparser)
            if hasattr(module, "run"):  # else its own subcommands set it (probcut fit)
                subparser.set_defaults(run=module.run)
            parser.command_parser = subparser
    return parser


def command_module(name: str) -> str:
    """The module of a command: its ``add_arguments(parser)`` and ``run(args)``."""
    return COMMAND_MODULES.get(name, f"pacsim.cli.{name.replace('-', '_')}")  # lesson-map: lesson_map


def add_common_options(parser: argparse.ArgumentParser) -> None:
    """``-q`` and ``--debug`` on every command, where the command has none of its own."""
    from pacsim.cli.common import add_debug_option

    if "--quiet" not in parser._option_string_actions:
        parser.add_argument("-q", "--quiet", action="store_true", help="print only the results: no notes, no progress")
    if "--debug" not in parser._option_string_actions:
        add_debug_option(parser)


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
    command = command_of(argv)
    if command == DEFAULT_COMMAND and argv[0] != DEFAULT_COMMAND:
        argv = [DEFAULT_COMMAND, *argv]
    parser = build_parser([command] if command else [])
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit:  # --help, --version, or a usage error already printed
        return exit.code if isinstance(exit.code, int) else USER_ERROR
    try:
        with _interrupts_heard(), _output_kept_open(), inputs_guarded():  # no output of the command may replace a file it read
            return args.run(args) or 0
    except PacsimError as error:
        print(f"pacsim: error: {error}", file=sys.stderr)
        return USER_ERROR
    except _run_interrupted() as interrupted:
        print(f"pacsim: interrupted: {interrupted}; resume with: {shlex.join(['pacsim', *argv])}", file=sys.stderr)
        return INTERRUPTED
    except KeyboardInterrupt as interrupted:  # a command may say what it had saved (see cli/tournament.py)
        print(f"pacsim: interrupted{f': {interrupted}' if str(interrupted) else ''}", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        return 0


@contextmanager
def _interrupts_heard() -> Iterator[None]:
    """A Ctrl-C (``SIGINT``) stops every command from its first line.

    A shell starts a background job (``pacsim ... &`` in a script) with
    ``SIGINT`` ignored, and Python then keeps ignoring it; but a run installs
    its own handler when its games start, so a Ctrl-C sent during the
    start-up (checking a tournament's entrants) was lost while one sent a
    second later stopped the run.  The same signal means the same at every
    step: it is heard throughout, and the disposition is put back after."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) != signal.SIG_IGN:
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_interrupted() -> tuple[type[BaseException], ...]:
    """The runner's interruption, when the runner was imported: the except
    clause asks only as an exception passes, so a command that never ran
    an experiment does not import the runner to catch it."""
    execute = sys.modules.get("pacsim.runner.execute")
    return (execute.RunInterrupted,) if execute is not None else ()


def entry() -> None:
    sys.exit(main())
