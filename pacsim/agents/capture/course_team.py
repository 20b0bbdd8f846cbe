"""Unmodified course team files (``myTeam.py`` with ``createTeam``; UPF's ``my_team.py``
with ``create_team``) as pacsim teams.

The file is imported with pacsim's own ``captureAgents``, ``distanceCalculator``,
``game``, ``util`` and ``capture`` modules (:mod:`pacsim.agents.capture.course`)
under those names (and UPF's: ``capture_agents``, ``distance_calculator``,
``contest.*``, :data:`~pacsim.agents.capture.course.UPF_MODULES`), and its folder first on ``sys.path`` (for its own helper
modules).  The names are put back as they were afterwards, so that a CS188
single-agent project's own ``util`` in the same process is not shadowed;
they are put in place again around every call into the team's code, for
the imports a team makes late.

Randomness: course agents draw from Python's global :mod:`random`, so each
game seeds it from the team's own stream (as pacsim's CS188 adapter does).
"""

from __future__ import annotations

import importlib
import random
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from pacsim.agents import plugins
from pacsim.agents.capture.course import CONTEST_MODULES, COURSE_MODULES, UPF_MODULES
from pacsim.agents.capture.course.gamestate import GameState
from pacsim.engine.capture.game import CaptureTeam
from pacsim.engine.capture.observation import CaptureView
from pacsim.errors import AgentError


@contextmanager
def course_names(upf: bool = False) -> Iterator[None]:
    """pacsim's course modules under the course's names (and UPF's), for the duration; for a UPF
    file (``upf``), its own ``CaptureAgent`` under the camelCase name too (UPF's 2022-23 ``captureAgents``)."""
    modules = _course_modules(upf)
    saved = {name: sys.modules.get(name) for name in modules}
    sys.modules.update(modules)
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


@cache
def _course_modules(upf: bool) -> dict[str, ModuleType]:
    """Each name a team file imports, and its module: the course's, UPF's bare ones, and UPF's ``contest`` package
    (with its older camelCase file names)."""
    def ours(name: str) -> ModuleType:
        return importlib.import_module(f"pacsim.agents.capture.course.{name}")

    modules = {name: ours(name) for name in COURSE_MODULES}
    contest = ModuleType("contest", "UPF's framework package, as pacsim provides it")
    contest.__path__ = []  # a package, whose modules are all in sys.modules already
    modules["contest"] = contest
    for name, module_name in UPF_MODULES.items():
        module = modules[name] = ours(module_name)
        modules[f"contest.{name}"] = module
        setattr(contest, name, module)
    for name, module_name in CONTEST_MODULES.items():
        module = modules[f"contest.{name}"] = ours(module_name)
        setattr(contest, name, module)
    if upf:
        modules["captureAgents"] = modules["capture_agents"]
    return modules


def is_upf_file(path: Path) -> bool:
    """Whether a team file is UPF's: it defines ``create_team`` and no ``createTeam`` (read, not imported)."""
    try:
        source = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return bool(re.search(r"^def\s+create_team\s*\(", source, re.MULTILINE)) and not re.search(
        r"^def\s+createTeam\s*\(", source, re.MULTILINE)


def load_team_module(path: Path) -> ModuleType:
    """Import a course team file; an :class:`AgentError` when it fails or has no ``createTeam``."""
    if not path.is_file():
        raise AgentError(f"{path}: no such team file")
    with course_names(is_upf_file(path)):
        module = plugins.execute_file(path.resolve(), f"pacsim_capture_team_{path.stem}", str(path))
    if not callable(team_maker(module)):
        raise AgentError(f"{path}: defines no createTeam(firstIndex, secondIndex, isRed, ...) (nor UPF's create_team): "
                         "not a capture team file")
    return module


def team_maker(module: ModuleType) -> Any:
    """The file's ``createTeam``, or UPF's ``create_team``."""
    return getattr(module, "createTeam", None) or getattr(module, "create_team", None)


class CourseTeam(CaptureTeam):
    """The two agents a course team file's ``createTeam`` makes, as one pacsim team."""

    def __init__(self, path: Path, is_red: bool, options: dict[str, str] | None = None) -> None:
        self.path = path.resolve()
        self.name = path.stem
        self.upf = is_upf_file(self.path)
        module = load_team_module(path)
        first, second = (0, 2) if is_red else (1, 3)
        with self._course_code():
            try:
                agents = list(team_maker(module)(first, second, is_red, **(options or {})))
            except Exception as error:
                raise AgentError(f"{path}: {team_maker(module).__name__} raised {plugins.describe_error(error)}") from None
        if len(agents) != 2:
            raise AgentError(f"{path}: {team_maker(module).__name__} made {len(agents)} agents; a team has 2")
        self.agents = {first: agents[0], second: agents[1]}

    @contextmanager
    def _course_code(self) -> Iterator[None]:
        with course_names(self.upf), plugins.folder_first(self.path.parent):
            yield

    def prepare(self, rng: random.Random) -> None:
        random.seed(rng.getrandbits(64))

    def start(self, index: int, view: CaptureView) -> None:
        agent = self.agents[index]
        register = getattr(agent, "registerInitialState", None)
        if callable(register):
            with self._course_code():
                register(GameState.of_view(view))

    def act(self, index: int, view: CaptureView) -> str:
        agent = self.agents[index]
        state: Any = GameState.of_view(view)
        with self._course_code():
            observe = getattr(agent, "observationFunction", None)
            if callable(observe):
                state = observe(state)
            return agent.getAction(state)

    def finish(self, index: int, view: CaptureView) -> None:
        final = getattr(self.agents[index], "final", None)
        if callable(final):
            with self._course_code():
                final(GameState.of_view(view))

    def debug_marks(self, index: int) -> list[Any]:
        """What agent ``index`` drew with ``debugDraw`` (its last marks)."""
        return list(getattr(self.agents[index], "debug_marks", []))
