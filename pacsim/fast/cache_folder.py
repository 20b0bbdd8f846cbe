"""Where pacsim keeps compiled code, whom it trusts there, and what that code depends on.

**Where.** :func:`cache_root`: ``PACSIM_CACHE_DIR``, else
``$XDG_CACHE_HOME/pacsim`` or ``~/.cache/pacsim``: the ahead-of-time kernel
(:mod:`pacsim.fast.aot`) and users' compiled code (:mod:`pacsim.fast.keyed_cache`).

**Whom.** Loading compiled code runs it, so whoever can write a cache can
run code as whoever loads it.  Folders are made private (:func:`private_folder`,
0700), and a folder or file that is not this user's, or that others may
write, is refused with one line (:func:`check_private`, as ssh refuses a
loose key); the caller then compiles in memory (just in time) instead.

**What.** :func:`environment_digest` is the one definition of what
compiled code depends on besides a user's own: every source file the
kernel compiles, numba's, llvmlite's and numpy's installs (and numpy's
version), Python's version and the CPU.  It names the ahead-of-time
kernel's folder and the users'-code cache's; :func:`user_digest` adds a
user's functions and every value they read, element by element (a numpy
array by its dtype, shape and bytes wherever it sits: never by its repr,
which numpy shortens).  (numba's own cache of the built-in kernel is kept
fresh apart: :mod:`pacsim.fast.cache`.)
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import stat
import sys
import types
from collections.abc import Iterator
from contextlib import suppress
from functools import cache
from pathlib import Path
from typing import Any

from pacsim.errors import UntrustedCacheError

CACHE_ENVIRONMENT = "PACSIM_CACHE_DIR"
"""The folder of pacsim's compiled caches (default ``~/.cache/pacsim``)."""
LOOSE = stat.S_IWGRP | stat.S_IWOTH
"""Mode bits that let someone else write: a cache with either is refused."""
ROOT = 0
"""The user id trusted besides one's own (as ssh trusts root's files)."""


def cache_root() -> Path:
    """The folder of pacsim's caches (users' compiled code, the ahead-of-time kernel), one subfolder per environment."""
    chosen = os.environ.get(CACHE_ENVIRONMENT)
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pacsim"


# -- whom: only this user ----------------------------------------------------

def check_private(path: Path) -> None:
    """Refuse ``path`` (a cache folder or a file in one) unless this user
    (or root, whom every user trusts: a system-wide install's) owns it and
    no one else may write it: an :class:`UntrustedCacheError`,
    one line saying why and how to mend it.  An ``OSError`` if it cannot be
    looked at (missing, say).  Links are followed: what counts is what is read."""
    status = os.stat(path)
    if status.st_uid not in (os.getuid(), ROOT):
        raise UntrustedCacheError(f"{path} belongs to uid {status.st_uid}, not to you (uid {os.getuid()}) nor root: "
                                  "pacsim loads no compiled code from it")
    if status.st_mode & LOOSE:
        raise UntrustedCacheError(f"{path} is writable by others ({stat.filemode(status.st_mode)}): pacsim loads no "
                                  f"compiled code from it (chmod go-w {path})")


def private_folder(path: Path) -> Path:
    """``path``, each missing level of it made private (0700), then
    :func:`check_private`-ed; returns it.  An ``OSError`` where it cannot be made."""
    missing = []
    level = path
    while not level.exists() and level != level.parent:
        missing.append(level)
        level = level.parent
    for level in reversed(missing):
        with suppress(FileExistsError):  # another process made it meanwhile: checked below like any other
            level.mkdir(mode=0o700)
    check_private(path)
    return path


def seal(folder: Path) -> None:
    """Take group and others' write from every file in ``folder`` (a build's,
    before it is renamed into place): under a umask of 002 the compiler's
    files would be group-writable, and :func:`check_private` would refuse them."""
    for path in folder.iterdir():
        path.chmod(stat.S_IMODE(path.lstat().st_mode) & ~LOOSE)


def trusted_root() -> Path:
    """:func:`cache_root`, made private if missing and checked, its own
    folder included: a folder anyone may write (and not sticky, as ``/tmp``
    is) lets them put another cache in its place."""
    root = private_folder(cache_root())
    holder = os.stat(root.parent)
    if holder.st_mode & stat.S_IWOTH and not holder.st_mode & stat.S_ISVTX:
        raise UntrustedCacheError(f"{root.parent} is writable by everyone ({stat.filemode(holder.st_mode)}), so "
                                  f"{root} can be replaced: pacsim loads no compiled code from it")
    return root


# -- what: the one definition of what compiled code depends on ----------------

def kernel_sources() -> list[Path]:
    """Every file whose code or numbers the kernel compiles: :mod:`pacsim.fast`
    itself, the rules it takes in and the Star searches' bounds."""
    from pacsim.fast.policies import RULE_SOURCES
    from pacsim.search import star

    return sorted({*Path(__file__).parent.glob("*.py"), *(Path(source) for source in RULE_SOURCES),
                   Path(star.__file__ or "")})


@cache
def environment_digest() -> str:
    """What every piece of compiled code depends on besides a user's code:
    :func:`kernel_sources`, numba's, llvmlite's and numpy's installs (found,
    not imported: the ahead-of-time kernel runs without numba) and numpy's
    version, Python's version and the CPU (and numba's CPU settings)."""
    import numpy

    hasher = hashlib.sha256()
    for source in kernel_sources():
        hasher.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    for package in ("numba", "llvmlite", "numpy"):  # a reinstall changes the stamp
        hasher.update(_install_stamp(package).encode())
    cpu_settings = [os.environ.get(name, "") for name in ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES")]
    hasher.update(f"numpy {numpy.__version__}|{sys.version}|{_cpu()}|{cpu_settings}".encode())
    return hasher.hexdigest()


def _install_stamp(package: str) -> str:
    found = importlib.util.find_spec(package)
    origin = Path(found.origin) if found is not None and found.origin else None
    status = origin.stat() if origin is not None else None
    return f"{package}|{origin}|{status and status.st_mtime_ns}|{status and status.st_size}"


def _cpu() -> str:
    """The CPU's model and features (compiled code is built for this CPU alone)."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        import platform

        return f"{platform.machine()}|{platform.processor()}"
    first = text.split("\n\n", 1)[0]
    return "|".join(line for line in first.splitlines() if line.startswith(("model name", "flags", "vendor_id")))


def user_digest(functions: tuple[Any, ...]) -> str:
    """:func:`environment_digest` and ``functions`` (Python functions, or
    None) with everything their machine code is built from: their own and
    each called function's source file, and the values of the other globals
    (and closure cells and defaults) they read."""
    hasher = hashlib.sha256(environment_digest().encode())
    seen: set[int] = set()
    for function in functions:
        hasher.update(b"|")
        if function is not None:
            _hash_function(function, hasher, seen)
    return hasher.hexdigest()


def _hash_function(function: Any, hasher: Any, seen: set[int]) -> None:
    """Hash ``function``'s file, name and code, then what it reads, depth first."""
    function = getattr(function, "py_func", function)  # a numba dispatcher: its Python function
    if not isinstance(function, types.FunctionType) or id(function) in seen:
        return
    seen.add(id(function))
    hasher.update(f"{function.__module__}.{function.__qualname__}".encode())
    hasher.update(_file_bytes(function.__code__.co_filename))
    hasher.update(_code_bytes(function.__code__))  # a function without a file (python -c, a notebook): its code
    hash_value(function.__defaults__, hasher, seen)
    for name in _names_read(function.__code__):
        if name in function.__globals__:
            hash_value(function.__globals__[name], hasher, seen)
    for cell in function.__closure__ or ():
        hash_value(cell.cell_contents, hasher, seen)
    hash_value(getattr(function, "bounds", None), hasher, seen)  # Star1/Star2 compile a kernel evaluation's bounds


def hash_value(value: Any, hasher: Any, seen: set[int]) -> None:
    """Hash ``value`` element by element: a function by its code and what it
    reads, a module by its file, a numpy array or scalar by its dtype, shape
    and bytes, a tuple, list, set or dict by each member (wherever an array
    sits in them), anything else by its type and repr."""
    if isinstance(value, types.FunctionType) or hasattr(value, "py_func"):
        _hash_function(value, hasher, seen)
        return
    if isinstance(value, types.ModuleType):  # its functions are read by attribute: its whole file
        hasher.update(b"module\0" + _file_bytes(getattr(value, "__file__", None) or ""))
        return
    kind = type(value)
    hasher.update(f"{kind.__module__}.{kind.__qualname__}\0".encode())
    if hasattr(value, "dtype") and hasattr(value, "tobytes"):  # a numpy array or scalar, frozen into the code
        hasher.update(f"{value.dtype.str}|{getattr(value, 'shape', ())}\0".encode())
        if value.dtype.hasobject:  # its bytes would be addresses: its members instead
            for member in value.flat:
                hash_value(member, hasher, seen)
        else:
            hasher.update(value.tobytes())
    elif isinstance(value, tuple | list | set | frozenset | dict):
        _hash_members(value, hasher, seen)
    else:
        hasher.update(repr(value).encode())


def _hash_members(value: Any, hasher: Any, seen: set[int]) -> None:
    if id(value) in seen:  # a container holding itself
        hasher.update(b"again\0")
        return
    seen.add(id(value))
    hasher.update(f"{len(value)}\0".encode())
    if isinstance(value, tuple | list):
        for member in value:
            hash_value(member, hasher, seen)
    else:  # unordered: each member (and a dict's value) by its own digest, sorted
        pairs = value.items() if isinstance(value, dict) else ((member, None) for member in value)
        for digest in sorted(_digest(key, seen) + _digest(item, seen) for key, item in pairs):
            hasher.update(digest.encode())
    seen.discard(id(value))


def _digest(value: Any, seen: set[int]) -> str:
    hasher = hashlib.sha256()
    hash_value(value, hasher, seen)
    return hasher.hexdigest()


def _code_bytes(code: types.CodeType) -> bytes:
    """``code``'s instructions, names and constants, alike whether Python
    compiled it from the source or loaded it from its bytecode cache, and in
    every process (``marshal.dumps`` is neither: its bytes depend on
    reference counts, and a frozenset's order on the process's hash seed)."""
    shape = (code.co_argcount, code.co_posonlyargcount, code.co_kwonlyargcount, code.co_flags,
             code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars)
    return b"\0".join([code.co_code, code.co_exceptiontable, repr(shape).encode(),
                        *(_constant_bytes(constant) for constant in code.co_consts)])


def _constant_bytes(constant: Any) -> bytes:
    if isinstance(constant, types.CodeType):  # nested functions and comprehensions
        return _code_bytes(constant)
    if isinstance(constant, tuple | frozenset):
        parts = [_constant_bytes(part) for part in constant]
        return type(constant).__name__.encode() + b"(" + b",".join(sorted(parts) if isinstance(constant, frozenset) else parts) + b")"
    return repr(constant).encode()


def _names_read(code: types.CodeType) -> Iterator[str]:
    yield from code.co_names
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):  # nested functions and comprehensions
            yield from _names_read(constant)


def _file_bytes(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError:  # no file (a function made in a notebook): its code alone
        return path.encode()
