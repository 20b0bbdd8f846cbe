"""An experiment file read and its values checked: the TOML text, ``--set``
overrides, and the type checks whose every failure is a one-line
:class:`~pacsim.errors.ConfigError` naming the file and the key
(:mod:`pacsim.runner.experiment` puts them together)."""

from __future__ import annotations

import dataclasses
import json
import re
import tomllib
from pathlib import Path
from typing import Any, NoReturn

from pacsim.errors import ConfigError, nearest
from pacsim.files import FileRefused, read_bounded
from pacsim.sandbox.limits import Limits

TOP_LEVEL_KEYS = ("name", "games", "seed", "max_moves", "time_limit", "starts", "start_distance", "book", "store",
                  "sandbox", "grid", "pacman_options", "ghost_options")
REQUIRED_GRID_KEYS = ("pacman", "ghosts", "layout")
AGENT_KEYS = ("pacman", "ghosts", "layout", "num_ghosts")
"""Grid keys that are not Pacman options."""

MAX_EXPERIMENT_BYTES = 1 << 20
"""Largest experiment file read."""

Scalar = str | int | float | bool


def read_toml(path: Path) -> dict[str, Any]:
    try:
        text = read_bounded(path, MAX_EXPERIMENT_BYTES).decode("utf-8")
    except FileRefused as error:
        raise ConfigError(f"{path}: {error}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(_toml_error_message(str(path), str(error))) from None


def _toml_error_message(source: str, message: str) -> str:
    """tomllib says ``... (at line 3, column 7)``; make it ``FILE:3:7: ...`` like layout errors."""
    match = re.search(r"\s*\(at line (\d+), column (\d+)\)\s*$", message)
    if match is None:
        return f"{source}: TOML syntax error: {message}"
    return f"{source}:{match.group(1)}:{match.group(2)}: TOML syntax error: {message[:match.start()]}"


def parse_override_value(text: str) -> Any:
    """A ``--set`` value as a TOML value (``500``, ``[1, 2]``, ``"x"``, ``true``), else the plain string."""
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        return text


def apply_override(raw: dict[str, Any], override: str) -> None:
    """Apply ``key=value`` (dotted keys reach into tables: ``pacman_options.eval=careful``)."""
    key, equals, value = override.partition("=")
    parts = [part.strip() for part in key.split(".")]
    if not equals or not all(parts):
        raise ConfigError(f"--set {override!r}: expected key=value, e.g. max_moves=500 or pacman_options.eval=careful")
    table = raw
    for depth, part in enumerate(parts[:-1]):
        table = table.setdefault(part, {})
        if not isinstance(table, dict):
            raise ConfigError(f"--set {override!r}: {'.'.join(parts[:depth + 1])} is not a table")
    table[parts[-1]] = parse_override_value(value.strip())


class Checker:
    """Type checks that fail with ``FILE: KEY: what is wrong``."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, message: str) -> NoReturn:
        raise ConfigError(f"{self.source}: {key}: {message}")

    def string(self, raw: dict, key: str, default: str) -> str:
        value = raw.get(key, default)
        if not isinstance(value, str) or not value:
            self.fail(key, f"must be a non-empty string, not {value!r}")
        return value

    def integer(self, raw: dict, key: str, default: int | None, minimum: int, maximum: int | None = None) -> int:
        if key not in raw and default is None:
            self.fail(key, "missing (required)")
        value = raw.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(key, f"must be an integer, not {value!r}")
        if value < minimum:
            self.fail(key, f"must be at least {minimum}, not {value}")
        if maximum is not None and value > maximum:
            self.fail(key, f"must be at most {maximum:,}, not {value:,}")
        return value

    def choice(self, raw: dict, key: str, default: str, choices: tuple[str, ...]) -> str:
        value = raw.get(key, default)
        if value not in choices:
            self.fail(key, f"must be one of {', '.join(map(repr, choices))}, not {value!r}")
        return value

    def number(self, raw: dict, key: str, default: float) -> float:
        value = raw.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(key, f"must be a number, not {value!r}")
        return float(value)

    def sandbox(self, raw: dict) -> Limits | None:
        """``sandbox = true`` (the default limits), ``false``, or a table of
        :class:`~pacsim.sandbox.limits.Limits` fields to change."""
        value = raw.get("sandbox", False)
        if isinstance(value, bool):
            return Limits() if value else None
        if not isinstance(value, dict):
            self.fail("sandbox", f"must be true, false or a table of limits, not {value!r}")
        known = [item.name for item in dataclasses.fields(Limits)]
        for key, given in value.items():
            if key not in known:
                self.fail(f"sandbox.{key}", f"unknown limit (known: {', '.join(known)})")
            if isinstance(given, bool) or not isinstance(given, (int, float, str)):
                self.fail(f"sandbox.{key}", f"must be a number (isolation: a name), not {given!r}")
        try:
            return Limits(**value)
        except ConfigError as error:
            self.fail("sandbox", str(error))

    def options(self, raw: dict, key: str) -> dict[str, Scalar]:
        table = raw.get(key, {})
        if not isinstance(table, dict):
            self.fail(key, "must be a table of option = value")
        for option, value in table.items():
            if not isinstance(value, (str, int, float, bool)):
                self.fail(f"{key}.{option}", f"must be a string or a number, not {value!r}")
        return dict(table)

    def grid(self, raw: dict, pacman_options: dict[str, Scalar]) -> dict[str, list[Scalar]]:
        table = raw.get("grid")
        if not isinstance(table, dict):
            self.fail("grid", "missing: a [grid] table with pacman, ghosts and layout lists")
        grid: dict[str, list[Scalar]] = {}
        for key in REQUIRED_GRID_KEYS:
            if key not in table:
                typo = nearest(key, [other for other in table if other not in AGENT_KEYS])
                self.fail(f"grid.{key}", "missing (required)" + (f"; is grid.{typo} a typo of it?" if typo else ""))
        for key, values in table.items():
            if not isinstance(values, list):
                values = [values]  # a single value is a one-element list
            if not values:
                self.fail(f"grid.{key}", "empty list")
            for value in values:
                self._check_grid_value(key, value)
            if len({sort_key(value) for value in values}) != len(values):
                self.fail(f"grid.{key}", "a value appears twice")
            if key in pacman_options:
                self.fail(f"grid.{key}", "also set in [pacman_options]; set it in one place")
            grid[key] = values
        return grid

    def _check_grid_value(self, key: str, value: Any) -> None:
        if key in ("pacman", "ghosts", "layout"):
            if not isinstance(value, str) or not value:
                self.fail(f"grid.{key}", f"values must be non-empty strings, not {value!r}")
        elif key == "num_ghosts":
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                self.fail("grid.num_ghosts", f"values must be integers >= 0, not {value!r}")
        elif not isinstance(value, (str, int, float, bool)):
            self.fail(f"grid.{key}", f"values must be strings or numbers, not {value!r}")


def sort_key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
