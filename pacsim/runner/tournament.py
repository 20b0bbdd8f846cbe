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
so nobody can learn them beforehand; the games' root seed too.  What was
drawn is kept beside the store (``STORE.tournament.json``), so a resumed run
plays the same mazes and starts.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import secrets
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pacsim.agents import plugins
from pacsim.agents.registry import GHOST, PACMAN
from pacsim.engine.generate import is_generated
from pacsim.engine.starts import RANDOM
from pacsim.errors import AgentError, ConfigError
from pacsim.files import FileRefused, read_bounded, write_atomically
from pacsim.runner.experiment import Experiment, build_experiment
from pacsim.runner.experiment_file import read_toml

TOURNAMENT_KEYS = ("name", "pairs", "seed", "max_moves", "time_limit", "store", "sandbox", "pacman", "ghosts",
                   "layouts", "start_distance")
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
"""Largest entrant file read to find its class."""
CHECK_OPPONENTS = {PACMAN: "greedy", GHOST: "random"}
CHECK_LAYOUT = "tinyGhostMaze"
"""An entrant is checked in an experiment of its own, against the built-in opponent, on this shipped maze."""
MAX_SNAPSHOT_FILES = 1000
MAX_SNAPSHOT_BYTES = 64 << 20
"""Most files, and largest file, of an entrant's folder copied for its games."""
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

    def names(self, role: str) -> dict[str, str]:
        """Agent spec -> entrant name, for the entrants of ``role`` that play."""
        entrants = self.pacmen if role == PACMAN else self.ghosts
        return {entrant.spec: entrant.name for entrant in entrants if entrant.error is None}

    @property
    def refused(self) -> list[Entrant]:
        return [entrant for entrant in (*self.pacmen, *self.ghosts) if entrant.error is not None]


def sandbox_settings(sandboxed: bool) -> dict[str, Any]:
    """The experiment keys that run entrants sandboxed or not (the one place
    a tournament meets the sandbox: :mod:`pacsim.agents.sandbox`)."""
    return {SANDBOX_KEY: sandboxed}


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
    sandbox = sandbox_settings(bool(settings.get("sandbox", sandboxed)))  # refused before any entrant's code runs
    snapshots = snapshots_folder(store)
    pacmen = _loaded(discover(settings["pacman"], PACMAN, snapshots), PACMAN, sandbox)
    ghosts = _loaded(discover(settings.get("ghosts") or list(DEFAULT_GHOSTS), GHOST, snapshots), GHOST, sandbox)
    for role, entrants in ((PACMAN, pacmen), (GHOST, ghosts)):
        if not any(entrant.error is None for entrant in entrants):
            raise ConfigError(f"{source}: no {role} entrant loads; the first: {entrants[0].name}: {entrants[0].error}")
    drawn = read_drawn(store)
    layouts = [_drawn_maze(layout, drawn) for layout in settings.get("layouts") or DEFAULT_LAYOUTS]
    seed = settings.get("seed")
    if seed is None:
        seed = drawn.setdefault("seed", secrets.randbelow(SEED_BOUND))
    raw: dict[str, Any] = {
        "name": name, "games": settings.get("pairs", DEFAULT_PAIRS), "seed": seed, "store": str(store),
        "starts": RANDOM,
        "grid": {"pacman": [entrant.spec for entrant in pacmen if entrant.error is None],
                 "ghosts": [entrant.spec for entrant in ghosts if entrant.error is None],
                 "layout": layouts},
        **{key: settings[key] for key in ("max_moves", "time_limit", "start_distance") if key in settings},
        **sandbox,
    }
    experiment = build_experiment(raw, source, default_name=name)
    return Tournament(experiment=experiment, pacmen=pacmen, ghosts=ghosts, drawn=drawn,
                      notes=module_clashes([*pacmen, *ghosts]))


def module_clashes(entrants: Sequence[Entrant]) -> list[str]:
    """One line per module name that entrants' folders hold with different
    contents (``util.py``, say): an agent file imports its neighbours by bare
    name, so in one process the first imported serves every entrant."""
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
            "in one process Python imports only the first (sandbox the tournament, or have them rename it)"
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
    write_atomically(path, json.dumps(tournament.drawn, indent=1, sort_keys=True) + "\n", "the tournament's drawn seeds")


def _drawn_maze(layout: str, drawn: dict[str, Any]) -> str:
    """A layout as the experiment takes it: a generated spec without a seed
    gets its seed range, drawn once for the store and then reused."""
    if not is_generated(layout) or "seed=" in layout:
        return layout
    mazes = drawn.setdefault("mazes", {})
    if layout not in mazes:
        parts = [part for part in layout.split(",") if not part.strip().startswith(MAZES_KEY)]
        count = _maze_count(layout)
        first = secrets.randbelow(SEED_BOUND - count)
        mazes[layout] = ",".join(parts) + f",seed={first}-{first + count - 1}"
    return str(mazes[layout])


def _maze_count(layout: str) -> int:
    counts = [part.strip()[len(MAZES_KEY):] for part in layout.split(",") if part.strip().startswith(MAZES_KEY)]
    if not counts:
        return DEFAULT_GENERATED_MAZES
    if not counts[-1].isdigit() or int(counts[-1]) < 1:
        raise ConfigError(f"layout {layout!r}: mazes= must be a whole number of mazes, at least 1")
    return int(counts[-1])


# -- entrants -------------------------------------------------------------

def discover(values: Iterable[str], role: str, snapshots: Path | None = None) -> list[Entrant]:
    """The entrants that ``values`` (paths or agent specs) name, in order, their names unique;
    with ``snapshots``, each folder entrant plays from its snapshot there (:func:`snapshot`)."""
    entrants = [entrant for value in values for entrant in _entrants_of(value, role, snapshots)]
    seen: dict[str, int] = {}
    unique = []
    for entrant in entrants:
        count = seen[entrant.name] = seen.get(entrant.name, 0) + 1
        unique.append(entrant if count == 1 else Entrant(f"{entrant.name}#{count}", entrant.spec, entrant.error))
    return unique


def _entrants_of(value: str, role: str, snapshots: Path | None) -> list[Entrant]:
    path = Path(value)
    if path.is_dir():
        if _python_files(path):
            return [_folder_entrant(path, role, snapshots)]
        folders = sorted(child for child in path.iterdir() if child.is_dir() and not child.name.startswith((".", "_")))
        if not folders:
            return [Entrant(path.name, "", f"{path}: no .py file and no folders in it")]
        return [_folder_entrant(folder, role, snapshots) for folder in folders]
    if path.suffix == ".py":
        return [_file_entrant(path, path.stem, role)]
    return [Entrant(value, value)]  # an agent spec: checked when loaded


def _python_files(folder: Path) -> list[Path]:
    return sorted(child for child in folder.glob("*.py") if child.is_file())


def _folder_entrant(folder: Path, role: str, snapshots: Path | None) -> Entrant:
    files = _python_files(folder)
    chosen = [file for file in files if file.name == AGENT_FILE] or files
    if len(chosen) != 1:
        found = "no .py file" if not chosen else f"{len(chosen)} .py files and no {AGENT_FILE}"
        return Entrant(folder.name, "", f"{folder}: {found} (an entrant's folder holds {AGENT_FILE})")
    entrant = _file_entrant(chosen[0], folder.name, role)
    if entrant.error is not None or snapshots is None:
        return entrant
    try:
        copy = snapshot(folder, chosen[0].name, snapshots)
    except (OSError, FileRefused) as error:
        return Entrant(entrant.name, "", f"{folder}: cannot copy it to {snapshots}: {error}")
    return Entrant(entrant.name, f"{copy / chosen[0].name}:{entrant.spec.rpartition(':')[2]}")


def snapshots_folder(store: Path) -> Path:
    """Where a tournament keeps its folder entrants' snapshots: beside its store."""
    return store.with_name(store.name + ".entrants")


def snapshot(folder: Path, agent_file: str, snapshots: Path) -> Path:
    """A copy of an entrant's folder in ``snapshots``, which its games play.

    Its place depends on the folder alone (so the tournament's configuration
    does not change), its agent file ends in a comment with a hash of every
    file of the folder: an edit to any of them (a helper module, a weights
    file) changes the agent file's code identity, so that entrant's games,
    and only its, are played again; an unchanged folder keeps its copy."""
    files = [path for path in sorted(folder.rglob("*")) if path.is_file() and not _hidden(path.relative_to(folder))]
    if len(files) > MAX_SNAPSHOT_FILES:
        raise FileRefused(f"more than {MAX_SNAPSHOT_FILES} files")
    contents = {path.relative_to(folder).as_posix(): read_bounded(path, MAX_SNAPSHOT_BYTES) for path in files}
    digest = hashlib.sha256()
    for name, content in contents.items():
        digest.update(f"{name}\0{len(content)}\0".encode() + content)
    contents[agent_file] += f"\n# pacsim tournament: a copy of {folder.resolve()}, sha256 {digest.hexdigest()}\n".encode()
    where = hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:8]
    target = (snapshots / f"{folder.name}-{where}").resolve()
    if (target / agent_file).is_file() and (target / agent_file).read_bytes() == contents[agent_file]:
        return target
    temporary = snapshots / f".{target.name}.{secrets.token_hex(4)}.tmp"
    for name, content in contents.items():
        (temporary / name).parent.mkdir(parents=True, exist_ok=True)
        (temporary / name).write_bytes(content)
    # Swapped in by renames: a run killed half-way leaves the old copy, or none (made again next run), never a mix.
    old = snapshots / f".{target.name}.{secrets.token_hex(4)}.old"
    if target.exists():
        os.rename(target, old)
    os.rename(temporary, target)
    shutil.rmtree(old, ignore_errors=True)
    return target


def _hidden(relative: Path) -> bool:
    return any(part.startswith(".") or part == "__pycache__" for part in relative.parts)


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
        tree = ast.parse(read_bounded(path, MAX_SOURCE_BYTES), filename=str(path))
    except SyntaxError as error:
        raise AgentError(f"{path}:{error.lineno}: syntax error: {error.msg}") from None
    except (OSError, ValueError) as error:
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
