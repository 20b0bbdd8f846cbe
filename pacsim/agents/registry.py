"""Agents by name: ``minimax``, ``directional:attack=0.9``, ``-a depth=4,eval=careful``.

A spec is ``NAME`` or ``NAME:key=value,key=value``; options are checked
against the agent's constructor and converted to its annotated types, so a
typo is a one-line :class:`AgentError` before any game runs.
"""

from __future__ import annotations

import inspect
import types
import typing

from pacsim.agents.base import Agent
from pacsim.errors import AgentError


def _pacmen() -> dict[str, type[Agent]]:
    from pacsim.agents.mcts_agent import MCTS_PACMEN
    from pacsim.agents.search_agents import SEARCH_PACMEN
    from pacsim.agents.simple import PACMEN

    return {**PACMEN, **SEARCH_PACMEN, **MCTS_PACMEN}


def _ghosts() -> dict[str, type[Agent]]:
    from pacsim.agents.ghosts import GHOSTS

    return GHOSTS


def pacman_names() -> list[str]:
    return list(_pacmen())


def ghost_names() -> list[str]:
    return list(_ghosts())


def parse_options(text: str | None) -> dict[str, str]:
    """``"depth=4,eval=careful"`` -> ``{"depth": "4", "eval": "careful"}``."""
    options: dict[str, str] = {}
    if not text:
        return options
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise AgentError(f"agent option {item!r} is not key=value")
        options[key.strip()] = value.strip()
    return options


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"directional:attack=0.9"`` -> ``("directional", {"attack": "0.9"})``."""
    name, _, options = spec.partition(":")
    return name.strip(), parse_options(options)


def make_pacman(spec: str, options: dict[str, typing.Any] | None = None) -> Agent:
    return _make("Pacman", _pacmen(), spec, options)


def make_ghost(spec: str, options: dict[str, typing.Any] | None = None) -> Agent:
    return _make("ghost", _ghosts(), spec, options)


def check_spec(role: str, spec: str, options: dict[str, typing.Any] | None = None) -> None:
    """Raise :class:`AgentError` if the spec would not build (``role``: pacman or ghost)."""
    (make_pacman if role == "pacman" else make_ghost)(spec, options)


def _make(role: str, known: dict[str, type[Agent]], spec: str, options: dict[str, typing.Any] | None) -> Agent:
    name, spec_options = parse_spec(spec)
    if name not in known:
        raise AgentError(f"unknown {role} agent {name!r} (known: {', '.join(known)})")
    merged = {**spec_options, **(options or {})}
    cls = known[name]
    return cls(**_convert(cls, name, merged))


def _convert(cls: type, name: str, options: dict[str, typing.Any]) -> dict[str, typing.Any]:
    parameters = {
        key: parameter
        for key, parameter in inspect.signature(cls.__init__).parameters.items()
        if key != "self" and parameter.kind is parameter.POSITIONAL_OR_KEYWORD
    }
    hints = typing.get_type_hints(cls.__init__)
    converted = {}
    for key, value in options.items():
        if key not in parameters:
            allowed = ", ".join(parameters) or "none"
            raise AgentError(f"unknown option {key!r} for agent {name!r} (options: {allowed})")
        converted[key] = _coerce(name, key, value, hints.get(key, str))
    return converted


def _coerce(name: str, key: str, value: typing.Any, hint: typing.Any) -> typing.Any:
    if not isinstance(value, str):
        return value
    target = hint
    if typing.get_origin(hint) in (typing.Union, types.UnionType):  # "int | None" and Optional[int]
        target = next((arg for arg in typing.get_args(hint) if arg is not type(None)), str)
    try:
        if target is bool:
            lowered = value.lower()
            if lowered not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                raise ValueError(value)
            return lowered in ("1", "true", "yes", "on")
        if target in (int, float):
            return target(value)
    except ValueError:
        raise AgentError(f"option {key}={value!r} for agent {name!r} must be {target.__name__}") from None
    return value
