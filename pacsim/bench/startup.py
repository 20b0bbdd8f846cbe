"""Start-up: how long pacsim's commands take as whole processes, as ratios.

Each command runs in a fresh interpreter, in turn with ``python -c "import
numpy"`` (the yardstick: a machine's speed and load cancel out of a ratio
measured pair by pair), and the figure is the median of the ratios of their
CPU seconds (user + system, the children's own accounting: steadier than
the wall clock on a shared machine).  ``--help`` and every command's
``--help`` should be within :data:`HELP_TARGET` of the yardstick.

CS188's commands (``-p ReflexAgent -l testClassic``) need the course's
files: with a course folder (``pacsim bench --course DIR``, the folder of
the course's ``pacman.py``) they run there, against the yardstick and
against the course's own ``python pacman.py`` (with the same options, or
the course's agent where pacsim plays its built-in one: ``-p minimax``
against the course's ``-p MinimaxAgent``).

Every process runs with its bytecode cached, as an installed pacsim and a
course folder run (``PYTHONDONTWRITEBYTECODE`` would compile every module of
every process: pacsim's hundred and the course's dozen alike), the bytecode
kept in a folder of the run's own (``PYTHONPYCACHEPREFIX``), not beside the sources.
"""

from __future__ import annotations

import atexit
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pacsim.bench.report import Report

YARDSTICK = ("-c", "import numpy")
HELP_TARGET = 2.0
"""A ``--help`` within twice the time of importing numpy."""
HELP_COMMANDS = ("", "play", "layouts", "analyze", "tree", "replay", "run", "report", "reproduce", "lesson-map",
                 "experiments", "export", "dashboard", "bench", "agents", "probcut", "compare", "tournament", "train",
                 "capture", "exercises")
"""The commands whose ``--help`` is measured ("": ``pacsim --help``): every command."""
PLAY_ONE = ("play", "-n", "1", "-q", "-l", "smallClassic", "--seed", "1")
COURSE_MINIMAX = ("-l", "minimaxClassic", "-a", "depth=4", "-q", "-n", "50")
COURSE_COMMANDS: dict[str, tuple[Any, ...]] = {
    "ReflexAgent testClassic": (("-p", "ReflexAgent", "-l", "testClassic", "-q"), 1.5),
    "built-in minimax against MinimaxAgent, depth 4, 50 games": (("-p", "minimax", *COURSE_MINIMAX), 1 / 30,
                                                                 ("-p", "MinimaxAgent", *COURSE_MINIMAX)),
    "the course's MinimaxAgent in pacsim, depth 4, 50 games": (("-p", "MinimaxAgent", *COURSE_MINIMAX), None),
}
"""CS188's commands: pacsim's options, the target of pacsim's time over the
course's (within 1.5x; 30 times faster; None: a figure without a target) and,
where they differ, the course's options (pacsim's built-in minimax against
the course's ``MinimaxAgent``, which a student writes)."""
QUICK_GAMES = ("-n", "5")
"""--quick: the 50 games of the long course command cut to 5."""


def startup_figures(report: Report, repeats: int, course: Path | None = None, quick: bool = False) -> None:
    """The start-up group: ``--help`` of every command and ``play -n 1``
    against the yardstick; CS188's commands too with a ``course`` folder."""
    group = "startup (CPU s / python -c 'import numpy')"
    try:
        for command in HELP_COMMANDS:
            arguments = (command, "--help") if command else ("--help",)
            ratio, seconds = _ratio(_pacsim(arguments), _python(YARDSTICK), repeats)
            verdict = "met" if ratio <= HELP_TARGET else "NOT met"
            report.add(group, f"pacsim {' '.join(arguments)}", ratio, "ratio",
                       f"{seconds:.2f} s; target {HELP_TARGET:g}x: {verdict}")
        ratio, seconds = _ratio(_pacsim(PLAY_ONE), _python(YARDSTICK), repeats)
        report.add(group, f"pacsim {' '.join(PLAY_ONE)}", ratio, "ratio", f"{seconds:.2f} s")
    except CommandFailed as failed:
        report.skip(f"startup: {failed}")
        return
    if course is None:
        report.skip("startup: CS188's commands need the course's files (pacsim bench --course DIR)")
        return
    if not (course / "pacman.py").is_file():
        report.skip(f"startup: {course} holds no pacman.py (the course's folder, please)")
        return
    try:
        _course_figures(report, group, repeats, course, quick)
    except CommandFailed as failed:
        report.skip(f"startup: {failed}")


KERNEL_LOAD = ("-c", "from pacsim.engine import parse_layout\n"
                      "from pacsim.engine.state import initial_state\n"
                      "from pacsim.fast.request import round_request\n"
                      "from pacsim.fast.search import run_request\n"
                      "from pacsim.search import MAX, MIN\n"
                      "state = initial_state(parse_layout('%%%%%\\n%P.G%\\n%%%%%\\n', name='load'))\n"
                      "run_request(state, round_request((MAX, MIN), 'careful', 2, state.layout.num_cells))")
"""A process that imports the kernel and answers its first search (numba's cache warm)."""
PLAY_SEARCH = ("play", "-n", "1", "-q", "-l", "smallClassic", "--seed", "1", "-p", "expectimax:depth=2,backend=fast")
PLAY_SEARCH_TARGET = 2.0
"""``play -n 1 -q`` with a depth-2 search Pacman within twice the time of importing numpy (issue 38)."""
OWN_EVALUATION = "examples/kernel_eval.py:hungry"
JIT = {"PACSIM_KERNEL": "jit"}
"""The kernel loaded from numba's cache rather than the ahead-of-time module (pacsim.fast.aot): the figures before it."""


def kernel_startup_figures(report: Report, repeats: int) -> None:
    """The kernel's load, ``play`` with a search Pacman in the kernel, and a
    user's kernel evaluation in its first process (an empty cache: it
    compiles) and its second (loaded from the disk), each against the yardstick."""
    from pacsim.fast import available
    from pacsim.shipped import shipped_path

    group = "startup (CPU s / python -c 'import numpy')"
    if available() is not None:
        report.skip(f"startup: the kernel's figures: {available()}")
        return
    file, _, function = OWN_EVALUATION.rpartition(":")
    own = ("play", "-n", "1", "-q", "-l", "smallClassic", "--seed", "1",
           "-p", f"expectimax:depth=2,eval={shipped_path(file).resolve()}:{function},backend=fast")
    try:
        ratio, seconds = _ratio(_python(KERNEL_LOAD), _python(YARDSTICK), repeats)
        report.add(group, "kernel load (first search, cache warm)", ratio, "ratio", f"{seconds:.2f} s")
        ratio, seconds = _ratio(_python(KERNEL_LOAD), _python(YARDSTICK), repeats, extra=JIT)
        report.add(group, "kernel load, numba's JIT path (PACSIM_KERNEL=jit)", ratio, "ratio", f"{seconds:.2f} s")
        ratio, seconds = _ratio(_pacsim(PLAY_SEARCH), _python(YARDSTICK), repeats)
        verdict = "met" if ratio <= PLAY_SEARCH_TARGET else "NOT met"
        report.add(group, f"pacsim {' '.join(PLAY_SEARCH)}", ratio, "ratio",
                   f"{seconds:.2f} s; target {PLAY_SEARCH_TARGET:g}x: {verdict}")
        ratio, seconds = _ratio(_pacsim(PLAY_SEARCH), _python(YARDSTICK), repeats, extra=JIT)
        report.add(group, "the same play, numba's JIT path (PACSIM_KERNEL=jit)", ratio, "ratio", f"{seconds:.2f} s")
        with tempfile.TemporaryDirectory() as cache:
            extra = {"PACSIM_CACHE_DIR": cache}
            first = _cpu_seconds(_pacsim(own), None, extra)
            yardstick = _cpu_seconds(_python(YARDSTICK), None)
            report.add(group, "own kernel evaluation, first process", first / yardstick, "ratio",
                       f"{first:.2f} s (compiles: {OWN_EVALUATION})")
            ratio, seconds = _ratio(_pacsim(own), _python(YARDSTICK), repeats, extra=extra)
            report.add(group, "own kernel evaluation, second process", ratio, "ratio",
                       f"{seconds:.2f} s (loaded from the disk; {first / seconds:.1f}x faster than the first)")
    except CommandFailed as failed:
        report.skip(f"startup: {failed}")


def _course_figures(report: Report, group: str, repeats: int, course: Path, quick: bool) -> None:
    """CS188's commands in ``course``: against the yardstick, then against the course's own code
    (each course command run once a round, for every pacsim command compared with it)."""
    commands = [_course_command(name, entry, quick) for name, entry in COURSE_COMMANDS.items()]
    for command in commands:
        ratio, seconds = _ratio(_pacsim(command.options), _python(YARDSTICK), repeats, course)
        report.add(group, f"pacsim {' '.join(command.options)}", ratio, "ratio", f"{seconds:.2f} s (CS188's command)")
    against_course = []
    for theirs in dict.fromkeys(command.course_options for command in commands):
        mine = [command for command in commands if command.course_options == theirs]
        measured, course_seconds = _ratios([_pacsim(command.options) for command in mine], _python(("pacman.py", *theirs)),
                                           repeats, course)
        against_course += [(command, ratio, course_seconds) for command, (ratio, _) in zip(mine, measured)]
    for command, ratio, course_seconds in sorted(against_course, key=lambda row: commands.index(row[0])):
        note = f"pacman.py {' '.join(command.course_options)}: {course_seconds:.2f} s; {command.verdict(ratio)}"
        report.add("startup against CS188's pacman.py (CPU s / CPU s)", command.name, ratio, "ratio", note)


@dataclass(frozen=True)
class CourseCommand:
    """One of :data:`COURSE_COMMANDS`, as run."""

    name: str
    options: tuple[str, ...]
    target: float | None
    course_options: tuple[str, ...]

    def verdict(self, ratio: float) -> str:
        """The target and whether ``ratio`` (pacsim's time over the course's) meets it."""
        if self.target is None:
            return "no target (the course's own agent, run by pacsim)"
        wanted = ("parity" if self.target == 1 else f"within {self.target:g}x" if self.target > 1
                  else f"{1 / self.target:g}x faster")
        return f"target {wanted}: {'met' if ratio <= self.target else 'NOT met'}"


def _course_command(name: str, entry: tuple[Any, ...], quick: bool) -> CourseCommand:
    """An entry of :data:`COURSE_COMMANDS`; ``quick``: its 50 games cut to :data:`QUICK_GAMES`."""
    options, target, course_options = (*entry, entry[0])[:3]
    if quick and "-n" in options:
        options, course_options = (_quick(options), _quick(course_options))
        name = name.replace("50 games", "5 games")
    return CourseCommand(name, tuple(options), target, tuple(course_options))


def _quick(options: Sequence[str]) -> tuple[str, ...]:
    return (*options[:list(options).index("-n")], *QUICK_GAMES) if "-n" in options else tuple(options)


def _pacsim(arguments: Sequence[str]) -> list[str]:
    return [sys.executable, "-m", "pacsim", *arguments]


def _python(arguments: Sequence[str]) -> list[str]:
    return [sys.executable, *arguments]


def _ratio(command: list[str], yardstick: list[str], repeats: int, folder: Path | None = None,
           extra: dict[str, str] | None = None) -> tuple[float, float]:
    """The median over ``repeats`` pairs (after one unmeasured pair) of
    ``command``'s CPU seconds over ``yardstick``'s, and ``command``'s median
    seconds; ``extra``: environment variables of ``command``."""
    return _ratios([command], yardstick, repeats, folder, extra)[0][0]


def _ratios(commands: list[list[str]], yardstick: list[str], repeats: int, folder: Path | None = None,
            extra: dict[str, str] | None = None) -> tuple[list[tuple[float, float]], float]:
    """:func:`_ratio` of each of ``commands``, the yardstick run once a round
    for them all (a slow one: the course's), and the yardstick's median seconds."""
    ratios: list[list[float]] = [[] for _ in commands]
    seconds: list[list[float]] = [[] for _ in commands]
    yardstick_seconds = []
    for repeat in range(repeats + 1):
        mine = [_cpu_seconds(command, folder, extra) for command in commands]
        theirs = _cpu_seconds(yardstick, folder)
        if repeat:  # the first round warms the file cache, the bytecode's (and numba's)
            yardstick_seconds.append(theirs)
            for index, spent in enumerate(mine):
                ratios[index].append(spent / theirs)
                seconds[index].append(spent)
    figures = [(statistics.median(ratio), statistics.median(spent)) for ratio, spent in zip(ratios, seconds)]
    return figures, statistics.median(yardstick_seconds)


def _cpu_seconds(command: list[str], folder: Path | None, extra: dict[str, str] | None = None) -> float:
    """The user and system seconds of ``command`` run to its end (its output thrown away)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    finished = subprocess.run(command, cwd=folder, env={**_environment(), **(extra or {})}, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, check=False, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if finished.returncode != 0:  # a time of a command that failed measures nothing
        last = (finished.stderr.strip().splitlines() or ["no message"])[-1]
        raise CommandFailed(f"{' '.join(command[1:])}: exit status {finished.returncode}: {last}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


class CommandFailed(Exception):
    """A measured command that did not succeed: its figure is skipped, saying why."""


def _environment() -> dict[str, str]:
    """This process's environment, with this pacsim first on the path (a
    checkout or worktree measures itself), no window to open, and the
    bytecode cached in the run's own folder (:func:`_bytecode_folder`)."""
    environment = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPYCACHEPREFIX=_bytecode_folder())
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    here = str(Path(__file__).resolve().parents[2])
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))
    return environment


@cache
def _bytecode_folder() -> str:
    """A folder for the measured processes' bytecode, removed when the run ends."""
    folder = tempfile.mkdtemp(prefix="pacsim-bench-bytecode-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder
