"""The built-in kernel compiled ahead of time: loaded without numba.

Loading the kernel from numba's cache imports numba and llvmlite and
links machine code at every start, several times the cost of importing
numpy.  A numba ``pycc`` extension module needs only numpy: the entry
points Python calls (the searches' and the game loop's slices, MCTS, the
maze's distances, the table's upkeep) are compiled once into one (by
:mod:`pacsim.fast.aot_build`, with the same numba code and options, for
this CPU), kept in pacsim's cache folder under a key of everything that
makes its machine code (:func:`build_key`), and imported in a fraction of
a millisecond.

A call from Python to a kernel function (:class:`pacsim.fast.jit.Compiled`)
goes to the module's export when the module has one for the function
and these arguments' types (:func:`fingerprint`: what numba types them
as); anything else takes numba's just-in-time path, as does every call
when ``PACSIM_KERNEL=jit``, when the module cannot be built (no C
compiler, say: said once), or under ``NUMBA_DISABLE_JIT``.

The first process that needs the module builds it (a minute from an
empty numba cache, a few seconds from a warm one; said once on stderr);
others wait on its lock file, then load it.  A process that has imported
numba already (to compile a user's code) does not build it: the JIT path
costs it nothing more.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Callable, Hashable
from contextlib import suppress
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

import pacsim.fast
from pacsim.errors import OutputError
from pacsim.files import write_atomically

KERNEL_ENVIRONMENT = "PACSIM_KERNEL"
"""``jit`` makes every call take numba's just-in-time path (tests and bench
comparisons); anything else, or unset, uses the ahead-of-time module when it can."""
CACHE_ENVIRONMENT = "PACSIM_CACHE_DIR"
"""The folder of pacsim's compiled caches (default ``~/.cache/pacsim``)."""
KEY_ATTRIBUTE = "__pacsim_cache_key__"
"""The attribute of a function's Python object that holds its cache stamp."""


def cache_root() -> Path:
    """The folder of pacsim's caches (users' compiled code, the ahead-of-time kernel), one subfolder per environment."""
    chosen = os.environ.get(CACHE_ENVIRONMENT)
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pacsim"


def jit_forced() -> bool:
    """Whether this process must take numba's just-in-time path only."""
    return os.environ.get(KERNEL_ENVIRONMENT) == "jit" or os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")


MODULE_NAME = "pacsim_kernel"
"""The extension module's name (a file ``pacsim_kernel.*.so`` in its folder)."""
SIGNATURES = "signatures.json"
"""The file beside the module naming each export's function and argument fingerprint."""
COMPILING = "compiling"
"""The line :mod:`pacsim.fast.aot_build` prints once it has found a C compiler and begins."""
FAILED = "failed.txt"
"""Written in place of the folder when a build failed: why (later processes take the JIT path at once)."""


def fingerprint(value: Any) -> Hashable:
    """What numba's ``typeof`` tells apart in an argument, without numba:
    an array's dtype, dimensions, layout and writability; a named tuple's
    class and fields; a scalar's kind."""
    if type(value) is np.ndarray:  # first, and exact: called on every argument of every search
        flags = value.flags
        layout = "C" if flags.c_contiguous else "F" if flags.f_contiguous else "A"
        return ("array", value.dtype.str, value.ndim, layout, flags.writeable)
    if isinstance(value, tuple):
        return (type(value).__qualname__, *(fingerprint(item) for item in value))
    if isinstance(value, bool | np.bool_):
        return "bool"
    if isinstance(value, int | np.integer):
        return "int"
    if isinstance(value, float | np.floating):
        return "float"
    return ("other", type(value).__qualname__)


def as_tuples(value: Any) -> Hashable:
    """A fingerprint read back from JSON (its lists become tuples again)."""
    return tuple(as_tuples(item) for item in value) if isinstance(value, list) else value


def function_name(function: Any) -> str:
    """The name an export records for the kernel function it calls."""
    return f"{function.__module__}.{function.__qualname__}"


def export_for(function: Any, arguments: tuple[Any, ...]) -> Callable[..., Any] | None:
    """The ahead-of-time module's export of ``function`` for ``arguments``,
    or None (numba's just-in-time path then runs the call)."""
    exports = _exports()
    if exports is None:
        return None
    candidates = exports.get(function_name(function))
    if not candidates:
        return None
    key = fingerprint(arguments)
    for wanted, export in candidates:
        if wanted == key:
            return export
    return None


@cache
def _exports() -> dict[str, list[tuple[Any, Callable[..., Any]]]] | None:
    """Each kernel function's exports with their fingerprints, from the module (built now if need be); None without one."""
    if jit_forced():
        return None
    folder = module_folder()
    missing = not (folder / SIGNATURES).exists() and not (folder.parent / f"{folder.name}.{FAILED}").exists()
    if missing and "numba" in sys.modules:
        return None  # numba is loaded already (a user's compiled code): building would save this process nothing
    if missing:
        build(folder)
    return load(folder)


def load(folder: Path) -> dict[str, list[tuple[Any, Callable[..., Any]]]] | None:
    """The exports of the module in ``folder``, or None when it is not there (or cannot be loaded)."""
    try:
        signatures = json.loads((folder / SIGNATURES).read_text(encoding="utf-8"))
        library = next(folder.glob(f"{MODULE_NAME}.*"))
    except (OSError, ValueError, StopIteration):
        return None
    specification = importlib.util.spec_from_file_location(MODULE_NAME, library)
    if specification is None or specification.loader is None:
        return None
    module = importlib.util.module_from_spec(specification)
    try:
        specification.loader.exec_module(module)
    except ImportError as error:  # a module built for another interpreter or CPU: the JIT path
        said_once(f"pacsim: the ahead-of-time kernel in {folder} cannot be loaded ({error}); compiling just in time")
        return None
    exports: dict[str, list[tuple[Any, Callable[..., Any]]]] = {}
    for export, (function, wanted) in signatures.items():
        exports.setdefault(function, []).append((as_tuples(wanted), getattr(module, export)))
    return exports


def module_folder() -> Path:
    """Where this environment's module lives (built or not)."""
    return cache_root() / f"kernel-{build_key()[:24]}"


@cache
def build_key() -> str:
    """Everything the module's machine code is made of: pacsim's kernel
    sources (every file of :mod:`pacsim.fast` and the rules it compiles),
    numba's and llvmlite's installs, Python's version and the CPU."""
    from pacsim.engine import layout, state
    from pacsim.fast import evaluations, kinds, policies
    from pacsim.search import star

    folder = Path(pacsim.fast.__file__).parent
    sources = sorted({*folder.glob("*.py"), *(Path(module.__file__ or "") for module in
                                                 (layout, state, kinds, policies, evaluations, star))})
    hasher = hashlib.sha256()
    for source in sources:
        hasher.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    for package in ("numba", "llvmlite"):  # their install, without importing them (a reinstall changes it)
        found = importlib.util.find_spec(package)
        origin = Path(found.origin) if found is not None and found.origin else None
        stamp = origin.stat() if origin is not None else None
        hasher.update(f"{package}|{origin}|{stamp and stamp.st_mtime_ns}|{stamp and stamp.st_size}".encode())
    hasher.update(f"{sys.version}|{_cpu()}".encode())
    return hasher.hexdigest()


def _cpu() -> str:
    """The CPU's model and features (the module is compiled for this CPU alone)."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        import platform

        return f"{platform.machine()}|{platform.processor()}"
    first = text.split("\n\n", 1)[0]
    return "|".join(line for line in first.splitlines() if line.startswith(("model name", "flags", "vendor_id")))


def build(folder: Path) -> None:
    """Build the module into ``folder`` (:mod:`pacsim.fast.aot_build` in a
    child process), unless another process has by the time this one holds
    the lock; a failure is written beside it and said in one line."""
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        lock = open(folder.parent / f"{folder.name}.lock", "a")  # noqa: SIM115 (held until the build is done)
    except OSError as error:
        said_once(f"pacsim: cannot keep the ahead-of-time kernel in {folder.parent} ({error}); compiling just in time")
        return
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (folder / SIGNATURES).exists() or (folder.parent / f"{folder.name}.{FAILED}").exists():
            return  # another process built it (or failed) while this one waited
        environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [
            str(Path(pacsim.fast.__file__).parents[2]), os.environ.get("PYTHONPATH", "")]))}
        child = subprocess.Popen([sys.executable, "-m", "pacsim.fast.aot_build", str(folder)], env=environment,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert child.stdout is not None
        if child.stdout.readline().strip() == COMPILING:  # the child found a C compiler: the long part begins
            said_once(f"pacsim: compiling the kernel ahead of time (once per version; kept in {folder})")
        _, errors = child.communicate()
        if child.returncode != 0:
            reason = (errors.strip().splitlines() or [f"exit status {child.returncode}"])[-1]
            failed = folder.parent / f"{folder.name}.{FAILED}"
            said_once(f"pacsim: the ahead-of-time kernel could not be built ({reason}); compiling just in time "
                      f"(delete {failed} to try again)")
            with suppress(OutputError):  # a read-only cache: the next process tries again
                write_atomically(failed, errors)


def module_ready() -> bool:
    """Whether this process would load the module at once (built for this
    version, and the JIT path not forced): ``play``'s guess of the kernel's load."""
    return not jit_forced() and (module_folder() / SIGNATURES).exists()


def available_exports() -> list[str]:
    """The kernel functions the loaded module exports (empty without one): for tests and bench."""
    exports = _exports()
    return sorted(exports or ())


_said: set[str] = set()


def said_once(line: str) -> None:
    """Print ``line`` on stderr once per process."""
    if line not in _said:
        _said.add(line)
        print(line, file=sys.stderr, flush=True)
