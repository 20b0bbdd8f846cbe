"""The one place that turns a spec into an agent.

A spec is one of

* ``NAME`` or ``NAME:key=value,...``: a built-in agent (``minimax``,
  ``directional:attack=0.9``) or one an installed package registers under
  the entry-point group ``pacsim.agents``;
* ``path/to/file.py:Class[:key=value,...]``: a class in a Python file (or,
  for a ghost, a function marked ``@pacsim.kernel_ghost``: a
  :class:`~pacsim.agents.ghosts.KernelGhost` playing it);
* ``package.module:Class[:key=value,...]``: a class in an importable module;
* ``ClassName``: a CS188 agent class found in a ``*gents.py`` file of the
  current folder (CS188's ``-p ExpectimaxAgent``).

A class is an agent if it subclasses :class:`pacsim.agents.api.Agent`; its
options are built from strings by the field types of its ``Options``
dataclass, so a typo is a one-line :class:`AgentError` before any game runs.
A CS188 class (``getAction``) is wrapped by :mod:`pacsim.agents.cs188`.
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import sys
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from pacsim.agents import cs188, plugins
from pacsim.agents.api import Agent, GhostMaker, StochasticAgent
from pacsim.agents.notes import say_once
from pacsim.errors import AgentError, did_you_mean

PACMAN, GHOST = "Pacman", "ghost"
"""The two roles; built-in names differ by role (``random`` is both)."""

_SEARCH_AGENTS, _GHOSTS = "pacsim.agents.search_agents", "pacsim.agents.ghosts"
BUILTIN_HOMES: dict[str, dict[str, tuple[str, str]]] = {
    PACMAN: {
        "random": ("pacsim.agents.simple", "RandomPacman"),
        "greedy": ("pacsim.agents.simple", "GreedyPacman"),
        "keyboard": ("pacsim.agents.simple", "KeyboardPacman"),
        "minimax": (_SEARCH_AGENTS, "MinimaxPacman"),
        "alphabeta": (_SEARCH_AGENTS, "AlphaBetaPacman"),
        "expectimax": (_SEARCH_AGENTS, "ExpectimaxPacman"),
        "expectiminimax": (_SEARCH_AGENTS, "ExpectiminimaxPacman"),
        "mcts": ("pacsim.agents.mcts_agent", "MctsPacman"),
        "approxq": ("pacsim.agents.learning", "ApproximateQPacman"),
        "qlearn": ("pacsim.agents.learning", "TabularQPacman"),
    },
    GHOST: {
        "random": ("pacsim.agents.random_ghost", "RandomGhost"),
        "directional": (_GHOSTS, "DirectionalGhost"),
        "adversarial": (_GHOSTS, "AdversarialGhost"),
        "ambusher": (_GHOSTS, "AmbusherGhost"),
    },
}
"""Every built-in agent by role and name (each class's ``name``), in the
order ``pacsim agents`` lists them, as the module and class that define it:
a game imports the modules of the agents it plays, not every agent's (the
search agents, MCTS and the kernel's numpy cost a start-up of their own)."""

RENAMED_OPTIONS = {"engine": "backend"}
"""Old option name -> new: a spec or stored record written before the
rename still builds its agent (said once per process)."""


def builtin_class(role: str, name: str) -> type[Agent]:
    """The built-in agent of ``role`` called ``name`` (a name of :data:`BUILTIN_HOMES`), its module imported."""
    module, cls = BUILTIN_HOMES[role][name]
    found: type[Agent] = getattr(importlib.import_module(module), cls)
    return found


def builtins(role: str) -> dict[str, type[Agent]]:
    """Every built-in agent of ``role`` by name (importing all their modules)."""
    return {name: builtin_class(role, name) for name in BUILTIN_HOMES[role]}


def __getattr__(name: str) -> Any:
    """``BUILTIN_PACMEN`` and ``BUILTIN_GHOSTS``: every built-in agent's class
    by name, imported when asked for (``pacsim agents``), not by every game."""
    if name in ("BUILTIN_PACMEN", "BUILTIN_GHOSTS"):
        return builtins(PACMAN if name == "BUILTIN_PACMEN" else GHOST)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def pacman_names() -> list[str]:
    """Built-in Pacmen, then installed agents."""
    return [*BUILTIN_HOMES[PACMAN], *plugins.entry_point_names(plugins.AGENT_GROUP)]


def ghost_names() -> list[str]:
    """Built-in ghosts, then installed agents."""
    return [*BUILTIN_HOMES[GHOST], *plugins.entry_point_names(plugins.AGENT_GROUP)]


# -- specs ----------------------------------------------------------------

@dataclass(frozen=True)
class AgentSpec:
    """A parsed spec: what the edge (a command line, an experiment's grid)
    reads once and passes on, so that nothing downstream parses the text or
    probes the file system for it again."""

    text: str
    """The spec as written (what error messages quote)."""
    target: str
    """A built-in or installed name, a ``.py`` file, or a module."""
    attribute: str | None
    """The class in the file or module; None for a name."""
    options: dict[str, str]

    @cached_property
    def code(self) -> str | None:
        """The part of the spec that names code from outside pacsim (see :func:`named_code`), or None."""
        return _named_code(self)

    @property
    def needs_sandbox(self) -> bool:
        """Whether it runs code from outside pacsim: a sandboxed run plays it in a room of its own."""
        return self.code is not None

    @property
    def file(self) -> Path | None:
        """The Python file of a ``file.py:Class`` spec, as written; None for a name or a module."""
        return Path(self.target) if self.attribute is not None and plugins.is_file_target(self.target) else None


def as_spec(spec: str | AgentSpec) -> AgentSpec:
    """``spec`` parsed, unless it already is."""
    return spec if isinstance(spec, AgentSpec) else parse_spec(spec)


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
        if key.strip() in options:
            raise AgentError(f"agent option {key.strip()!r} given twice in {text!r}: give it once")
        options[key.strip()] = value.strip()
    return options


def parse_spec(text: str) -> AgentSpec:
    """``"directional:attack=0.9"``, ``"my.py:Cautious:depth=3"``, ``"pkg.mod:Cautious"``, ...

    After the first colon comes the class (up to the next comma or colon),
    unless it holds an ``=``: then the options of a name start there.  A
    ``.py`` file's path may itself hold colons (``C:/agents/my.py``, a folder
    ``runs:2``): the target then runs to the first ``.py`` that is a file."""
    file_target = _file_with_colons(text)
    if file_target is not None:
        head, colon, rest = file_target, text[len(file_target):len(file_target) + 1], text[len(file_target) + 1:]
    else:
        head, colon, rest = text.partition(":")
    target = head.strip()
    if not target:
        raise AgentError(f"agent spec {text!r} names no agent")
    if not colon:
        return AgentSpec(text, target, None, {})
    end = min(index for index in (rest.find(","), rest.find(":"), len(rest)) if index >= 0)
    first = rest[:end]
    if "=" in first or not first.strip():
        return AgentSpec(text, target, None, parse_options(rest))
    return AgentSpec(text, target, first.strip(), parse_options(rest[end + 1:]))


def _file_with_colons(text: str) -> str | None:
    """The leading ``.py`` path of ``text`` when that path holds a colon and is a file."""
    end = text.find(".py")
    while end >= 0:
        path = text[:end + 3]
        if ":" in path and text[end + 3:end + 4] in ("", ":") and Path(path).is_file():
            return path
        end = text.find(".py", end + 1)
    return None


def join_spec(spec: str | AgentSpec, options: Mapping[str, Any]) -> str:
    """``spec`` with more options, in a form :func:`parse_spec` reads back."""
    parsed = as_spec(spec)
    if not options:
        return parsed.text
    text = ",".join(f"{key}={value}" for key, value in options.items())
    return f"{parsed.text}{',' if parsed.options else ':'}{text}"


# -- code named by data ---------------------------------------------------

CODE_OPTIONS = {"eval": "score", "model": "uniform"}
"""Options whose value may name code (an evaluation, a ghost model), with
the built-in value an agent takes when they are left out."""


def named_code(spec: str) -> str | None:
    """The part of ``spec`` that names code from outside pacsim (the agent,
    its ``eval=`` or its ``model=``), or None when everything it names is
    built in.  Decided from the text alone, importing nothing: what a record,
    a store or a page names is checked here before it reaches :func:`resolve`
    (:func:`refuse_named_code`), since importing a plugin runs it as the reader."""
    try:
        return parse_spec(spec).code
    except AgentError:
        return spec  # unreadable: never a built-in


def _named_code(parsed: AgentSpec) -> str | None:
    from pacsim.agents.evaluation import EVALUATIONS  # a table: importing it runs no plugin

    if parsed.attribute is not None or not _built_in_name(parsed.target):
        return parsed.target if parsed.attribute is None else f"{parsed.target}:{parsed.attribute}"
    evaluation = parsed.options.get("eval", CODE_OPTIONS["eval"])
    if evaluation not in EVALUATIONS:
        return f"eval={evaluation}"
    model = parsed.options.get("model", CODE_OPTIONS["model"])
    if model != CODE_OPTIONS["model"] and named_code(model) is not None:
        return f"model={model}"
    return None


def _built_in_name(target: str) -> bool:
    return any(target in BUILTIN_HOMES[role] for role in (PACMAN, GHOST))


def refuse_named_code(spec: str, what: str, instead: str) -> None:
    """Raise a one-line :class:`AgentError` when ``spec`` (read from data:
    ``what`` says whose, e.g. "the recorded Pacman") names code from outside
    pacsim; ``instead`` says how to run it as its owner would: the user
    naming it on the command line, or a sandboxed run."""
    code = named_code(spec)
    if code is not None:
        raise AgentError(f"{what} {spec!r} runs plugin code ({code!r}), which pacsim never imports "
                         f"from a record, a store or a page; {instead}")


# -- resolving: a spec to a class -----------------------------------------

@dataclass(frozen=True)
class Resolved:
    """What a spec names: a pacsim agent class, or a CS188 class to wrap."""

    cls: type
    cs188: bool = False
    source_file: str | None = None
    """The CS188 class's file, for the wrapper's import path."""


def resolve(role: str, spec: str | AgentSpec, folders: Sequence[Path] | None = None) -> Resolved:
    """The class a spec names, importing plugin code if it names some.

    ``folders``: where a bare CS188 class name is looked for (default: the
    current folder).  Raises :class:`AgentError` naming the spec."""
    parsed = as_spec(spec)
    if parsed.attribute is not None:
        found = plugins.load_object(parsed.target, parsed.attribute, _quoted(parsed))
        source = parsed.target if plugins.is_file_target(parsed.target) else None
        return _classify(found, parsed, source, role)
    known = BUILTIN_HOMES[role]
    target = cs188.GHOST_ALIASES.get(parsed.target, parsed.target) if role == GHOST else parsed.target
    if target in known:
        return Resolved(builtin_class(role, target))
    installed = plugins.load_entry_point(plugins.AGENT_GROUP, parsed.target, _quoted(parsed))
    if installed is not None:
        return _classify(installed, parsed, None, role)
    located = cs188.find_cs188_class(parsed.target, list(folders or [Path.cwd()]))
    if located is not None:
        path, cls = located
        plugins.note_file(Path(path), Path(path).name)  # its code is part of the condition too
        return Resolved(cls, cs188=True, source_file=str(path))
    names = [*known, *plugins.entry_point_names(plugins.AGENT_GROUP)]
    raise AgentError(f"unknown {role} agent {parsed.target!r} (known: {', '.join(names)}; or file.py:Class, "
                     f"module:Class){did_you_mean(parsed.target, names)}")


def option_names(resolved: Resolved) -> set[str]:
    """The options an agent class takes, under their names and any older
    name (:data:`RENAMED_OPTIONS`); a CS188 class's are its constructor's
    keyword arguments."""
    if resolved.cs188:
        names = {info.name for info in cs188.constructor_options(resolved.cls)}
    else:
        names = {field.name for field in dataclasses.fields(resolved.cls.Options)}  # type: ignore[attr-defined]
    return names | {old for old, new in RENAMED_OPTIONS.items() if new in names}


def _classify(found: Any, spec: AgentSpec, source_file: str | None, role: str) -> Resolved:
    if isinstance(found, type) and issubclass(found, Agent):
        return Resolved(found)
    view = sys.modules.get("pacsim.fast.view")  # marking a ghost policy imported it: without it, none is marked
    if view is not None and view.is_kernel_ghost(found):  # a ghost policy of a View, which the kernel may compile
        if role != GHOST:
            raise AgentError(f"{_quoted(spec)}: {spec.attribute or spec.target} is a ghost policy "
                             "(@pacsim.kernel_ghost); name it as a ghost (-g) or as a Pacman's model=")
        from pacsim.agents.ghosts import kernel_ghost_class

        view.register_ghost(spec.text, found)
        return Resolved(kernel_ghost_class(found))
    if isinstance(found, type) and cs188.is_cs188_agent_class(found):
        if source_file is not None:
            # A course file imports its siblings by bare name (util, game):
            # import it the course's way, under its own name, for the class to run.
            found = getattr(cs188.import_cs188_file(source_file), found.__name__, found)
        return Resolved(found, cs188=True, source_file=source_file)
    what = f"class {found.__name__}" if isinstance(found, type) else f"a {type(found).__name__}"
    raise AgentError(f"{_quoted(spec)}: {spec.attribute or spec.target} is {what}, not an agent "
                     "(a subclass of pacsim.agents.Agent, a CS188 class with getAction, or a ghost policy "
                     "marked @pacsim.kernel_ghost)")


def _abstract(cls: type[Agent]) -> bool:
    """An agent class that defines neither ``get_action`` nor, for a
    :class:`StochasticAgent`, ``distribution``."""
    if issubclass(cls, StochasticAgent):
        return cls.distribution is StochasticAgent.distribution and cls.get_action is StochasticAgent.get_action
    return cls.get_action is Agent.get_action


def _quoted(spec: AgentSpec) -> str:
    return f"agent {spec.text!r}"


# -- building: a class and options to an agent ----------------------------

def make_pacman(spec: str | AgentSpec, options: Mapping[str, Any] | None = None,
                folders: Sequence[Path] | None = None) -> Agent:
    """The Pacman a spec names, with ``options`` over the spec's own."""
    return make_agent(PACMAN, spec, options, folders)


def make_ghost(spec: str | AgentSpec, options: Mapping[str, Any] | None = None,
               folders: Sequence[Path] | None = None) -> Agent:
    """The ghost a spec names, with ``options`` over the spec's own."""
    return make_agent(GHOST, spec, options, folders)


def make_agent(role: str, spec: str | AgentSpec, options: Mapping[str, Any] | None = None,
               folders: Sequence[Path] | None = None) -> Agent:
    """The agent of ``role`` a spec names (a string is parsed here; pass the parsed spec where one is at hand)."""
    parsed = as_spec(spec)
    spec = parsed.text
    resolved = resolve(role, parsed, folders)
    merged = {**parsed.options, **(options or {})}
    if resolved.cs188:
        return cs188.wrap_cs188_agent(resolved.cls, {key: str(value) for key, value in merged.items()},
                                      resolved.source_file)
    name = parsed.target if parsed.attribute is None else spec
    options_value = build_options(resolved.cls, merged, name)
    makers = _ghost_model(resolved.cls, options_value, folders)
    try:
        agent = resolved.cls(options_value, **makers)
    except AgentError:
        raise
    except (Exception, SystemExit) as error:  # a plugin's constructor: its failure is the user's one line
        raise AgentError(f"agent {spec!r}: constructing {resolved.cls.__name__} raised "
                         f"{plugins.describe_error(error)}") from None
    if _abstract(resolved.cls):  # every game would raise NotImplementedError: say it once, now
        raise AgentError(f"agent {spec!r}: {resolved.cls.__name__} does not define get_action (or distribution); "
                         "it is a base to subclass, not an agent")
    return agent


def _ghost_model(cls: type[Agent], options: Any, folders: Sequence[Path] | None) -> dict[str, GhostMaker]:
    """``{"ghost_model": maker}`` for an agent that models the ghost its
    options name (:attr:`Agent.ghost_model_option`), else nothing."""
    option = cls.ghost_model_option
    spec = getattr(options, option, "uniform") if option else "uniform"
    if spec == "uniform":
        return {}
    return {"ghost_model": model_ghost_maker(spec, option or "model", folders)}


def model_ghost_maker(spec: str, option: str = "model", folders: Sequence[Path] | None = None) -> GhostMaker:
    """A maker of the ghost named by ``spec`` (built-in or plugin), checked
    once here: it must offer ``distribution(state)``."""
    try:
        parsed = parse_spec(spec)  # once: the maker makes a model ghost for each search
        sample = make_ghost(parsed, folders=folders)
    except AgentError as error:
        raise AgentError(f"option {option}={spec!r}: {error}", option=option) from None
    if not callable(getattr(sample, "distribution", None)):
        raise AgentError(f"option {option}={spec!r}: that ghost has no distribution(state) to model it by",
                         option=option)
    return lambda: make_ghost(parsed, folders=folders)


def build_options(cls: type[Agent], values: Mapping[str, Any], name: str) -> Any:
    """``cls.Options`` from strings (or already typed values), by its field types."""
    options_class = getattr(cls, "Options", None)
    if not (isinstance(options_class, type) and dataclasses.is_dataclass(options_class)):
        raise AgentError(f"agent {name!r}: its Options must be a dataclass (NoOptions when it takes none)")
    fields = {field.name: field for field in dataclasses.fields(options_class)}
    values = _renamed(values, fields, name)
    hints = _field_types(options_class)
    converted = {}
    for key, value in values.items():
        if key not in fields:
            allowed = ", ".join(fields) or "none"
            raise AgentError(f"unknown option {key!r} for agent {name!r} (options: {allowed})"
                             f"{did_you_mean(key, fields)}", option=key)
        converted[key] = _coerce(name, key, value, hints.get(key, str))
    try:
        return options_class(**converted)
    except AgentError as error:
        raise AgentError(f"{error} (agent {name!r})", option=error.option) from None
    except TypeError as error:  # a field without a default left out
        raise AgentError(f"agent {name!r}: {error}") from None


def _renamed(values: Mapping[str, Any], fields: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    """``values`` with an option's old name (:data:`RENAMED_OPTIONS`) read
    as its new one where the agent has the new one and not the old."""
    renamed = dict(values)
    for old, new in RENAMED_OPTIONS.items():
        if old in renamed and old not in fields and new in fields:
            if new in renamed:
                raise AgentError(f"agent {name!r}: options {old} and {new} are one option ({new}): give it once",
                                 option=old)
            renamed[new] = renamed.pop(old)
            say_once(f"pacsim: agent option {old}= is now called {new}= (read as {new}={renamed[new]})")
    return renamed


_NAMED_TYPES = {"int": int, "float": float, "bool": bool, "str": str}


def _field_types(options_class: type) -> dict[str, Any]:
    """Field types, resolved; a plugin's annotation that cannot be resolved
    falls back to its text (``"int"`` still means int)."""
    try:
        return typing.get_type_hints(options_class)
    except Exception:
        return {field.name: _NAMED_TYPES.get(str(field.type), field.type)
                for field in dataclasses.fields(options_class)}


def _coerce(name: str, key: str, value: Any, hint: Any) -> Any:
    target = hint
    if typing.get_origin(hint) in (typing.Union, types.UnionType):  # "int | None" and Optional[int]
        target = next((arg for arg in typing.get_args(hint) if arg is not type(None)), str)
    try:
        if target is bool:
            return _boolean(value)
        if target is int:
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                raise ValueError(value)
            return int(value)
        if target is float:
            if isinstance(value, bool) or not isinstance(value, (int, float, str)):
                raise ValueError(value)
            number = float(value)
            if not math.isfinite(number):
                raise ValueError(value)
            return number
        if target is str:
            return value if isinstance(value, str) else str(value)
    except ValueError:
        kind = "a finite number" if target is float else getattr(target, "__name__", str(target))
        raise AgentError(f"option {key}={value!r} for agent {name!r} must be {kind}", option=key) from None
    return value


def _boolean(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    lowered = str(value).lower()
    if lowered not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
        raise ValueError(value)
    return lowered in ("1", "true", "yes", "on")
