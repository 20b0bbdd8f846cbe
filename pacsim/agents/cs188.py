"""CS188 agents, unchanged: a class with ``getAction(gameState)`` plays in pacsim.

UC Berkeley's CS188 Pacman projects have students write agents against the
course's ``GameState``.  This module runs such a class as a pacsim agent:

* :func:`is_cs188_agent_class` recognises it (``getAction``, or
  ``getDistribution`` for a ghost);
* :func:`import_cs188_file` imports its file with the file's folder first on
  ``sys.path``, so ``import util``, ``from game import Agent`` and
  ``from pacman import GameState`` find the user's own course files;
* :func:`wrap_cs188_agent` constructs it with CS188-style string options
  (``depth='3'``, ``evalFn='better'``: the course's own code turns the name
  into a function with its ``util.lookup``) and returns a pacsim agent that
  hands it a :class:`~pacsim.agents.cs188_state.Cs188GameState`;
* :func:`find_cs188_class` is CS188's ``-p ClassName`` lookup in
  ``*gents.py`` files; :data:`GHOST_ALIASES` maps ``RandomGhost`` and
  ``DirectionalGhost`` to pacsim's own ghosts, :data:`PACMAN_ALIASES`
  ``KeyboardAgent`` to pacsim's keyboard Pacman.

Randomness: course agents draw from Python's global :mod:`random`
(``random.choice`` among equally good moves).  So that a game stays a pure
function of its seed, :meth:`Cs188Agent.reset` seeds the global generator
from the agent's own pacsim stream before every game.  This touches global
state: code elsewhere in the process that uses the global generator sees
it reseeded.
"""

from __future__ import annotations

import importlib
import inspect
import math
import random
import re
import sys
import time
from contextlib import suppress
from pathlib import Path
from types import ModuleType
from typing import Any

from pacsim.agents import plugins
from pacsim.agents.api import Agent, Distribution, MoveStats, OptionInfo, StochasticAgent
from pacsim.agents.cs188_state import Cs188GameState, SuccessorCounter, distribution_items
from pacsim.engine import GameState
from pacsim.errors import AgentError
from pacsim.search import SearchResult, SearchStats

PACMAN_ALIASES = {"KeyboardAgent": "keyboard"}
"""CS188 Pacman class names that mean pacsim's own Pacman (``-p KeyboardAgent``,
the course's default): the course's class needs its Tk window, pacsim's reads
the pygame window's arrows and WASD, or w/a/s/d + Enter in a terminal."""

GHOST_ALIASES = {"RandomGhost": "random", "DirectionalGhost": "directional"}
"""CS188 ghost class names that mean pacsim's own ghosts (``-g DirectionalGhost``).
pacsim's directional ghost measures maze distance where CS188's measures
Manhattan distance; run the course's ``ghostAgents.py:DirectionalGhost`` for
the course's exact ghost."""

AGENT_FILE_PATTERN = "*gents.py"
"""Files CS188's ``pacman.py`` searches for ``-p ClassName``."""


def is_cs188_agent_class(cls: object) -> bool:
    """Whether ``cls`` is a class written against CS188's API: it has
    ``getAction`` (any agent) or ``getDistribution`` (a ghost)."""
    return isinstance(cls, type) and any(
        callable(getattr(cls, method, None)) for method in ("getAction", "getDistribution")
    )


def is_cs188_ghost_class(cls: object) -> bool:
    """Whether ``cls`` is a CS188 ghost: it gives its move distribution."""
    return isinstance(cls, type) and callable(getattr(cls, "getDistribution", None))


# -- importing course files ------------------------------------------------------------


def import_cs188_file(path: str | Path) -> ModuleType:
    """Import a course file as a module named after it (``multiAgents``), with
    its folder first on ``sys.path``.  Modules of the same names loaded from
    another folder (another course copy's ``util``) are forgotten first, so
    the file's imports resolve to its own siblings.  Raises
    :class:`AgentError` naming the file for a missing file or one that fails
    to import."""
    path = Path(path).resolve()
    if not path.is_file():
        raise AgentError(f"{path}: no such file")
    name = path.stem
    loaded = sys.modules.get(name)
    if loaded is not None and _module_file(loaded) == path:
        return loaded
    _COURSE_FOLDERS.add(path.parent)
    forget_foreign_siblings(path.parent)
    if name in sys.modules:  # a module pacsim uses (numpy.py as an agent file): never replace it
        _say_skipped(path, name)
        name = f"pacsim_course_{name}"
    return plugins.execute_file(path, name, str(path))


def _module_file(module: ModuleType) -> Path | None:
    file = getattr(module, "__file__", None)
    return Path(file).resolve() if file else None


_COURSE_FOLDERS: set[Path] = set()
"""Folders whose files were imported as course code (their siblings too)."""
_said: set[Path] = set()
LATER_IMPORTS = ("numpy", "numba")
"""Modules pacsim imports on first use (a kernel search, a user's ghost), not at start-up."""


def forget_foreign_siblings(folder: Path) -> None:
    """Forget modules named like a ``.py`` file of ``folder`` but loaded from
    another course folder (another course copy's ``util``), so that importing
    a file of ``folder`` next finds its own siblings.  A module loaded from
    anywhere else (the standard library, numpy, pacsim) is one pacsim may be
    using: it is kept, and the course file of that name is said to be
    skipped (unloading numpy would break every built-in agent).  numpy and
    numba, which pacsim imports only once it needs them, are imported first
    when the folder holds a file of that name, so that they stay pacsim's."""
    for sibling in folder.glob("*.py"):
        name = sibling.stem
        if name in LATER_IMPORTS and name not in sys.modules:
            with suppress(ImportError):  # not installed: nothing of pacsim's to keep
                importlib.import_module(name)
        module = sys.modules.get(name)
        if module is None:
            continue
        file = _module_file(module)
        if file == sibling.resolve():
            continue
        if file is not None and file.parent in _COURSE_FOLDERS:
            del sys.modules[name]
        else:
            _say_skipped(sibling, name)


def _say_skipped(course_file: Path, name: str) -> None:
    if course_file not in _said:
        _said.add(course_file)
        print(f"pacsim: course file {course_file} is not used: pacsim already uses a module named {name}", file=sys.stderr)


def find_cs188_class(name: str, folders: list[Path]) -> tuple[Path, type] | None:
    """CS188's ``-p ClassName``: the first ``*gents.py`` file in ``folders``
    (in order, files sorted by name) that defines class ``name``.

    Files are scanned as text first, so only the file that defines the class
    is imported (CS188 imports every such file).  Returns ``(file, class)``,
    or None when no file defines it.
    """
    for path in cs188_files_defining(name, folders):
        found = getattr(import_cs188_file(path), name, None)
        if isinstance(found, type):
            return path.resolve(), found
    return None


def cs188_files_defining(name: str, folders: list[Path]) -> list[Path]:
    """The ``*gents.py`` files in ``folders`` (in order, files sorted by name)
    whose text defines class ``name`` at its top level: read, not imported."""
    definition = re.compile(rf"^class\s+{re.escape(name)}\b", re.MULTILINE)
    found = []
    for folder in folders:
        for path in sorted(Path(folder).glob(AGENT_FILE_PATTERN)):
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            if definition.search(text):
                found.append(path)
    return found


# -- the wrapper -----------------------------------------------------------------------


def wrap_cs188_agent(cls: type, options: dict[str, Any], source_file: str | Path | None) -> Cs188Agent:
    """A pacsim agent playing CS188 class ``cls``, constructed now with
    ``options`` turned into strings (as CS188's ``-a`` passes them).

    A ghost class (with ``getDistribution``) becomes a :class:`Cs188Ghost`,
    usable as an expectimax Pacman's ghost model.  Raises
    :class:`AgentError` for an option the constructor does not take or a
    constructor that raises.
    """
    if not is_cs188_agent_class(cls):
        raise AgentError(f"{cls!r} is not a CS188 agent class (it has neither getAction nor getDistribution)")
    wrapper = Cs188Ghost if is_cs188_ghost_class(cls) else Cs188Agent
    return wrapper(cls, options, source_file)


class Cs188Agent(Agent):
    """A CS188 agent object behind pacsim's agent interface.

    ``get_action`` calls the course agent's ``getAction`` with a
    :class:`Cs188GameState`; ``registerInitialState`` (course search agents
    use it) is called before the first move of each game,
    ``observationFunction`` before every move and ``final`` after the game,
    as the course's game loop calls them (its reinforcement agents learn there).  ``last_stats``
    reports the successors the agent generated and its time.  Exceptions
    from the course code propagate: the game loop ends that game as an
    ``error``.
    """

    name = "cs188"

    def __init__(self, cls: type, options: dict[str, Any] | None = None, source_file: str | Path | None = None) -> None:
        super().__init__()
        self.agent_class = cls
        # Strings, as CS188's -a gives them (an experiment grid may hold numbers).
        self.course_options = {key: str(value) for key, value in (options or {}).items()}
        self.source_file = Path(source_file).resolve() if source_file is not None else None
        self.folder = self.source_file.parent if self.source_file is not None else None
        self.class_name = cls.__name__
        with plugins.folder_first(self.folder):
            self.course_agent = _construct(cls, self.course_options, self.where, default_index=self.default_index)
        self._needs_initial_state = True

    default_index = 0
    """The ``index`` passed to a constructor that requires one."""

    @property
    def where(self) -> str:
        """How messages name this agent: ``file.py:Class``."""
        prefix = f"{self.source_file}:" if self.source_file is not None else ""
        return f"{prefix}{self.agent_class.__name__}"

    def reset(self, index: int, rng: random.Random) -> None:
        """Take the game's index and stream, and seed Python's global
        ``random`` from that stream (course agents call ``random.choice``)."""
        super().reset(index, rng)
        random.seed(rng.getrandbits(64))
        self._set_index(index)
        self._needs_initial_state = True

    def get_action(self, state: GameState) -> str:
        action, generated, seconds = self._course_action(state, observe=True)
        self.last_stats = MoveStats(generated=generated, seconds=seconds)
        return action

    def final(self, state: GameState) -> None:
        """The course agent's ``final(state)``, as CS188's game loop calls it at the end."""
        final = getattr(self.course_agent, "final", None)
        if callable(final):
            with plugins.folder_first(self.folder):
                final(Cs188GameState(state))

    def analyze(self, state: GameState, depth: int | None = None, root_values: bool = True) -> SearchResult:
        """What ``pacsim analyze`` can learn of a course agent: the move it
        plays and the successors it generated.  Its values stay inside its
        own code, so ``value`` is NaN and ``action_values`` is empty."""
        action, generated, seconds = self._course_action(state)
        stats = SearchStats(generated=generated, evaluated=0, cutoffs=0, seconds=seconds, max_depth=0)
        return SearchResult(value=math.nan, action=action, stats=stats)

    def _course_action(self, state: GameState, observe: bool = False) -> tuple[str, int, float]:
        """The course agent's ``getAction``, the successors it generated and its time.

        ``observe``: in a game, as CS188's loop does, the agent's
        ``observationFunction(state)`` (a learning agent learns from the
        last transition there) comes first and its result is what
        ``getAction`` sees; ``analyze`` only asks for a move."""
        counter = SuccessorCounter()
        view: Any = Cs188GameState(state, counter)
        started = time.perf_counter()
        with plugins.folder_first(self.folder):
            if self._needs_initial_state:
                self._needs_initial_state = False
                register = getattr(self.course_agent, "registerInitialState", None)
                if callable(register):
                    register(view)
            observation = getattr(self.course_agent, "observationFunction", None)
            if observe and callable(observation):
                view = observation(view)
            action = self.course_agent.getAction(view)
        return action, counter.count, time.perf_counter() - started

    def _set_index(self, index: int) -> None:
        # CS188 agents keep their agent index in self.index (ghosts read their own state with it).
        with suppress(AttributeError):  # a class with slots or a read-only index knows better
            self.course_agent.index = index


class Cs188Ghost(Cs188Agent, StochasticAgent):
    """A CS188 ghost (``getDistribution``): plays by its own ``getAction``
    (sampling from its distribution with the global ``random``, seeded per
    game) and gives ``distribution(state)`` to Pacmen that model it."""

    default_index = 1

    def get_action(self, state: GameState) -> str:
        if callable(getattr(self.course_agent, "getAction", None)):
            self._set_index(state.turn)
            return super().get_action(state)
        return StochasticAgent.get_action(self, state)

    def distribution(self, state: GameState) -> Distribution:
        """The course ghost's move probabilities in ``state`` for the ghost to
        move, over its legal actions in CS188 order (missing ones get 0)."""
        self._set_index(state.turn)
        with plugins.folder_first(self.folder):
            given = distribution_items(self.course_agent.getDistribution(Cs188GameState(state)))
        legal = state.legal_actions()
        probabilities: dict[str, float] = {}
        for action, probability in given:
            if action not in legal:
                raise ValueError(f"{self.where}.getDistribution gave illegal action {action!r}; legal: {legal}")
            probabilities[action] = probabilities.get(action, 0.0) + probability
        total = sum(probabilities.values())
        if total <= 0:
            raise ValueError(f"{self.where}.getDistribution gave no probability to any move")
        return [(action, probabilities.get(action, 0.0) / total) for action in legal]


def constructor_options(cls: type) -> list[OptionInfo]:
    """A course class's options, as ``pacsim agents`` shows them: its
    constructor's keyword arguments (but ``index``, which pacsim passes),
    each given as a string as CS188's ``-a`` gives it."""
    try:
        parameters = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):  # no signature to read
        return []
    return [OptionInfo(parameter.name, "str", None if parameter.default is parameter.empty else parameter.default,
                       "required" if parameter.default is parameter.empty else "")
            for parameter in parameters
            if parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY) and parameter.name != "index"]


def _construct(cls: type, options: dict[str, str], where: str, default_index: int) -> Any:
    """``cls(**options)``, checking the names first and passing ``index``
    when the constructor requires one (CS188 ghosts do)."""
    arguments: dict[str, Any] = dict(options)
    try:
        parameters = inspect.signature(cls).parameters
    except (TypeError, ValueError):  # no signature to check: let the call decide
        parameters = None
    if parameters is not None:
        takes_any = any(parameter.kind is parameter.VAR_KEYWORD for parameter in parameters.values())
        named = [key for key, parameter in parameters.items()
                 if parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY)]
        unknown = [key for key in options if key not in named]
        if unknown and not takes_any:
            raise AgentError(f"{where}: unknown option {unknown[0]!r} (options: {', '.join(named) or 'none'})",
                             option=unknown[0])
        index = parameters.get("index")
        if index is not None and index.default is index.empty and "index" not in arguments:
            arguments["index"] = default_index
    try:
        return cls(**arguments)
    except Exception as error:
        raise AgentError(f"{where}: constructing it raised {plugins.describe_error(error)}") from None
