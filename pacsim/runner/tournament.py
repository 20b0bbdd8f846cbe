"""Tournaments: every Pacman entrant against every ghost entrant on the same mazes and starts.

A tournament is an experiment (:func:`~pacsim.runner.experiment.build_experiment`):
its grid is the entrants that load (``pacman``, ``ghosts``) and the mazes
(``layout``), played ``pairs`` times with random starts, so every Pacman
meets the same positions (maze, start, ghost dice): paired games.  It is
played, resumed after a kill and stored as any experiment is; an entrant
whose code file changed is another condition, so its games are played again.

Entrants are written as ``pacsim run`` names agents (``greedy``,
``expectimax:depth=2``, ``file.py:Class``) or as a path:

* a ``.py`` file: its agent class (below);
* a folder holding ``.py`` files: one entrant, its ``agent.py`` (or its only ``.py`` file);
* a folder holding only folders: one entrant per folder (one folder per student).

The class of a file is the one named at the file's top level by
``PACMAN = ClassName`` (``GHOST = ClassName`` for a ghost), else the only
class defined there whose base is named ``...Agent``.  The file is read, not
run, to find it (:mod:`ast`): an entrant's code runs only where its games do.

Generated mazes (``generated:...``) without a ``seed`` get seeds drawn afresh
(:mod:`secrets`) when the tournament is first played, ``mazes=N`` of them,
so nobody can learn them beforehand (each with a cell to start Pacman on at
the start distance: a range with a maze that has none is drawn again); the
games' root seed too, and a secret key for the agents' random streams
(:mod:`pacsim.engine.streams`: without it no entrant can tell another
agent's stream from its own).  What was drawn is kept beside the store
(``STORE.tournament.json``, which no sandboxed entrant sees), so a resumed
run plays the same mazes, starts and dice.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
import math
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pacsim.agents import plugins
from pacsim.agents.cs188 import GHOST_ALIASES, cs188_files_defining
from pacsim.agents.registry import GHOST, PACMAN, ghost_names, pacman_names, parse_spec
from pacsim.agents.sandboxed import entrant_folder, needs_sandbox
from pacsim.engine.generate import is_generated, parse_maze_specs
from pacsim.engine.names import load_layout
from pacsim.engine.starts import DEFAULT_START_DISTANCE, RANDOM, start_cells
from pacsim.engine.streams import KEY_BYTES, Streams
from pacsim.errors import AgentError, ConfigError
from pacsim.files import FileRefused, read_bounded, write_atomically
from pacsim.printable import has_control_characters, printable
from pacsim.runner.experiment import Experiment, build_experiment
from pacsim.runner.experiment_file import read_toml
from pacsim.sandbox.handin import DEFAULT_HAND_IN, DEFAULT_HAND_IN_FILES, DEFAULT_HAND_IN_MB, HandInLimits, snapshot
from pacsim.sandbox.isolation import FULL, Isolation
from pacsim.sandbox.isolation import isolation as sandbox_isolation
from pacsim.sandbox.limits import LIMITS, Limits

TOURNAMENT_KEYS = ("name", "pairs", "seed", "max_moves", "time_limit", "store", "sandbox", "pacman", "ghosts",
                   "layouts", "start_distance", "hand_in_mb", "hand_in_files", "allow_weak_sandbox")
DEFAULT_MOVE_SECONDS = 1.0
"""A tournament's move time limit unless it sets ``time_limit``: the same with and without the sandbox."""
DEFAULT_PAIRS = 10
DEFAULT_GHOSTS = ("random",)
DEFAULT_LAYOUTS = ("smallClassic",)
DEFAULT_GENERATED_MAZES = 3
"""Mazes drawn for a generated spec that names neither ``seed`` nor ``mazes``."""
MAZES_KEY = "mazes="
SANDBOX_KEY = "sandbox"
"""The experiment key that plays untrusted agents in a sandboxed process."""
AGENT_FILE = "agent.py"
MAX_SOURCE_BYTES = 1 << 20
"""Largest file of drawn seeds read."""
MAX_AGENT_FILE_BYTES = 256 << 10
"""Largest entrant file read to find its class: parsing is the coordinator's
work, and a hostile file of nested expressions costs it memory and time in
proportion to its size (1 MB of them: 200 MB and two seconds)."""
CHECK_OPPONENTS = {PACMAN: "greedy", GHOST: "random"}
CHECK_LAYOUT = "tinyGhostMaze"
"""An entrant is checked in an experiment of its own, against the built-in opponent, on this shipped maze."""
STREAM_KEY = "stream_key"
"""The drawn file's entry holding the secret key of the agents' random streams."""
SEED_BOUND = 1 << 31
"""Drawn seeds are below this (a generated maze's seed range must fit the store's integers)."""


@dataclass(frozen=True)
class Entrant:
    """One competitor: a name for the leaderboard and the agent spec it plays as."""

    name: str
    spec: str
    """The agent spec (what the store's ``pacman`` or ``ghosts`` column holds); empty if it could not be found."""
    error: str | None = None
    """Why it cannot play (it is listed with this and gets no games); None if it loads."""
    left_out: tuple[str, ...] = ()
    """What of its hand-in was not copied for its games (links, special files: :mod:`pacsim.sandbox.handin`)."""


@dataclass
class Tournament:
    """A tournament ready to play: its experiment and its entrants."""

    experiment: Experiment
    pacmen: list[Entrant]
    ghosts: list[Entrant]
    drawn: dict[str, Any] = field(default_factory=dict)
    """What was drawn afresh for it (the root seed, generated mazes' seeds), as kept beside the store."""
    notes: list[str] = field(default_factory=list)
    """What the instructor should know before the games (modules two entrants share by name)."""
    isolation: Isolation | None = None
    """What isolates its entrants (:func:`isolation`); None with ``--no-sandbox``."""

    def names(self, role: str) -> dict[str, str]:
        """Agent spec -> entrant name, for the entrants of ``role`` that play."""
        entrants = self.pacmen if role == PACMAN else self.ghosts
        return {entrant.spec: entrant.name for entrant in entrants if entrant.error is None}

    @property
    def refused(self) -> list[Entrant]:
        return [entrant for entrant in (*self.pacmen, *self.ghosts) if entrant.error is not None]


def sandbox_settings(sandboxed: bool, move_seconds: float = DEFAULT_MOVE_SECONDS) -> dict[str, Any]:
    """The experiment keys that run entrants sandboxed or not (the one place
    a tournament meets the sandbox: :mod:`pacsim.sandbox`).  The rules
    are the same either way: the sandbox's move limit is the tournament's
    ``time_limit``, which a worker enforces itself without the sandbox."""
    if not sandboxed:
        return {SANDBOX_KEY: False, "time_limit": move_seconds}
    return {SANDBOX_KEY: {"move_seconds": move_seconds}, "time_limit": 0.0}


# -- reading --------------------------------------------------------------

def read_tournament(path: str | Path) -> dict[str, Any]:
    """A tournament file's settings, paths in it taken from the file's folder."""
    path = Path(path)
    raw = read_toml(path)
    unknown = sorted(set(raw) - set(TOURNAMENT_KEYS))
    if unknown:
        raise ConfigError(f"{path}: {unknown[0]}: unknown key (known: {', '.join(TOURNAMENT_KEYS)})")
    raw.setdefault("name", path.stem)
    _check_types(raw, str(path))
    for key in ("pacman", "ghosts", "layouts"):
        values = raw.get(key, [])
        values = [values] if isinstance(values, str) else values
        if not isinstance(values, list) or not all(isinstance(value, str) and value for value in values):
            raise ConfigError(f"{path}: {key}: must be a list of non-empty strings, not {raw.get(key)!r}")
        raw[key] = [_from_folder(value, path.parent) for value in values]
    if "store" in raw:
        raw["store"] = str(path.parent / raw["store"])
    return raw


def _check_types(raw: dict[str, Any], source: str) -> None:
    """The keys the experiment does not check under the same name (the others it does: seed, max_moves, ...)."""
    pairs = raw.get("pairs", DEFAULT_PAIRS)
    if isinstance(pairs, bool) or not isinstance(pairs, int) or pairs < 1:
        raise ConfigError(f"{source}: pairs: must be a whole number of paired starts, at least 1, not {pairs!r}")
    if not isinstance(raw.get("sandbox", True), bool):
        raise ConfigError(f"{source}: sandbox: must be true or false, not {raw['sandbox']!r}")
    for key in ("name", "store"):
        if key in raw and (not isinstance(raw[key], str) or not raw[key]):
            raise ConfigError(f"{source}: {key}: must be a non-empty string, not {raw[key]!r}")


def _from_folder(value: str, folder: Path) -> str:
    """A path in a tournament file, taken from the file's folder (names of built-in things as they are)."""
    candidate = folder / value.split(":", 1)[0] if not is_generated(value) else None
    if candidate is not None and candidate.exists():
        return str(folder / value)
    return value


def build_tournament(settings: dict[str, Any], source: str = "<tournament>", sandboxed: bool = True) -> Tournament:
    """The tournament that ``settings`` (a tournament file's, or the command
    line's) describe, with what was drawn for its store reused or drawn now."""
    name = str(settings.get("name") or "tournament")
    store = Path(settings.get("store") or f"results/{name}.sqlite")
    if not settings.get("pacman"):
        raise ConfigError(f"{source}: pacman: no Pacman entrants (give files or folders)")
    playing_sandboxed = bool(settings.get("sandbox", sandboxed))
    sandbox = sandbox_settings(playing_sandboxed, _move_seconds(settings, source))
    here = isolation(settings, source, playing_sandboxed)
    snapshots = snapshots_folder(store)
    limits = hand_in_limits(settings, source)
    found = [discover(values, role, snapshots, limits, copy_files=playing_sandboxed)
             for values, role in ((settings["pacman"], PACMAN), (settings.get("ghosts") or list(DEFAULT_GHOSTS), GHOST))]
    if not settings.get("allow_weak_sandbox") and any(  # refused before any entrant's code runs
            entrant.error is None and needs_sandbox(entrant.spec) for entrants in found for entrant in entrants):
        refuse_weak(here, source)
    pacmen, ghosts = (_loaded([_exposing(entrant, store, playing_sandboxed) for entrant in entrants], role, sandbox)
                      for entrants, role in zip(found, (PACMAN, GHOST)))
    for role, entrants in ((PACMAN, pacmen), (GHOST, ghosts)):
        if not any(entrant.error is None for entrant in entrants):
            raise ConfigError(f"{source}: no {role} entrant loads; the first: {printable(entrants[0].name)}: "
                              f"{printable(entrants[0].error or '')}")
    drawn = read_drawn(store)
    distance = settings.get("start_distance", DEFAULT_START_DISTANCE)
    layouts = [_drawn_maze(layout, drawn, distance) for layout in settings.get("layouts") or DEFAULT_LAYOUTS]
    seed = settings.get("seed")
    if seed is None:
        seed = drawn.setdefault("seed", secrets.randbelow(SEED_BOUND))
    raw: dict[str, Any] = {
        "name": name, "games": settings.get("pairs", DEFAULT_PAIRS), "seed": seed, "store": str(store),
        "starts": RANDOM,
        "grid": {"pacman": [entrant.spec for entrant in pacmen if entrant.error is None],
                 "ghosts": [entrant.spec for entrant in ghosts if entrant.error is None],
                 "layout": layouts},
        **{key: settings[key] for key in ("max_moves", "start_distance") if key in settings},
        **sandbox,
    }
    experiment = dataclasses.replace(build_experiment(raw, source, default_name=name),
                                     streams=Streams(key=_stream_key(drawn, store)))
    left_out = [f"{entrant.name}: left out of its copy: {', '.join(entrant.left_out)}"
                for entrant in (*pacmen, *ghosts) if entrant.left_out]
    clashes = [] if playing_sandboxed else module_clashes([*pacmen, *ghosts])  # sandboxed: a process each
    return Tournament(experiment=experiment, pacmen=pacmen, ghosts=ghosts, drawn=drawn, isolation=here,
                      notes=[*left_out, *clashes])


def hand_in_limits(settings: dict[str, Any], source: str) -> HandInLimits:
    """The tournament's ``hand_in_mb`` and ``hand_in_files`` (:mod:`pacsim.sandbox.handin`)."""
    megabytes = settings.get("hand_in_mb", DEFAULT_HAND_IN_MB)
    files = settings.get("hand_in_files", DEFAULT_HAND_IN_FILES)
    if isinstance(megabytes, bool) or not isinstance(megabytes, (int, float)) or not 0 < megabytes < math.inf:
        raise ConfigError(f"{source}: hand_in_mb: must be a number of megabytes above 0, not {megabytes!r}")
    if isinstance(files, bool) or not isinstance(files, int) or files < 1:
        raise ConfigError(f"{source}: hand_in_files: must be a whole number of files, at least 1, not {files!r}")
    return HandInLimits(float(megabytes), files)


def _move_seconds(settings: dict[str, Any], source: str) -> float:
    seconds = settings.get("time_limit", DEFAULT_MOVE_SECONDS)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds < math.inf:
        raise ConfigError(f"{source}: time_limit: a tournament's move time limit must be a number of seconds above 0 "
                          f"(its entrants play by the same rules with and without the sandbox), not {seconds!r}")
    return float(seconds)


WEAK_REFUSED = ("bubblewrap cannot run here, so its entrants would play at the weak 'limits' level: resource "
                "limits only, where an entrant's code can read your files, the store and the other entrants'. "
                "Install bubblewrap (and allow user namespaces), or accept it by name: --allow-weak-sandbox "
                "(allow_weak_sandbox = true)")


def isolation(settings: dict[str, Any], source: str, sandboxed: bool) -> Isolation | None:
    """What will isolate the entrants here (the strongest the machine offers); None without the sandbox."""
    if not sandboxed:
        return None
    if not isinstance(settings.get("allow_weak_sandbox", False), bool):
        raise ConfigError(f"{source}: allow_weak_sandbox: must be true or false, not {settings['allow_weak_sandbox']!r}")
    return sandbox_isolation(Limits())


def refuse_weak(here: Isolation | None, source: str) -> None:
    """Refuse to play sandboxed entrants below full isolation (the caller checks that the user did not accept it)."""
    if here is None or here.strength == FULL:
        return
    if here.level == LIMITS:
        raise ConfigError(f"{source}: {WEAK_REFUSED}")
    raise ConfigError(f"{source}: its entrants would play at {here.summary()}. Run it where pacsim can make control "
                      "groups (as root, or with delegated cgroups), or accept it by name: --allow-weak-sandbox "
                      "(allow_weak_sandbox = true)")


def isolation_warning(tournament: Tournament, results: Any = None) -> str | None:
    """What a tournament says first (and atop its board) when its entrants are not fully isolated, or an earlier
    run of its store played some of its games weaker (``results``: its stored games); None when fully isolated
    or by the user's own --no-sandbox (docs/tournament.md says what that means)."""
    here = tournament.isolation
    if here is None:
        return None
    played_weaker = results is not None and "sandbox" in results and (results["sandbox"] == LIMITS).any()
    if played_weaker and here.level != LIMITS:
        return f"WARNING: some games were played by an earlier run at {dataclasses.replace(here, level=LIMITS).summary()}"
    return None if here.strength == FULL else f"WARNING: {here.summary()}"


def _exposing(entrant: Entrant, store: Path, sandboxed: bool) -> Entrant:
    """``entrant``, refused if its sandbox would show it the store's folder
    (the store, the drawn seeds, the other entrants' copies): an agent spec
    naming a file in a folder that holds the store."""
    if entrant.error is not None or not sandboxed or not needs_sandbox(entrant.spec):
        return entrant
    try:
        folder = entrant_folder(entrant.spec)[0]
    except AgentError as error:
        return dataclasses.replace(entrant, error=str(error))
    if store.parent.resolve().is_relative_to(folder):
        return dataclasses.replace(entrant, error=f"its sandbox would show its folder {folder}, which holds the store "
                                                  f"{store}: give it as a file or folder entrant (copied apart), "
                                                  "or keep the store elsewhere")
    return entrant


def module_clashes(entrants: Sequence[Entrant]) -> list[str]:
    """One line per module name that entrants' folders hold with different
    contents (``util.py``, say): an agent file imports its neighbours by bare
    name, so in one process the first imported serves every entrant.  Only
    without the sandbox, which plays each entrant in a process of its own."""
    versions: dict[str, dict[str, list[str]]] = {}
    for entrant in entrants:
        if entrant.error is not None or not plugins.is_file_target(entrant.spec.rpartition(":")[0]):
            continue
        agent_file = Path(entrant.spec.rpartition(":")[0])
        for module in _python_files(agent_file.parent):
            if module != agent_file:
                digest = hashlib.sha256(module.read_bytes()).hexdigest()
                versions.setdefault(module.name, {}).setdefault(digest, []).append(entrant.name)
    return [f"{', '.join(sorted(name for names in found.values() for name in names))} each have their own {module}: "
            "in one process Python imports only the first (play without --no-sandbox, which gives each entrant a "
            "process of its own, or have them rename it)"
            for module, found in sorted(versions.items()) if len(found) > 1]


def drawn_path(store: Path) -> Path:
    """Where a tournament keeps what it drew: beside its store."""
    return store.with_name(store.name + ".tournament.json")


def read_drawn(store: Path) -> dict[str, Any]:
    path = drawn_path(store)
    if not path.exists():
        return {}
    try:
        drawn = json.loads(read_bounded(path, MAX_SOURCE_BYTES).decode("utf-8"))
    except (OSError, ValueError) as error:
        raise ConfigError(f"{path}: cannot read the tournament's drawn seeds: {error}") from None
    if not isinstance(drawn, dict) or not isinstance(drawn.get("mazes", {}), dict):
        raise ConfigError(f"{path}: not a tournament's drawn seeds (a JSON object with seed and mazes)")
    return drawn


def save_drawn(tournament: Tournament) -> None:
    """Keep what was drawn beside the store, before any game is played (written atomically)."""
    path = drawn_path(tournament.experiment.store)
    if read_drawn(tournament.experiment.store) == tournament.drawn:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps(tournament.drawn, indent=1, sort_keys=True) + "\n", "the tournament's drawn seeds",
                     private=True)  # its stream key is a secret


def _stream_key(drawn: dict[str, Any], store: Path) -> bytes:
    """The tournament's secret key for its agents' random streams, drawn once for the store and then reused."""
    text = drawn.setdefault(STREAM_KEY, secrets.token_hex(KEY_BYTES))
    try:
        key = bytes.fromhex(text) if isinstance(text, str) else b""
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise ConfigError(f"{drawn_path(store)}: {STREAM_KEY}: not a stream key ({KEY_BYTES * 2} hexadecimal digits)")
    return key


def _drawn_maze(layout: str, drawn: dict[str, Any], start_distance: Any) -> str:
    """A layout as the experiment takes it: a generated spec without a seed
    gets its seed range, drawn once for the store and then reused."""
    if not is_generated(layout) or "seed=" in layout:
        return layout
    mazes = drawn.setdefault("mazes", {})
    if layout not in mazes:
        parts = [part for part in layout.split(",") if not part.strip().startswith(MAZES_KEY)]
        mazes[layout] = _startable_range(",".join(parts), _maze_count(layout), start_distance)
    return str(mazes[layout])


RANGE_DRAWS = 100
"""Seed ranges drawn at most before the last one is kept (and the experiment's check names its maze)."""


def _startable_range(spec: str, count: int, start_distance: Any) -> str:
    """``spec`` with a secret range of ``count`` seeds in which every maze has a cell to start Pacman on
    ``start_distance`` steps from every ghost (:func:`~pacsim.engine.starts.start_cells`): a range with one
    that has none is drawn again (about one small maze in 300 has none), a rule of the draw that looks at
    no game, where keeping it would refuse the whole tournament.  A ``start_distance`` that is not a whole
    number is the experiment's to refuse."""
    checked = isinstance(start_distance, int) and not isinstance(start_distance, bool)
    candidate = spec
    for _ in range(RANGE_DRAWS):
        first = secrets.randbelow(SEED_BOUND - count)
        candidate = f"{spec},seed={first}-{first + count - 1}"
        try:
            if not checked or all(_has_start(maze, start_distance) for maze in parse_maze_specs(candidate)):
                break
        except ConfigError:
            break  # a spec the experiment refuses, naming its file
    return candidate


def _has_start(maze: Any, start_distance: int) -> bool:
    layout = load_layout(maze.name())  # its spec, one seed
    return bool(start_cells(layout, len(layout.ghost_starts), start_distance))


def _maze_count(layout: str) -> int:
    counts = [part.strip()[len(MAZES_KEY):] for part in layout.split(",") if part.strip().startswith(MAZES_KEY)]
    if not counts:
        return DEFAULT_GENERATED_MAZES
    if not counts[-1].isdigit() or int(counts[-1]) < 1:
        raise ConfigError(f"layout {layout!r}: mazes= must be a whole number of mazes, at least 1")
    return int(counts[-1])


# -- entrants -------------------------------------------------------------

def discover(values: Iterable[str], role: str, snapshots: Path | None = None,
             limits: HandInLimits = DEFAULT_HAND_IN, copy_files: bool = False) -> list[Entrant]:
    """The entrants that ``values`` (paths or agent specs) name, in order, their names unique;
    with ``snapshots``, each folder entrant (and with ``copy_files`` each file
    entrant) plays from its snapshot there (:func:`~pacsim.sandbox.handin.snapshot`,
    within ``limits``).  A sandbox shows an entrant its file's folder: a copy
    apart keeps a single file's neighbours (other students', the store) out of view."""
    files_copied = snapshots if copy_files else None
    entrants = [entrant for value in values for entrant in _entrants_of(value, role, snapshots, limits, files_copied)]
    seen: dict[str, int] = {}
    unique = []
    for entrant in entrants:
        count = seen[entrant.name] = seen.get(entrant.name, 0) + 1
        unique.append(entrant if count == 1 else dataclasses.replace(entrant, name=f"{entrant.name}#{count}"))
    return unique


def _entrants_of(value: str, role: str, snapshots: Path | None, limits: HandInLimits,
                 files_copied: Path | None) -> list[Entrant]:
    path = Path(value)
    if path.is_dir():
        if _python_files(path):
            return [_named(path.name, path) or _prepared(path.name, path, _folder_entrant, path, role, snapshots, limits)]
        folders = sorted(child for child in path.iterdir() if child.is_dir() and not child.name.startswith((".", "_")))
        if not folders:
            return [Entrant(printable(path.name), "", f"{printable(str(path))}: no .py file and no folders in it")]
        return [_named(folder.name, folder)
                or (Entrant(folder.name, "", f"{folder}: a symbolic link, not a folder of its own (not followed)")
                    if folder.is_symlink() else _prepared(folder.name, folder, _folder_entrant, folder, role, snapshots, limits))
                for folder in folders]
    if path.suffix == ".py" and path.exists():
        return [_named(path.stem, path)
                or _prepared(path.stem, path, _from_copy, path.parent, path.name, path.stem, role, files_copied, limits, True)]
    missing = _missing(value, role)
    if missing is not None:
        return [Entrant(printable(value), "", missing)]
    return [_named(value, path) or Entrant(value, value)]  # an agent spec: checked when loaded


def agent_names(role: str) -> list[str]:
    """The agents of ``role`` pacsim knows by name: built in, then installed."""
    return pacman_names() if role == PACMAN else ghost_names()


def is_known_agent(role: str, name: str) -> bool:
    """Whether ``name`` is an agent pacsim can find by name alone (built in, installed, a ghost's CS188
    alias, a CS188 class in this folder's ``*gents.py``), decided without importing anything."""
    return (name in agent_names(role) or (role == GHOST and name in GHOST_ALIASES)
            or bool(cs188_files_defining(name, [Path.cwd()])))


def _named(name: str, where: Path) -> Entrant | None:
    """An entrant refused for its name, when the name holds control characters (a folder named with a
    terminal's escape codes or a newline would rewrite the instructor's screen or forge a board's line);
    None when the name can be shown as it is."""
    if not has_control_characters(name):
        return None
    return Entrant(printable(name), "", f"{printable(str(where))}: its name holds control characters (shown "
                                        "escaped here); rename it with letters, digits and punctuation")


def _missing(value: str, role: str) -> str | None:
    """Why ``value`` names nothing, when it names a file or folder that is not there, or a bare name that is
    neither a file nor a folder nor an agent pacsim knows (a misspelt student folder, say); None when it
    may name an agent (the loader decides)."""
    try:
        parsed = parse_spec(value)
    except AgentError:
        return None
    if plugins.is_file_target(parsed.target):
        return None if Path(parsed.target).expanduser().exists() else "no such file or folder"
    if parsed.attribute is not None or is_known_agent(role, parsed.target):
        return None
    return f"no such file or folder, nor a {role} agent by that name (known: {', '.join(agent_names(role))})"


def _prepared(name: str, where: Path, prepare: Callable[..., Entrant], *arguments: Any) -> Entrant:
    """The entrant ``prepare(*arguments)`` makes; any exception on the way is this entrant's "not played" line,
    never the run's end."""
    try:
        return prepare(*arguments)
    except Exception as error:
        return Entrant(name, "", f"{where}: could not be prepared ({type(error).__name__}: {str(error)[:200]})")


def _python_files(folder: Path) -> list[Path]:
    return sorted(child for child in folder.glob("*.py") if child.is_file())


def _folder_entrant(folder: Path, role: str, snapshots: Path | None, limits: HandInLimits) -> Entrant:
    files = _python_files(folder)
    chosen = [file for file in files if file.name == AGENT_FILE] or files
    if len(chosen) != 1:
        found = "no .py file" if not chosen else f"{len(chosen)} .py files and no {AGENT_FILE}"
        return Entrant(folder.name, "", f"{folder}: {found} (an entrant's folder holds {AGENT_FILE})")
    return _from_copy(folder, chosen[0].name, folder.name, role, snapshots, limits)


def _from_copy(folder: Path, agent_file: str, name: str, role: str, snapshots: Path | None, limits: HandInLimits,
               alone: bool = False) -> Entrant:
    """The entrant ``name`` whose agent is ``folder/agent_file``, playing from its
    snapshot when there are ``snapshots``: copied first, its class then found in
    the copy, so that nothing but the hand-in's own files is read (not a link's target)."""
    original = folder / agent_file
    if snapshots is None:
        return _file_entrant(original, name, role)
    try:
        copied, left_out = snapshot(folder, agent_file, snapshots, limits, alone=alone)
    except FileRefused as error:
        return Entrant(name, "", f"{original if alone else folder}: not copied: {error}")
    except OSError as error:
        return Entrant(name, "", f"{folder}: cannot copy it to {snapshots}: {error.strerror or error}")
    entrant = _file_entrant(copied / agent_file, name, role)
    if entrant.error is not None:  # said of the student's file (the copy has the same lines)
        return dataclasses.replace(entrant, error=entrant.error.replace(str(copied / agent_file), str(original)))
    return dataclasses.replace(entrant, left_out=tuple(left_out))


def snapshots_folder(store: Path) -> Path:
    """Where a tournament keeps its folder entrants' snapshots: beside its store."""
    return store.with_name(store.name + ".entrants")


def _file_entrant(path: Path, name: str, role: str) -> Entrant:
    try:
        class_name = agent_class_name(path, role)
    except AgentError as error:
        return Entrant(name, "", str(error))
    return Entrant(name, f"{path}:{class_name}")


def agent_class_name(path: Path, role: str) -> str:
    """The agent class of an entrant's file, found by reading it (see the module's docstring)."""
    variable = "PACMAN" if role == PACMAN else "GHOST"
    try:
        source = read_bounded(path, MAX_AGENT_FILE_BYTES)
    except (OSError, FileRefused) as error:
        raise AgentError(f"{path}: cannot read it: {error}") from None
    try:
        tree = ast.parse(source, filename=str(path))
    except SyntaxError as error:
        raise AgentError(f"{path}:{error.lineno}: syntax error: {error.msg}") from None
    except (MemoryError, RecursionError) as error:  # the parser's own limits: nesting, or a chain of operators
        raise AgentError(f"{path}: nested too deeply to read ({type(error).__name__}); "
                         "split its expressions") from None
    except ValueError as error:  # a null byte, say
        raise AgentError(f"{path}: cannot read it: {error}") from None
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Name) and any(
                isinstance(target, ast.Name) and target.id == variable for target in statement.targets):
            return statement.value.id
    agents = [statement.name for statement in tree.body
              if isinstance(statement, ast.ClassDef) and any(_names_agent(base) for base in statement.bases)]
    if len(agents) != 1:
        found = "no agent class" if not agents else f"{len(agents)} agent classes ({', '.join(agents)})"
        raise AgentError(f"{path}: {found}; name the entrant's class at its top level: {variable} = ClassName")
    return agents[0]


def _names_agent(base: ast.expr) -> bool:
    name = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
    if isinstance(base, ast.Subscript):  # Agent[Options]
        return _names_agent(base.value)
    return name.endswith("Agent")


def _loaded(entrants: Sequence[Entrant], role: str, sandbox: dict[str, Any]) -> list[Entrant]:
    """``entrants`` with the error of each that cannot be built (it gets no games; the others play).

    Each is checked as the tournament's experiment will build it: an
    experiment of it alone (against a built-in opponent), sandboxed as the
    tournament is, so an entrant's code runs nowhere the tournament's would not."""
    checked = []
    for entrant in entrants:
        if entrant.error is None:
            grid = {"pacman": [CHECK_OPPONENTS[PACMAN]], "ghosts": [CHECK_OPPONENTS[GHOST]], "layout": [CHECK_LAYOUT]}
            grid["pacman" if role == PACMAN else "ghosts"] = [entrant.spec]
            source = f"entrant {entrant.name}"
            try:
                build_experiment({"name": "check", "games": 1, "grid": grid, **sandbox}, source)
            except ConfigError as error:
                reason = str(error).removeprefix(f"{source}: grid.{'pacman' if role == PACMAN else 'ghosts'}: ")
                entrant = Entrant(entrant.name, entrant.spec, reason)
        checked.append(entrant)
    return checked
