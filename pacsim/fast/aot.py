"""The built-in kernel compiled ahead of time: loaded without numba.

Loading the kernel from numba's cache imports numba and llvmlite and
links machine code at every start, several times the cost of importing
numpy.  A numba ``pycc`` extension module needs only numpy: the entry
points Python calls (the searches' and the game loop's slices, MCTS, the
maze's distances, the table's upkeep) are compiled once into one (by
:mod:`pacsim.fast.aot_build`, with the same numba code and options, for
this CPU), kept in pacsim's cache folder under a key of everything that
makes its machine code (:func:`pacsim.fast.cache_folder.environment_digest`),
and imported in a fraction of a millisecond.  Only the extension module
pacsim built is loaded (never a ``.py`` by name), and only when its bytes
match the digest written beside it when it was built, in a folder of this
user's (or root's) alone (:func:`pacsim.fast.cache_folder.check_private`);
anything else is said in one line and the kernel compiles just in time.

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
import importlib.machinery
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
from pacsim.errors import OutputError, UntrustedCacheError
from pacsim.fast.cache_folder import cache_root, check_private, environment_digest, private_folder, trusted_root
from pacsim.files import write_atomically

KERNEL_ENVIRONMENT = "PACSIM_KERNEL"
"""``jit`` makes every call take numba's just-in-time path (tests and bench
comparisons); anything else, or unset, uses the ahead-of-time module when it can."""
KEY_ATTRIBUTE = "__pacsim_cache_key__"
"""The attribute of a function's Python object that holds its cache stamp."""


def jit_forced() -> bool:
    """Whether this process must take numba's just-in-time path only."""
    return os.environ.get(KERNEL_ENVIRONMENT) == "jit" or os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")


MODULE_NAME = "pacsim_kernel"
"""The extension module's name (a file ``pacsim_kernel.*.so`` in its folder)."""
SIGNATURES = "signatures.json"
"""The file beside the module naming each export's function and argument fingerprint."""
MODULE_DIGEST = "module.sha256"
"""The file beside the module: its file name and the sha256 of its bytes, written when it was built."""
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
    try:
        trusted_root()
        if folder.exists():
            check_private(folder)
    except UntrustedCacheError as error:
        said_once(f"pacsim: {error}; compiling just in time")
        return None
    except OSError as error:
        said_once(f"pacsim: cannot keep the ahead-of-time kernel in {folder.parent} ({error}); compiling just in time")
        return None
    missing = not (folder / SIGNATURES).exists() and not (folder.parent / f"{folder.name}.{FAILED}").exists()
    if missing and "numba" in sys.modules:
        return None  # numba is loaded already (a user's compiled code): building would save this process nothing
    if missing:
        build(folder)
    return load(folder)


def load(folder: Path) -> dict[str, list[tuple[Any, Callable[..., Any]]]] | None:
    """The exports of the module in ``folder``, or None when it is not there
    (or cannot be loaded, or is not the module pacsim built: said once)."""
    try:
        signatures = json.loads(_private_bytes(folder / SIGNATURES))
        library = built_module(folder)
    except UntrustedCacheError as error:
        said_once(f"pacsim: {error}; compiling just in time (delete {folder} to build it again)")
        return None
    except (OSError, ValueError):
        return None
    loader = importlib.machinery.ExtensionFileLoader(MODULE_NAME, str(library))  # an extension module, whatever its name
    specification = importlib.util.spec_from_file_location(MODULE_NAME, library, loader=loader)
    if specification is None:
        return None
    module = importlib.util.module_from_spec(specification)
    try:
        loader.exec_module(module)
    except ImportError as error:  # a module built for another interpreter or CPU: the JIT path
        said_once(f"pacsim: the ahead-of-time kernel in {folder} cannot be loaded ({error}); compiling just in time")
        return None
    exports: dict[str, list[tuple[Any, Callable[..., Any]]]] = {}
    for export, (function, wanted) in signatures.items():
        exports.setdefault(function, []).append((as_tuples(wanted), getattr(module, export)))
    return exports


def built_module(folder: Path) -> Path:
    """The extension module in ``folder`` that pacsim built: the file
    :data:`MODULE_DIGEST` names (an extension module's name: never a
    ``.py``), this user's (or root's) alone, its bytes matching the digest.  Raises
    :class:`UntrustedCacheError` otherwise (``OSError`` if a file is missing)."""
    check_private(folder)
    digest_file = folder / MODULE_DIGEST
    try:
        name, expected = _private_bytes(digest_file).decode("ascii").split()
    except (UnicodeDecodeError, ValueError):
        raise UntrustedCacheError(f"{digest_file} is not a digest pacsim wrote") from None
    except FileNotFoundError:
        raise UntrustedCacheError(f"{folder} holds no digest of its module (pacsim writes one when it builds it)") from None
    if name not in {MODULE_NAME + suffix for suffix in importlib.machinery.EXTENSION_SUFFIXES}:
        raise UntrustedCacheError(f"{digest_file} names {name!r}, not an extension module of this Python")
    library = folder / name
    if hashlib.sha256(_private_bytes(library)).hexdigest() != expected:
        raise UntrustedCacheError(f"{library} is not the module pacsim built (its bytes do not match its digest)")
    return library


def module_digest(library: Path) -> str:
    """What :data:`MODULE_DIGEST` holds for ``library``: its name and the sha256 of its bytes."""
    return f"{library.name} {hashlib.sha256(library.read_bytes()).hexdigest()}\n"


def _private_bytes(path: Path) -> bytes:
    check_private(path)
    return path.read_bytes()


def module_folder() -> Path:
    """Where this environment's module lives (built or not)."""
    return cache_root() / f"kernel-{environment_digest()[:24]}"  # the one key of compiled code


def build(folder: Path) -> None:
    """Build the module into ``folder`` (:mod:`pacsim.fast.aot_build` in a
    child process), unless another process has by the time this one holds
    the lock; a failure is written beside it and said in one line."""
    try:
        private_folder(folder.parent)
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
