"""Capture-the-flag contests for a class: teams found and copied, games planned, played in sandboxes and stored.

A contest is its teams (students' hand-ins, each a folder with the course's
``myTeam.py``, and staff teams: a team file or one of pacsim's teams), its
mazes, the course's time rules scaled to the machine, and a format:

* ``round-robin``: every pair of teams on every maze, once with each colour;
* ``swiss``: first every student team against every staff team on every
  maze (both colours: the grade table's games), then rounds in which teams
  of near ratings meet (each pair on ``mazes_per_round`` mazes, both
  colours), until the ranking is separated (every team's 95% rank range
  within :data:`SEPARATED_SHARE` of the field) or after ``rounds`` rounds.
  150 teams take a few thousand games, not a round robin's 90,000.

Every game's seed is a keyed hash (HMAC-SHA256) of the maze and round under
the contest's secret, drawn when it is first run and kept in its store, so
nobody can learn a seed before the games; both colours of a pairing, and
every pairing of a round, play the same seed on a maze (common random
numbers).  A team's hand-in is copied (:mod:`pacsim.sandbox.handin`) and
hashed: the hash is in each game's key, so a changed hand-in's games, and
only those, are played again.  Each team plays in a sandbox child of its own
(:mod:`pacsim.agents.capture.sandboxed`); its faults lose its own games.
"""

from __future__ import annotations

import ast
import concurrent.futures
import contextlib
import ctypes
import hashlib
import hmac
import json
import math
import multiprocessing
import os
import secrets
import signal
import socket
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pacsim._version import __version__
from pacsim.agents.capture import BUILT_IN_TEAMS
from pacsim.engine.capture.game import CaptureTeam, TimeRules
from pacsim.engine.capture.layout import RANDOM_PREFIX, capture_layout_text
from pacsim.engine.capture.state import MAX_MOVES
from pacsim.errors import AgentError, ConfigError
from pacsim.files import FileRefused, read_bounded
from pacsim.printable import has_control_characters, printable
from pacsim.runner.contest_store import ContestStore, Drawn
from pacsim.sandbox.handin import HandInLimits, snapshot
from pacsim.sandbox.limits import Limits

ROUND_ROBIN, SWISS = "round-robin", "swiss"
FORMATS = (ROUND_ROBIN, SWISS)
TEAM_FILE = "myTeam.py"
TEAM_FILES = (TEAM_FILE, "my_team.py")
"""A team folder's team file: the course's name, else UPF's (a folder with helper modules beside it holds one)."""
DEFAULT_MAZES = 4
"""Generated mazes (``RANDOM<seed>``, seeds drawn afresh) when no ``--layout`` is given."""
DEFAULT_MAZES_PER_ROUND = 2
SEPARATED_SHARE = 0.1
"""A Swiss contest stops when every team's 95% rank range spans at most this share of the teams (at least 2 places)."""
MIN_SWISS_ROUNDS = 3
LEAGUE, STAFF, ROUND = "league", "staff", "swiss"
"""A game's stage: a round robin's, a student's against a staff team, a Swiss round's."""
SCALED = ("startup", "move_warning", "move_timeout")


@dataclass(frozen=True)
class Team:
    """One contestant."""

    name: str
    spec: str
    """What :func:`~pacsim.agents.capture.build_team` builds: the copy's ``myTeam.py``, or a pacsim team's name."""
    digest: str
    """The hash of its copied hand-in (a pacsim team: its name and pacsim's version): part of its games' keys."""
    staff: bool = False
    error: str | None = None
    """Why it gets no games (listed on the board with it); None if it plays."""


@dataclass(frozen=True)
class GameTask:
    """One game to play, all it needs carried with it (a worker process reads nothing else)."""

    key: str
    stage: str
    round: int
    red: Team
    blue: Team
    maze: str
    maze_text: str
    seed: int
    noise_seed: int
    """The noise's own seed, keyed by the pairing (:meth:`Contest.noise_seed`)."""


@dataclass
class Contest:
    """A contest ready to play (see the module's docstring)."""

    name: str
    store: ContestStore
    teams: list[Team]
    drawn: Drawn
    format: str = ROUND_ROBIN
    max_moves: int = MAX_MOVES
    rules: TimeRules = field(default_factory=TimeRules)
    """The course's rules scaled by the speed factor."""
    limits: Limits | None = None
    """The sandbox's limits (None: teams play in the worker's own process, trusted code only)."""
    mazes_per_round: int = DEFAULT_MAZES_PER_ROUND
    rounds: int = 0
    """Most Swiss rounds (0: chosen from the number of teams)."""
    empty_folder: Path = Path()
    """What a pacsim team's child sees of the disk: an empty folder."""
    executor: concurrent.futures.Executor | None = None
    """Where the games are played instead of this machine's worker processes (the Dask executor,
    :func:`pacsim.runner.dask_executor.dask_executor`: its workers must see the hand-ins' paths); each game's
    row still comes back here and is stored here, as it ends."""

    @property
    def playing(self) -> list[Team]:
        return [team for team in self.teams if team.error is None]

    def seed(self, maze: str, round_number: int) -> int:
        """The seed of every game on ``maze`` in ``round_number``: HMAC-SHA256 under the secret, 63 bits."""
        digest = hmac.new(bytes.fromhex(self.drawn.secret), f"seed:{maze}:{round_number}".encode(), hashlib.sha256)
        return int.from_bytes(digest.digest()[:8], "big") >> 1

    def noise_seed(self, maze: str, round_number: int, red: Team, blue: Team) -> int:
        """The noise of a pairing's games on ``maze`` in ``round_number`` (both colours): every pairing plays the
        round's seed, but a team that kept what it saw of the noise in one game (its child is kept between games)
        would read its unseen opponents' distances in another of the same seed; keyed by the pair, it cannot."""
        pair = ":".join(sorted((red.name, blue.name)))
        digest = hmac.new(bytes.fromhex(self.drawn.secret), f"noise:{maze}:{round_number}:{pair}".encode(),
                          hashlib.sha256)
        return int.from_bytes(digest.digest()[:8], "big") >> 1

    def draw_order(self, name: str) -> str:
        """A team's place in a first round without ratings: a keyed hash of its name (nobody can choose it)."""
        return hmac.new(bytes.fromhex(self.drawn.secret), f"order:{name}".encode(), hashlib.sha256).hexdigest()

    def task(self, stage: str, round_number: int, red: Team, blue: Team, maze: tuple[str, str]) -> GameTask:
        seed = self.seed(maze[0], round_number)
        identity = [self.name, red.name, red.digest, blue.name, blue.digest, maze[0],
                    hashlib.sha256(maze[1].encode()).hexdigest(), seed, self.max_moves]
        key = hashlib.sha256(json.dumps(identity).encode()).hexdigest()
        return GameTask(key, stage, round_number, red, blue, maze[0], maze[1], seed,
                        self.noise_seed(maze[0], round_number, red, blue))

    def both_colours(self, stage: str, round_number: int, first: Team, second: Team,
                     mazes: Sequence[tuple[str, str]]) -> list[GameTask]:
        return [self.task(stage, round_number, red, blue, maze) for maze in mazes for red, blue in ((first, second), (second, first))]


# -- teams ----------------------------------------------------------------------------------------------------------


def find_teams(values: Sequence[str], snapshots: Path, limits: HandInLimits, staff: bool = False) -> list[Team]:
    """The teams ``values`` name: a folder of team folders (one per student team), a team folder (its
    ``myTeam.py``, or its only ``.py`` file), a team file, or a pacsim team (``baseline``); each hand-in copied
    into ``snapshots`` and hashed.  A value that names nothing is a :class:`ConfigError`; a team that cannot
    be copied or has no ``createTeam`` is a team with an ``error``."""
    teams: list[Team] = []
    for value in values:
        teams.extend(_teams_of(value, snapshots, limits, staff))
    return _unique_names(teams)


def _teams_of(value: str, snapshots: Path, limits: HandInLimits, staff: bool) -> list[Team]:
    if value in BUILT_IN_TEAMS:
        return [Team(value, value, f"pacsim {value} {__version__}", staff)]
    path = Path(value).expanduser()
    if path.is_file() and path.suffix == ".py":
        return [_named(path.stem, path, staff) or _copied(path.parent, path.name, path.stem, snapshots, limits, staff, alone=True)]
    if not path.is_dir():
        raise ConfigError(f"no team {value!r}: neither a team folder or file nor one of pacsim's teams "
                          f"({', '.join(BUILT_IN_TEAMS)})")
    if any(path.glob("*.py")):
        return [_folder_team(path, snapshots, limits, staff)]
    return [_linked(folder, staff) if folder.is_symlink() else _folder_team(folder, snapshots, limits, staff)
            for folder in sorted(path.iterdir()) if folder.is_dir() and not folder.name.startswith(".")]


def _linked(folder: Path, staff: bool) -> Team:
    """A team folder that is a link: listed with why it gets no games (a link may lead to another's hand-in),
    not left off the board and the grade table in silence."""
    return _named(folder.name, folder, staff) or Team(folder.name, "", "", staff,
                                                      f"{folder}: a link, not a folder; hand in the folder itself")


def _named(name: str, where: Path, staff: bool, *inside: str) -> Team | None:
    """A team refused for its names, when its name (or a file name ``inside`` it) holds control characters: a
    folder named with a terminal's escape codes or a newline would rewrite the instructor's screen or forge a
    board's line, and end up in the store and the pages.  None when every name can be shown as it is."""
    if not any(has_control_characters(text) for text in (name, *inside)):
        return None
    return Team(printable(name), "", "", staff, f"{printable(str(where))}: a name holds control characters (shown "
                                                "escaped here); rename it with letters, digits and punctuation")


def _folder_team(folder: Path, snapshots: Path, limits: HandInLimits, staff: bool) -> Team:
    files = sorted(file.name for file in folder.glob("*.py") if file.is_file())
    refused = _named(folder.name, folder, staff, *files)
    if refused is not None:
        return refused
    chosen = next(([name] for name in TEAM_FILES if name in files), files)
    if len(chosen) != 1:
        found = "no .py file" if not chosen else f"{len(chosen)} .py files and no {' or '.join(TEAM_FILES)}"
        return Team(folder.name, "", "", staff, f"{folder}: {found} (a team's folder holds {TEAM_FILE})")
    return _copied(folder, chosen[0], folder.name, snapshots, limits, staff)


def _copied(folder: Path, team_file: str, name: str, snapshots: Path, limits: HandInLimits, staff: bool,
            alone: bool = False) -> Team:
    """The team playing from its hand-in's copy, named by its digest; the copy's file read (never run) for ``createTeam``."""
    try:
        copy, _ = snapshot(folder, team_file, snapshots, limits, alone=alone)
        source = read_bounded(copy / team_file, 1 << 20).decode("utf-8", "replace")
    except FileRefused as error:
        return Team(name, "", "", staff, f"{folder}: not copied: {error}")
    except OSError as error:
        return Team(name, "", "", staff, f"{folder}: cannot copy it: {error.strerror or error}")
    digest = source.rstrip().rsplit("sha256 ", 1)[-1]
    if not _defines_create_team(source):
        return Team(name, "", digest, staff, f"{folder / team_file}: defines no createTeam(firstIndex, secondIndex, isRed)")
    return Team(name, str(copy / team_file), digest, staff)


def _defines_create_team(source: str) -> bool:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True  # its games say what is wrong with it (a crash each), as the course's would
    return any(isinstance(node, ast.FunctionDef | ast.Assign | ast.ImportFrom) and _names_create_team(node)
               for node in tree.body)


_TEAM_MAKERS = ("createTeam", "create_team")
"""The course's name for a file's team maker, and UPF's snake_case one."""


def _names_create_team(node: ast.stmt) -> bool:
    if isinstance(node, ast.FunctionDef):
        return node.name in _TEAM_MAKERS
    if isinstance(node, ast.Assign):
        return any(isinstance(target, ast.Name) and target.id in _TEAM_MAKERS for target in node.targets)
    return isinstance(node, ast.ImportFrom) and any((alias.asname or alias.name) in _TEAM_MAKERS for alias in node.names)


def _unique_names(teams: list[Team]) -> list[Team]:
    seen: dict[str, int] = {}
    unique = []
    for team in teams:
        seen[team.name] = seen.get(team.name, 0) + 1
        unique.append(team if seen[team.name] == 1 else replace(team, name=f"{team.name}-{seen[team.name]}"))
    return unique


# -- what is drawn once ---------------------------------------------------------------------------------------------


def draw(layouts: Sequence[str], mazes: int, speed: Callable[[], float]) -> Drawn:
    """A new contest's secret, mazes (``layouts``, or ``mazes`` generated ones on fresh seeds) and speed factor."""
    names = list(layouts) or [f"{RANDOM_PREFIX}{secrets.randbelow(1 << 31)}" for _ in range(mazes)]
    texts = tuple((capture_layout_text(name)[1], capture_layout_text(name)[0]) for name in names)
    return Drawn(secrets.token_hex(32), texts, speed())


def scaled_rules(factor: float) -> TimeRules:
    """The course's time rules, each limit multiplied by the machine's speed factor."""
    course = TimeRules()
    return replace(course, **{name: getattr(course, name) * factor for name in SCALED})


def sandbox_limits(rules: TimeRules, base: Limits | None = None) -> Limits:
    """The sandbox's limits for the rules: a move killed at the forfeit time, building and the first look at start-up."""
    return replace(base or Limits(), move_seconds=rules.move_timeout, startup_seconds=rules.startup)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# -- plans ----------------------------------------------------------------------------------------------------------


def round_robin(contest: Contest) -> list[GameTask]:
    teams = contest.playing
    return [task for index, first in enumerate(teams) for second in teams[index + 1:]
            for task in contest.both_colours(LEAGUE, 0, first, second, contest.drawn.mazes)]


def staff_games(contest: Contest) -> list[GameTask]:
    """Every student team against every staff team on every maze, both colours."""
    staff = [team for team in contest.playing if team.staff]
    return [task for student in contest.playing if not student.staff for coach in staff
            for task in contest.both_colours(STAFF, 0, student, coach, contest.drawn.mazes)]


def swiss_round(contest: Contest, round_number: int, order: Sequence[str], met: set[frozenset[str]],
                sat_out: set[str]) -> list[GameTask]:
    """Round ``round_number``'s games: its pairs as an earlier run planned them, else paired now from ``order``
    (the students by rating, best first, ties in a keyed-hash order) and kept."""
    pairs = contest.store.pairs(contest.name, round_number)
    if pairs is None:
        pairs = pair_by_rating(order, met, sat_out)
        contest.store.keep_pairs(contest.name, round_number, pairs)
    teams = {team.name: team for team in contest.playing}
    mazes = contest.drawn.mazes
    chosen = [mazes[(round_number * contest.mazes_per_round + offset) % len(mazes)]
              for offset in range(min(contest.mazes_per_round, len(mazes)))]
    return [task for first, second in pairs if first in teams and second in teams
            for task in contest.both_colours(ROUND, round_number, teams[first], teams[second], chosen)]


def pair_by_rating(order: Sequence[str], met: set[frozenset[str]], sat_out: set[str]) -> list[tuple[str, str]]:
    """Each unpaired team, best first, with the next best it has not met (else the next best).  In an odd field
    the lowest team that has not yet sat a round out sits this one out (no games, no points)."""
    waiting = list(order)
    if len(waiting) % 2:
        resting = next((name for name in reversed(waiting) if name not in sat_out), waiting[-1])
        waiting.remove(resting)
    pairs = []
    while len(waiting) >= 2:
        first = waiting.pop(0)
        second = next((other for other in waiting if frozenset((first, other)) not in met), waiting[0])
        waiting.remove(second)
        pairs.append((first, second))
    return pairs


def swiss_rounds(contest: Contest) -> int:
    return contest.rounds or swiss_rounds_for(sum(1 for team in contest.playing if not team.staff))


def swiss_rounds_for(students: int) -> int:
    """The most Swiss rounds for a field of ``students`` teams unless ``--rounds`` says: log2 of it, plus 4."""
    return math.ceil(math.log2(max(2, students))) + 4


def separated(ranges: Sequence[tuple[int, int]], teams: int) -> bool:
    """Whether every team's 95% rank range spans at most :data:`SEPARATED_SHARE` of ``teams`` (2 places at least)."""
    allowed = max(2, math.ceil(SEPARATED_SHARE * teams))
    return all(worst - best + 1 <= allowed for best, worst in ranges)


# -- running --------------------------------------------------------------------------------------------------------

Ranker = Callable[[Sequence[str], list[dict[str, Any]]], list[tuple[str, int, int, int]]]
"""The teams' names and their stored games -> each team's name, rank and 95% rank range, best first (the report's
ratings: the runner does not rate, the report does, and the command hands it in)."""


def run_contest(contest: Contest, workers: int, ranker: Ranker,
                progress: Callable[[int, int], None] | None = None) -> list[GameTask]:
    """Play what the contest's format plans and is not stored yet; every game it planned (this run's and earlier)."""
    if contest.format == ROUND_ROBIN:
        tasks = round_robin(contest)
        play_missing(contest, tasks, workers, progress)
        return tasks
    tasks = staff_games(contest)
    play_missing(contest, tasks, workers, progress)
    names = [team.name for team in contest.playing]
    students = [team.name for team in contest.playing if not team.staff]
    met: set[frozenset[str]] = set()
    sat_out: set[str] = set()
    for round_number in range(1, swiss_rounds(contest) + 1):
        planned = contest.store.pairs(contest.name, round_number) is not None
        games = contest.store.games(task.key for task in tasks)
        ranking = ranker(names, games) if games else []
        if not planned and round_number > MIN_SWISS_ROUNDS and separated([(best, worst) for *_, best, worst in ranking], len(names)):
            break
        rank_of = {name: rank for name, rank, *_ in ranking}
        order = sorted(students, key=lambda name: (rank_of.get(name, 0), contest.draw_order(name)))
        round_tasks = swiss_round(contest, round_number, order, met, sat_out)
        paired = {name for task in round_tasks for name in (task.red.name, task.blue.name)}
        sat_out.update(set(students) - paired)
        met.update(frozenset((task.red.name, task.blue.name)) for task in round_tasks)
        tasks += round_tasks
        play_missing(contest, round_tasks, workers, progress)
    return tasks


# -- playing ----------------------------------------------------------------------------------------------------------


def play_missing(contest: Contest, tasks: Sequence[GameTask], workers: int,
                 progress: Callable[[int, int], None] | None = None) -> int:
    """Play the ``tasks`` not already stored, each stored as it ends; how many were played."""
    stored = contest.store.stored_keys(task.key for task in tasks)
    missing = list({task.key: task for task in tasks if task.key not in stored}.values())
    done = 0
    for row in _played(contest, missing, workers):
        contest.store.add_game(row)
        done += 1
        if progress is not None:
            progress(done, len(missing))
    return done


def _played(contest: Contest, tasks: list[GameTask], workers: int) -> Iterator[dict[str, Any]]:
    settings = (contest.name, contest.max_moves, contest.rules, contest.limits, contest.empty_folder,
                contest.drawn.speed_factor)
    if contest.executor is not None:
        yield from _completed(contest.executor, tasks, settings)
        return
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield play_task(task, *settings)
        return
    # Spawned by this process itself (not a fork server, which outlives a killed parent): each worker's parent
    # is the contest's process, so the parent-death signal ends it, and its sandbox children with it.
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context, initializer=_die_with_parent,
                                                initargs=(os.getpid(),)) as pool:
        yield from _completed(pool, tasks, settings)


def _completed(executor: concurrent.futures.Executor, tasks: list[GameTask],
               settings: tuple[Any, ...]) -> Iterator[dict[str, Any]]:
    """Each task's row as its game ends on ``executor`` (the games not yet begun cancelled if this stops)."""
    futures = [executor.submit(play_task, task, *settings) for task in tasks]
    try:
        for future in concurrent.futures.as_completed(futures):
            yield future.result()
    finally:
        for future in futures:
            future.cancel()


def _die_with_parent(parent: int) -> None:
    """A worker dies with the contest's process ``parent`` (a ``kill -9`` of it leaves no games running on),
    also when it died before this worker asked."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(1)


def play_task(task: GameTask, contest: str, max_moves: int, rules: TimeRules, limits: Limits | None,
              empty_folder: Path, factor: float) -> dict[str, Any]:
    """Play one game (in a worker) and return its row."""
    from pacsim.engine.capture.game import play_capture_game
    from pacsim.engine.capture.layout import parse_capture_layout

    layout = parse_capture_layout(task.maze_text, name=task.maze, source=task.maze)
    red, blue = _team(task.red, True, limits, empty_folder), _team(task.blue, False, limits, empty_folder)
    try:
        result = play_capture_game(layout, red, blue, task.seed, max_moves=max_moves, time_rules=rules,
                                   noise_seed=task.noise_seed)
    finally:
        for team in (red, blue):
            stop = getattr(team, "stop", None)
            if stop is not None:
                stop()
    return {"key": task.key, "contest": contest, "stage": task.stage, "round": task.round, "red": task.red.name,
            "blue": task.blue.name, "red_digest": task.red.digest, "blue_digest": task.blue.digest,
            "layout": task.maze, "seed": task.seed, "score": result.score, "winner": result.winner,
            "reason": result.reason, "culprit": result.culprit, "fault": result.fault, "error": result.error[:500],
            "moves": json.dumps(result.moves), "seconds": json.dumps([round(value, 4) for value in result.seconds]),
            "speed_factor": factor, "move_warning": rules.move_warning, "move_timeout": rules.move_timeout,
            "sandbox": "" if limits is None else _level(limits), "pacsim_version": __version__,
            "machine": socket.gethostname(), "played_at": now()}


def _team(team: Team, is_red: bool, limits: Limits | None, empty_folder: Path) -> CaptureTeam:
    if limits is not None:
        from pacsim.agents.capture.sandboxed import SandboxedTeam

        return SandboxedTeam(team.spec, is_red, limits, empty_folder)
    from pacsim.agents.capture import build_team

    try:
        return build_team(team.spec, is_red)
    except Exception as error:  # without the sandbox too, a team whose createTeam fails loses its own game
        return _Failed(str(error))


class _Failed(CaptureTeam):
    """A team that could not be built in this process: it fails at its game's start."""

    def __init__(self, message: str) -> None:
        self.message = message

    def prepare(self, rng: Any) -> None:
        raise AgentError(self.message)


def _level(limits: Limits) -> str:
    from pacsim.sandbox.isolation import isolation_level

    return isolation_level(limits)


def empty_folder(store: Path) -> Path:
    """The empty folder a pacsim team's child sees: beside the store, made once."""
    folder = store.with_name(store.name + ".empty")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
