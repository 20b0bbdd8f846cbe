"""UPF's Python 3 framework's snake_case names (``from contest.capture_agents import CaptureAgent``,
``create_team``, ``register_initial_state``, ``choose_action``, ``game_state.get_agent_state(i).is_pacman``)
over the same course modules, as cheaply as it can be done.

Nothing is written twice: a snake_case name is its camelCase name with the
underscores folded (``get_maze_distance`` is ``getMazeDistance``).  A snake
team's agents subclass :class:`CaptureAgent` here, whose unknown attributes
are looked up that way; every object handed to them goes through
:class:`Snake`, a proxy that does the same for the object and whatever its
methods and attributes return.  The ``contest`` package's modules are made
from the camelCase ones with a snake_case alias beside each name.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any

from pacsim.agents.capture.course import capture, captureAgents, distanceCalculator, game, util

_PLAIN = (int, float, str, bool, bytes, type(None), tuple)
"""Values handed back as they are (positions are tuples of numbers)."""


def camel(name: str) -> str:
    """``get_maze_distance`` -> ``getMazeDistance`` (a camelCase name is left as it is)."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest) if rest and head else name


def snake(name: str) -> str:
    """``getMazeDistance`` -> ``get_maze_distance``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def wrap(value: Any) -> Any:
    """``value`` with snake_case names: plain values as they are, lists element by element, objects proxied."""
    if isinstance(value, (*_PLAIN, dict, Snake, type)):  # dicts: the Counters a team builds itself
        return value
    if isinstance(value, list):
        return [wrap(item) for item in value]
    return Snake(value)


def unwrap(value: Any) -> Any:
    return object.__getattribute__(value, "_target") if isinstance(value, Snake) else value


class Snake:
    """An object of the course modules seen through snake_case names (and its camelCase ones)."""

    __slots__ = ("_target",)

    def __init__(self, target: Any) -> None:
        object.__setattr__(self, "_target", target)

    def __getattr__(self, name: str) -> Any:
        target = object.__getattribute__(self, "_target")
        found = getattr(target, name) if hasattr(target, name) else getattr(target, camel(name))
        if callable(found) and not isinstance(found, type):
            return lambda *arguments, **keywords: wrap(found(*map(unwrap, arguments), **keywords))
        return wrap(found)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(object.__getattribute__(self, "_target"), name, value)

    def __getitem__(self, key: Any) -> Any:
        return wrap(unwrap(self)[key])

    def __len__(self) -> int:
        return len(unwrap(self))

    def __iter__(self) -> Any:
        return (wrap(item) for item in unwrap(self))

    def __eq__(self, other: object) -> bool:
        return bool(unwrap(self) == unwrap(other))

    def __hash__(self) -> int:
        return hash(unwrap(self))

    def __str__(self) -> str:
        return str(unwrap(self))

    def __mul__(self, other: Any) -> Any:
        return wrap(unwrap(self) * unwrap(other))


class CaptureAgent(captureAgents.CaptureAgent):
    """UPF's ``CaptureAgent``: ``register_initial_state``, ``choose_action``, and every other
    method by its snake_case name; pacsim's adapter calls it by the camelCase ones."""

    def __init__(self, index: int, time_for_computing: float = 0.1) -> None:
        super().__init__(index, time_for_computing)

    def __getattr__(self, name: str) -> Any:
        converted = camel(name)
        if converted != name:
            try:
                return object.__getattribute__(self, converted)
            except AttributeError:
                pass
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def registerInitialState(self, gameState: Any) -> None:
        self.register_initial_state(wrap(gameState))

    def register_initial_state(self, game_state: Any) -> None:
        captureAgents.CaptureAgent.registerInitialState(self, unwrap(game_state))

    def getAction(self, gameState: Any) -> str:
        return str(self.get_action(wrap(gameState)))

    def get_action(self, game_state: Any) -> str:
        self.observationHistory.append(game_state)
        return str(self.choose_action(game_state))

    def chooseAction(self, gameState: Any) -> str:
        return str(self.choose_action(wrap(gameState)))

    def choose_action(self, game_state: Any) -> str:
        util.raiseNotDefined()
        raise NotImplementedError

    def final(self, game_state: Any) -> None:
        self.observationHistory = []


class Counter(util.Counter):
    """The course's ``Counter`` with ``arg_max``, ``total_count`` and the rest."""

    def __getattr__(self, name: str) -> Any:
        converted = camel(name)
        if converted == name:
            raise AttributeError(name)
        return getattr(self, converted)


def _snake_module(name: str, source: ModuleType, extra: dict[str, Any] | None = None) -> ModuleType:
    """A module of ``source``'s public names, each also under its snake_case name."""
    module = ModuleType(name, source.__doc__)
    for attribute, value in vars(source).items():
        if not attribute.startswith("_"):
            setattr(module, attribute, value)
            setattr(module, snake(attribute), value)
    for attribute, value in (extra or {}).items():
        setattr(module, attribute, value)
    return module


class _SnakeClass(type):
    def __getattr__(cls, name: str) -> Any:
        return getattr(cls.__wrapped__, camel(name))


def _static_snake(source: type) -> type:
    """``source`` (``Actions``, ``Directions``) with its static names also in snake_case."""
    return _SnakeClass(source.__name__, (source,), {"__wrapped__": source})


def snake_modules() -> dict[str, ModuleType]:
    """The ``contest`` package and its modules, for :func:`pacsim.agents.capture.course_team.course_names`."""
    modules = {
        "contest.util": _snake_module("contest.util", util, {"Counter": Counter}),
        "contest.game": _snake_module("contest.game", game, {"Actions": _static_snake(game.Actions),
                                                             "Directions": _static_snake(game.Directions)}),
        "contest.distance_calculator": _snake_module("contest.distance_calculator", distanceCalculator),
        "contest.capture": _snake_module("contest.capture", capture),
    }
    agents = _snake_module("contest.capture_agents", captureAgents, {"CaptureAgent": CaptureAgent})
    modules["contest.capture_agents"] = agents
    package = ModuleType("contest", "UPF's snake_case contest framework, pacsim's (pacsim.agents.capture.course.snake)")
    package.__path__ = []  # a package: its modules import as contest.NAME
    for full_name, module in modules.items():
        setattr(package, full_name.partition(".")[2], module)
    return {"contest": package, **modules}
