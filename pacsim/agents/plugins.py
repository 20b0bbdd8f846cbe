"""Agent and evaluation code from outside pacsim: files, modules, installed packages.

A plugin is named by a string, so it travels to worker processes and Dask
workers as text and is imported again there:

* ``path/to/file.py:Name``: a Python file anywhere; its folder is first on
  ``sys.path`` while it is imported (so it may import its neighbours);
* ``package.module:Name``: an importable module;
* ``NAME``: an entry point of an installed package, in the group
  ``pacsim.agents`` (agents) or ``pacsim.evaluations`` (evaluations).

Importing a plugin runs its code: only specs the user gave (command line or
experiment file) are ever imported, never names read back from a store.

Every import is measured for *code identity* (:class:`PluginCode`): the
sha256 of the module file (for an entry point also its distribution's name
and version).  Experiments put it into each condition's identity, so edited
plugin code plays its games again instead of reusing the old code's rows.
Data files an agent reads (a ChanceProbCut model, weights) are recorded the
same way (:func:`note_data_file`), as kind :data:`DATA`.
A file is imported again when its content changes (the module name carries
the hash), so a long-lived worker never plays stale code.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import re
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from pacsim.errors import AgentError
from pacsim.files import note_input
from pacsim.shipped import shipped_path

AGENT_GROUP = "pacsim.agents"
"""Entry-point group of installed agents (``name = "package.module:Class"``)."""
EVALUATION_GROUP = "pacsim.evaluations"
"""Entry-point group of installed evaluations (``name = "package.module:function"``)."""
CODE, DATA = "code", "data"
"""Kinds of recorded files: code that was imported, data an agent read."""


@dataclass(frozen=True)
class PluginCode:
    """Where a plugin's code came from, and which version of it."""

    label: str
    """How the user named it: the file as written, the module, or ``dist (entry point)``."""
    path: str
    """The module file imported (absolute), or empty if it has none."""
    identity: str
    """``sha256:`` and 16 hex digits of the module file; an entry point's
    starts with its distribution's ``name==version``."""
    module: str
    """The module's name in ``sys.modules`` (empty for data)."""
    kind: str = CODE
    """:data:`CODE` or :data:`DATA`."""


_recorders: list[list[PluginCode]] = []
_file_modules: dict[tuple[str, str], ModuleType] = {}
"""File plugins by (absolute path, content hash)."""


@contextmanager
def recording() -> Iterator[list[PluginCode]]:
    """Collect the plugins used while the block runs (including ones already
    imported earlier: using is what counts), e.g. while building an agent."""
    used: list[PluginCode] = []
    _recorders.append(used)
    try:
        yield used
    finally:
        _recorders.remove(used)


def _used(code: PluginCode) -> None:
    for used in _recorders:
        if code not in used:
            used.append(code)


def is_file_target(target: str) -> bool:
    """Whether a spec's target names a file rather than a module."""
    return target.endswith(".py") or "/" in target or "\\" in target


def load_object(target: str, attribute: str, spec: str) -> Any:
    """``attribute`` of the file or module ``target`` (``spec`` names it in errors)."""
    if is_file_target(target):
        module, code = _import_file(target, spec)
    else:
        module, code = _import_module(target, spec)
    _used(code)
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise AgentError(f"{spec}: {code.label} has no {attribute!r}") from None
    except Exception as error:  # a module __getattr__ that raises
        raise AgentError(f"{spec}: looking up {attribute!r} raised {type(error).__name__}: {error}") from None


def note_file(path: Path, label: str) -> None:
    """Record the code of a file imported elsewhere (a CS188 class found by name)."""
    try:
        digest = file_digest(path)
    except OSError:
        return
    _used(PluginCode(label=label, path=str(path.resolve()), identity=digest, module=path.stem))


def note_data_file(path: Path, label: str) -> None:
    """Record a data file an agent reads (a model, weights): its content is
    part of the condition as plugin code is.  An unreadable file is left to
    the reader to report."""
    try:
        digest = file_digest(path)
    except OSError:
        return
    _used(PluginCode(label=label, path=str(path.resolve()), identity=digest, module="", kind=DATA))


def file_digest(path: Path) -> str:
    """``sha256:`` and the first 16 hex digits of the file's bytes."""
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def _import_file(target: str, spec: str) -> tuple[ModuleType, PluginCode]:
    path = shipped_path(Path(target).expanduser())  # examples/... works from a wheel too
    if not path.is_file():
        raise AgentError(f"{spec}: no file {target!r}" + ("" if path.suffix == ".py" else " (plugin files end in .py)"))
    path = path.resolve()
    try:
        digest = file_digest(path)
    except OSError as error:
        raise AgentError(f"{spec}: cannot read {target}: {error.strerror or error}") from None
    note_input(path)
    code = PluginCode(label=target, path=str(path), identity=digest, module=_module_name(path, digest))
    module = _file_modules.get((str(path), digest))
    if module is None:
        module = execute_file(path, code.module, spec)
        _file_modules[(str(path), digest)] = module
    return module, code


def _module_name(path: Path, digest: str) -> str:
    """Unique per file and content: two ``agents.py`` in different folders,
    or one file before and after an edit, never share a module."""
    stem = re.sub(r"\W", "_", path.stem)
    return f"pacsim_plugin_{stem}_{digest.removeprefix('sha256:')}"


def execute_file(path: Path, module_name: str, spec: str) -> ModuleType:
    """Run the file ``path`` as module ``module_name`` (kept in
    ``sys.modules``), its folder first on ``sys.path`` meanwhile; whatever
    it raises is an :class:`AgentError` starting with ``spec``."""
    module_spec = importlib.util.spec_from_file_location(module_name, path)
    if module_spec is None or module_spec.loader is None:
        raise AgentError(f"{spec}: cannot import {path}")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_name] = module  # dataclasses and typing look modules up by name
    with folder_first(path.parent):
        try:
            module_spec.loader.exec_module(module)
        except (Exception, SystemExit) as error:  # whatever the plugin raises is the user's one-line error
            del sys.modules[module_name]
            raise AgentError(f"{spec}: importing {path.name} raised {describe_error(error)}") from None
    return module


@contextmanager
def folder_first(folder: Path | None) -> Iterator[None]:
    """Put ``folder`` first on ``sys.path`` for the duration (a file imports
    its neighbours by bare name: ``import util``)."""
    if folder is None:
        yield
        return
    entry = str(folder)
    sys.path.insert(0, entry)
    try:
        yield
    finally:
        with suppress(ValueError):  # the file's own code may have taken it off
            sys.path.remove(entry)  # the first occurrence: the one inserted above


def _import_module(name: str, spec: str) -> tuple[ModuleType, PluginCode]:
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name is not None and (name == error.name or name.startswith(error.name + ".")):
            raise AgentError(f"{spec}: no module named {name!r} (is it installed, or on PYTHONPATH?)") from None
        raise AgentError(f"{spec}: importing {name} raised {describe_error(error)}") from None
    except (Exception, SystemExit) as error:
        raise AgentError(f"{spec}: importing {name} raised {describe_error(error)}") from None
    return module, _module_code(name, module)


def _module_code(label: str, module: ModuleType, prefix: str = "") -> PluginCode:
    file = getattr(module, "__file__", None)
    if file and Path(file).is_file():
        return PluginCode(label=label, path=str(Path(file).resolve()), identity=prefix + file_digest(Path(file)),
                          module=module.__name__)
    return PluginCode(label=label, path="", identity=prefix + "no-file", module=module.__name__)


def describe_error(error: BaseException) -> str:
    """``Type: message (file:line)`` on one line, the place being where the error was raised."""
    text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    if isinstance(error, SyntaxError) and error.filename:
        text += f" ({error.filename}:{error.lineno})"
    else:
        frames = traceback.extract_tb(error.__traceback__)
        if frames:
            text += f" ({frames[-1].filename}:{frames[-1].lineno})"
    return " ".join(text.split())  # one line, whatever the message


# -- entry points ---------------------------------------------------------

def _entry_points(group: str) -> Any:
    """``group``'s entry points; importlib.metadata (and the email package
    under it) is imported only when a name is looked up there."""
    import importlib.metadata

    return importlib.metadata.entry_points(group=group)


def entry_point_names(group: str) -> list[str]:
    """Names installed packages register in ``group`` (nothing is imported)."""
    return sorted({entry.name for entry in _entry_points(group)})


def load_entry_point(group: str, name: str, spec: str) -> Any | None:
    """The object an installed package registers as ``name`` in ``group``, or None."""
    entries = [entry for entry in _entry_points(group) if entry.name == name]
    if not entries:
        return None
    entry = entries[0]
    try:
        loaded = entry.load()
    except (Exception, SystemExit) as error:
        raise AgentError(f"{spec}: loading entry point {name!r} ({entry.value}) raised {describe_error(error)}") from None
    distribution = entry.dist
    prefix = f"{distribution.name}=={distribution.version} " if distribution is not None else ""
    label = f"{distribution.name if distribution is not None else entry.module} (entry point {name})"
    _used(_module_code(label, sys.modules[entry.module], prefix))
    return loaded
