"""``pacsim agents [NAME]``: every agent pacsim can play, or one agent's options."""

from __future__ import annotations

import argparse
import inspect
import re
from typing import Any

from pacsim.errors import AgentError

# The agents (and the evaluations' kernel arrays, numpy) are imported by the
# functions that list or describe them: ``pacsim agents --help`` loads none.


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", nargs="?", metavar="NAME",
                        help="an agent name or spec (e.g. expectimax, my_agents.py:Cautious) to show its options")
    parser.add_argument("--ghost", action="store_true", help="NAME is a ghost (random is both a Pacman and a ghost)")


EVALUATION_DOCS = {"score": "The game score: CS188's default evaluation."}
"""Evaluations whose function carries no docstring of its own."""


def run(args: Any) -> int:
    from pacsim.agents.registry import GHOST, PACMAN

    if args.name:
        print(describe(args.name, GHOST if args.ghost else PACMAN))
    else:
        print(listing())
    return 0


def listing() -> str:
    """Every built-in and installed agent and evaluation, one line of doc each."""
    from pacsim.agents import plugins
    from pacsim.agents.evaluation import EVALUATIONS
    from pacsim.agents.registry import GHOST, PACMAN, builtins

    lines = ["Pacman agents (-p):"]
    lines += [_line(name, cls) for name, cls in builtins(PACMAN).items()]
    lines += ["", "Ghost agents (-g):"]
    lines += [_line(name, cls) for name, cls in builtins(GHOST).items()]
    lines += ["", "Evaluations (eval=):"]
    lines += [f"  {name:<16} {EVALUATION_DOCS.get(name) or _first_line(function)}"
              for name, (function, _) in EVALUATIONS.items()]
    installed = plugins.entry_point_names(plugins.AGENT_GROUP)
    evaluations = plugins.entry_point_names(plugins.EVALUATION_GROUP)
    if installed or evaluations:
        lines += ["", "Installed (entry points pacsim.agents, pacsim.evaluations):"]
        lines += [_installed_line(name, plugins.AGENT_GROUP) for name in installed]
        lines += [_installed_line(name, plugins.EVALUATION_GROUP) for name in evaluations]
    lines += ["", "Your own: -p path/to/file.py:Class or -p package.module:Class (see README, 'Your own agents');",
              "'pacsim agents NAME' shows an agent's options."]
    return "\n".join(lines)


def describe(spec: str, role: str) -> str:
    """An agent's doc and options: name, type, default and meaning."""
    from pacsim.agents.api import option_info
    from pacsim.agents.cs188 import constructor_options
    from pacsim.agents.registry import GHOST, resolve

    resolved = resolve(role, spec)
    cls = resolved.cls
    lines = [f"{spec}: {_first_line(cls)}"]
    if resolved.cs188:
        lines.append("  a CS188 agent: its constructor's keyword arguments are its options, passed as strings")
        infos = constructor_options(cls)
    else:
        infos = option_info(cls.Options)  # type: ignore[attr-defined]  # an Agent subclass
    if not infos:
        lines.append("  no options")
        return "\n".join(lines)
    width = max(len(info.name) for info in infos)
    type_width = max(len(info.type) for info in infos)
    flag = "--ghost-args" if role == GHOST else "-a"
    lines.append(f"  options ({flag} key=value,... or {spec}:key=value,...):")
    for info in infos:
        default = repr(info.default) if info.default != "" else "''"
        lines.append(f"  {info.name:<{width}}  {info.type:<{type_width}}  default {default:<10} {plain_text(info.doc)}".rstrip())
    return "\n".join(lines)


def _line(name: str, cls: type) -> str:
    return f"  {name:<16} {_first_line(cls)}"


def _installed_line(name: str, group: str) -> str:
    from pacsim.agents import plugins

    try:
        loaded = plugins.load_entry_point(group, name, f"entry point {name!r}")
    except AgentError as error:
        return f"  {name:<16} (cannot load: {error})"
    return f"  {name:<16} {_first_line(loaded)}"


def _first_line(thing: object) -> str:
    """The first sentence of the docstring, as plain text."""
    doc = plain_text(" ".join((inspect.getdoc(thing) or "").split()))
    sentence, period, _ = doc.partition(". ")
    return sentence + period.strip()


ROLE = re.compile(r":[a-z]+:`~?([^`<]*?)(?:\s*<[^>]*>)?`")
"""A reST role (``:func:`simple_features```, ``:class:`~pacsim.x.Y```, ``:mod:`text <target>```)."""


def plain_text(text: str) -> str:
    """Docstring reST as a terminal shows it: roles by their name (the last
    dotted part after ``~``), literals without their backquotes."""
    text = ROLE.sub(lambda match: match.group(1).rsplit(".", 1)[-1] if "~" in match.group(0) else match.group(1), text)
    return text.replace("``", "").replace("`", "")
