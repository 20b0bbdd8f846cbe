"""UPF's snake_case names for the course's camelCase ones (UPF's Python 3 ``pacman-contest``).

UPF's framework is the course's with every name in snake_case
(``create_team``, ``register_initial_state``, ``get_legal_actions``,
``as_list``, ``is_pacman``, ``num_carrying``, ``arg_max`` ...).  pacsim keeps
one implementation, the camelCase one, and reads a snake_case name as its
camelCase twin: :class:`SnakeNames` for what objects hand out (methods and
attributes alike, looked up only when the name is missing, so the camelCase
path costs nothing more), :func:`add_snake_aliases` for a module's functions
and a class's static methods.  The agent base class, whose methods a team
overrides rather than calls, is :mod:`.capture_agents`'s.
"""

from __future__ import annotations

from functools import cache
from typing import Any


@cache
def camel(name: str) -> str:
    """``get_maze_distance`` -> ``getMazeDistance``; ``get_grids_2D`` -> ``getGrids2D``."""
    first, *rest = name.split("_")
    return first + "".join(part[:1].upper() + part[1:] for part in rest)


def snake(name: str) -> str:
    """``getMazeDistance`` -> ``get_maze_distance``; ``isInt`` -> ``is_int``."""
    return "".join(f"_{letter.lower()}" if letter.isupper() and index else letter for index, letter in enumerate(name))


class SnakeNames:
    """Instances answer a snake_case name with its camelCase twin's value."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or "_" not in name:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        twin = camel(name)
        try:
            return object.__getattribute__(self, twin)
        except AttributeError:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r} (nor {twin!r})") from None


def add_snake_aliases(target: dict[str, Any] | type) -> None:
    """Give every public camelCase name of ``target`` (a module's globals, or a
    class: its own methods and static methods) its snake_case twin, where that name is free."""
    names = target if isinstance(target, dict) else vars(target)
    for name, value in list(names.items()):
        if name.startswith("_") or name == name.lower() or name[:1].isupper():
            continue
        if isinstance(target, dict):
            target.setdefault(snake(name), value)
        elif not hasattr(target, snake(name)):
            setattr(target, snake(name), value)
