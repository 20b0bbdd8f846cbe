"""CS188's command-line habits for ``pacsim play``.

Students type what CS188's ``pacman.py`` taught them; pacsim accepts it
where it means something here and says so in one line where it does not:

================================  =============================================
CS188                             pacsim
================================  =============================================
``-p MinimaxAgent``               the class from a ``*gents.py`` file in the
                                  current folder (or ``--cs188 DIR``)
``-p KeyboardAgent``               ``-p keyboard`` (pacsim's window or terminal)
``-g RandomGhost``                ``-g random`` (``DirectionalGhost``:
                                  ``directional``); other names as ``-p``
``-z 2``                          ``--zoom 2``
``--frameTime 0.05``              ``--frame-time 0.05``
``-f`` / ``--fixRandomSeed``      ``--seed 0`` (unless ``--seed`` is given)
``--timeout 30``                  ``--time-limit 30``, per move (CS188: per game)
``--textGraphics``                ``--text``
``--quietTextGraphics``           ``--quiet``
``-c`` / ``--catchExceptions``    always so: a game whose agent raises ends as
                                  ``error`` and the others go on (a note)
``-x 2000 -n 2010``               as in CS188: 2000 training games, unseen and
                                  not counted, then 10 (see :func:`training_games`)
``--replay FILE``                 ``pacsim replay FILE`` (a game pacsim recorded)
``-r``                            no meaning here (a note naming pacsim's way)
================================  =============================================

``-l minimaxClassic`` finds ``./minimaxClassic.lay`` or
``layouts/minimaxClassic.lay`` of the course folder before any layout pacsim
ships (:mod:`pacsim.engine.names`).  ``-n/--numGames``,
``-k/--numghosts``, ``-a/--agentArgs``, ``-q`` and
``-t`` are pacsim's own options already.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

from pacsim.errors import AgentError, ConfigError, did_you_mean

FIXED_SEED = 0
"""The first game's seed under ``-f`` (CS188 seeds its generator with 'cs188')."""


def add_cs188_options(parser: argparse.ArgumentParser) -> None:
    """Add CS188's options to a ``play``-like parser, in a group of their own."""
    group = parser.add_argument_group("CS188 habits", "options of CS188's pacman.py, mapped onto pacsim's")
    group.add_argument("-z", dest="cs188_zoom", type=float, metavar="ZOOM", help="CS188 for --zoom")
    group.add_argument("--frameTime", dest="cs188_frame_time", type=float, metavar="SECONDS", help="CS188 for --frame-time")
    group.add_argument("-f", "--fixRandomSeed", dest="cs188_fix_seed", action="store_true",
                       help=f"CS188's fixed seed: --seed {FIXED_SEED} unless --seed is given")
    group.add_argument("--timeout", dest="cs188_timeout", type=float, metavar="SECONDS",
                       help="CS188's per-game time budget; pacsim applies it to each move (--time-limit)")
    group.add_argument("--textGraphics", dest="cs188_text", action="store_true", help="CS188 for --text")
    group.add_argument("--quietTextGraphics", dest="cs188_quiet", action="store_true", help="CS188 for --quiet")
    group.add_argument("-c", "--catchExceptions", dest="cs188_catch", action="store_true",
                       help="accepted: pacsim always ends a game whose agent raises as an error")
    group.add_argument("--cs188", dest="cs188_folder", metavar="DIR",
                       help="folder whose *gents.py files -p/-g ClassName are looked up in (default: the current folder)")
    group.add_argument("-r", "--recordActions", dest="cs188_record", action="store_true", help="accepted with a note: use --record FILE")
    group.add_argument("--replay", dest="cs188_replay", metavar="FILE",
                       help="replay a game pacsim recorded (as pacsim replay FILE; CS188's own recordings are not read)")
    group.add_argument("-x", "--numTraining", dest="cs188_training", type=int, metavar="N",
                       help="the first N of the -n games train the Pacman: played unseen, not counted (as in CS188)")
    group.add_argument("--count-training", action="store_true",
                       help="with -x: show, count and --record the training games like the others")


def apply_cs188_options(args: argparse.Namespace) -> list[str]:
    """Map the CS188 options in ``args`` onto pacsim's (in place) and resolve
    ``-p``/``-g`` CS188 class names to ``file.py:Class`` specs.

    Returns one-line notes for options without a meaning in pacsim.  Raises
    :class:`ConfigError` for a ``--cs188`` folder that does not exist and
    :class:`AgentError` for a CS188 class name no ``*gents.py`` file defines.
    """
    from pacsim.agents.cs188 import GHOST_ALIASES, PACMAN_ALIASES
    from pacsim.agents.registry import ghost_names, pacman_names

    notes: list[str] = []
    _map_display(args)
    if getattr(args, "cs188_fix_seed", False) and getattr(args, "seed", None) is None:
        args.seed = FIXED_SEED
    timeout = getattr(args, "cs188_timeout", None)
    if timeout is not None:
        if getattr(args, "time_limit", None) is None:
            args.time_limit = timeout
        notes.append(f"--timeout {timeout:g}: CS188 budgets a whole game; pacsim limits each move to {args.time_limit:g} s (--time-limit)")
    if getattr(args, "cs188_catch", False):
        notes.append("-c: pacsim always catches agent exceptions; such a game ends as 'error' and the others go on")
    if getattr(args, "cs188_record", False):
        notes.append("-r: pacsim records with --record FILE (JSON), replayed by 'pacsim replay FILE'")
    folders = _lookup_folders(args)
    if hasattr(args, "pacman"):
        pacman = PACMAN_ALIASES.get(args.pacman, args.pacman)
        args.pacman = _resolve_class_name(pacman, "Pacman", pacman_names, folders)
    if hasattr(args, "ghosts"):
        ghosts = GHOST_ALIASES.get(args.ghosts, args.ghosts)
        args.ghosts = _resolve_class_name(ghosts, "ghost", ghost_names, folders)
    return notes


def _map_display(args: argparse.Namespace) -> None:
    zoom = getattr(args, "cs188_zoom", None)
    if zoom is not None:
        args.zoom = zoom
    frame_time = getattr(args, "cs188_frame_time", None)
    if frame_time is not None:
        args.frame_time = frame_time
    if getattr(args, "cs188_quiet", False):
        args.quiet, args.text, args.window = True, False, False
    elif getattr(args, "cs188_text", False) and not getattr(args, "quiet", False):
        args.text, args.window = True, False


def _lookup_folders(args: argparse.Namespace) -> list[Path]:
    folder = getattr(args, "cs188_folder", None)
    if folder is None:
        return [Path.cwd()]
    path = Path(folder)
    if not path.is_dir():
        raise ConfigError(f"--cs188 {folder}: not a folder")
    return [path]


def course_layout_folders(args: argparse.Namespace) -> list[Path]:
    """The course folder given by ``--cs188 DIR``, whose ``layouts/`` -l names
    are looked up in after the current folder's (see :mod:`pacsim.engine.names`)."""
    folder = getattr(args, "cs188_folder", None)
    return [] if folder is None else [Path(folder)]


def _resolve_class_name(spec: str, role: str, names: Callable[[], list[str]], folders: list[Path]) -> str:
    """``MinimaxAgent`` -> ``/abs/multiAgents.py:MinimaxAgent``; any other spec unchanged.
    CS188 class names are capitalised, pacsim's agent names are not.

    The course's files are looked in first and pacsim's names (``names()``:
    built-in and installed, which reads every package's entry points) only
    when they define no such class: a course command starts without them."""
    from pacsim.agents.cs188 import find_cs188_class

    if not (spec.isidentifier() and spec[0].isupper()):
        return spec  # a pacsim name or a typo of one, a spec with options, a path or a module
    found = find_cs188_class(spec, folders)
    if found is not None:
        path, _ = found
        return f"{path}:{spec}"
    known = names()
    if spec in known:
        return spec
    where = ", ".join(str(folder) for folder in folders)
    raise AgentError(f"unknown {role} agent {spec!r}: not a pacsim agent ({', '.join(known)}) "
                     f"and no *gents.py file in {where} defines class {spec}"
                     f"{did_you_mean(spec, [*known, *_course_class_names(folders)])}")


def _course_class_names(folders: list[Path]) -> list[str]:
    """The classes the course's ``*gents.py`` files define (read as text, nothing imported)."""
    from pacsim.agents.cs188 import AGENT_FILE_PATTERN

    names = []
    for folder in folders:
        for path in sorted(Path(folder).glob(AGENT_FILE_PATTERN)):
            with suppress(OSError):
                names += CLASS_LINE.findall(path.read_text(encoding="utf-8", errors="replace"))
    return names


CLASS_LINE = re.compile(r"^class\s+(\w+)", re.MULTILINE)


def training_games(args: argparse.Namespace, course_pacman: bool) -> int:
    """CS188's ``-x N``: how many of the ``-n`` games are training games.

    As the course's ``pacman.py`` does, a course Pacman is also constructed
    with ``numTraining=N`` (unless ``-a`` gives it), which is how its
    reinforcement agents know when to stop exploring."""
    from pacsim.agents.registry import parse_options

    training = getattr(args, "cs188_training", None) or 0
    if training < 0:
        raise ConfigError(f"-x {training}: the number of training games cannot be negative")
    if training and training >= args.games:
        raise ConfigError(f"-x {training} -n {args.games}: no game left to count; as in CS188, -n counts the "
                          f"training games too (-x {training} -n {training + 10} plays 10 counted games)")
    if training and course_pacman and "numTraining" not in parse_options(args.agent_args):
        args.agent_args = ",".join(filter(None, [args.agent_args, f"numTraining={training}"]))
    return training
