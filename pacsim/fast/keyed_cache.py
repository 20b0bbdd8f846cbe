"""Users' compiled code kept on disk, keyed by everything that makes its machine code.

numba's own cache keys a function on its source file's time stamp: a copy
of a kernel search compiled around a user's evaluation (:mod:`pacsim.fast.own`)
lives in the kernel's file, and would be loaded unchanged after the user
edited the evaluation.  :func:`keep_on_disk` gives such a function a cache
of its own instead, in a folder named by :func:`environment_digest`
(pacsim's kernel sources, numba's, llvmlite's and Python's versions, the
CPU), stamped with :func:`user_digest` of the user's functions (their
files and the files of what they call): a stamp that differs is never
loaded, and the copy compiles afresh and replaces it.

Compiling one function is serialized across processes (:func:`one_compiler`):
the N workers of a run wait while the first compiles it and then load its
result, so a run compiles once and says so once (:func:`said_once`).
"""

from __future__ import annotations

import fcntl
import hashlib
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import numba
from numba.core.caching import CompileResultCacheImpl, FunctionCache, _CacheLocator

import pacsim.fast
from pacsim.fast.aot import KEY_ATTRIBUTE, cache_root
from pacsim.fast.jit import materialize

materialize()  # users' code compiles here: the kernel's functions become numba's first (pacsim.fast.jit)


@cache
def environment_digest() -> str:
    """What every compiled copy depends on besides the user's code: every
    source file of the kernel (and the rules it compiles), numba's,
    llvmlite's and Python's versions, and the CPU numba compiles for."""
    import llvmlite
    from llvmlite import binding

    from pacsim.fast import kernel

    folder = Path(pacsim.fast.__file__).parent
    sources = sorted({*folder.glob("*.py"), *(Path(source) for source in kernel.SOURCES)})
    hasher = hashlib.sha256()
    for source in sources:
        hasher.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    from numba.core import config

    cpu = getattr(config, "CPU_NAME", None) or binding.get_host_cpu_name()
    features = getattr(config, "CPU_FEATURES", None) or binding.get_host_cpu_features().flatten()

    hasher.update(f"{numba.__version__}|{llvmlite.__version__}|{sys.version}|{cpu}|{features}".encode())
    return hasher.hexdigest()


def user_digest(functions: tuple[Any, ...]) -> str:
    """A digest of ``functions`` (Python functions, or None) and everything
    their machine code is built from: their own and each called function's
    source file, and the values of the other globals they read."""
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
    hasher.update(repr(function.__defaults__).encode())
    for name in _names_read(function.__code__):
        if name in function.__globals__:
            _hash_value(function.__globals__[name], hasher, seen)
    for cell in function.__closure__ or ():
        _hash_value(cell.cell_contents, hasher, seen)
    _hash_value(getattr(function, "bounds", None), hasher, seen)  # Star1/Star2 compile a kernel evaluation's bounds


def _hash_value(value: Any, hasher: Any, seen: set[int]) -> None:
    if isinstance(value, types.FunctionType) or hasattr(value, "py_func"):
        _hash_function(value, hasher, seen)
    elif isinstance(value, types.ModuleType):  # its functions are read by attribute: its whole file
        hasher.update(_file_bytes(getattr(value, "__file__", None) or ""))
    elif hasattr(value, "tobytes"):  # a numpy array, frozen into the code as a constant
        hasher.update(value.tobytes())
    else:
        hasher.update(repr(value).encode())


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


class _KeyedLocator(_CacheLocator):
    """numba's cache locator for a function carrying :data:`KEY_ATTRIBUTE`:
    the environment's folder, and the key as the source stamp numba compares."""

    def __init__(self, py_func: Any, py_file: str) -> None:
        self._py_file = py_file
        self._key = getattr(py_func, KEY_ATTRIBUTE)
        self._path = str(cache_root() / environment_digest()[:24])

    def ensure_cache_path(self) -> None:
        Path(self._path).mkdir(parents=True, exist_ok=True)

    def get_cache_path(self) -> str:
        return self._path

    def get_source_stamp(self) -> Any:
        return self._key

    def get_disambiguator(self) -> str:
        return "keyed"

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> _KeyedLocator | None:
        return cls(py_func, py_file) if hasattr(py_func, KEY_ATTRIBUTE) else None


class _KeyedImplementation(CompileResultCacheImpl):
    _locator_classes = [_KeyedLocator]  # noqa: RUF012 (numba's own class attribute)


class _KeyedCache(FunctionCache):
    _impl_class = _KeyedImplementation


def keep_on_disk(dispatcher: Any, key: str) -> Any:
    """Give ``dispatcher`` (an uncached numba function) a disk cache
    stamped ``key``, and compile it under :func:`one_compiler`; returns it.
    Where the cache folder cannot be written, it compiles in memory as before."""
    if dispatcher.py_func.__closure__:  # numba pickles a closure's cells into its key: not for users' objects
        return dispatcher
    setattr(dispatcher.py_func, KEY_ATTRIBUTE, key)
    try:
        cache_root().mkdir(parents=True, exist_ok=True)
    except OSError:
        return dispatcher
    dispatcher._cache = _KeyedCache(dispatcher.py_func)
    name = hashlib.sha256(f"{dispatcher.py_func.__qualname__}|{key}".encode()).hexdigest()[:24]
    lock = Path(dispatcher._cache.cache_path) / f"{name}.lock"
    compile_now = dispatcher.compile

    def compile_serialized(signature: Any) -> Any:
        with one_compiler(lock):
            return compile_now(signature)

    dispatcher.compile = compile_serialized
    return dispatcher


_held: set[Path] = set()
"""The lock files this process holds (numba compiles one function at a time per process)."""


@contextmanager
def one_compiler(lock: Path) -> Iterator[None]:
    """Hold the lock file ``lock`` (one a function and key) while compiling:
    the workers of a run that need the same function wait while the first
    compiles it, then load it; others compile theirs meanwhile.  A function
    locks only what it calls while it compiles, so two processes never
    wait for each other.  Re-entrant in one process."""
    if lock in _held:
        yield
        return
    handle = _open_lock(lock)
    _held.add(lock)
    try:
        if handle is not None:
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        _held.discard(lock)
        if handle is not None:
            handle.close()  # closing releases the lock


def _open_lock(lock: Path) -> Any:
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        return open(lock, "a")
    except OSError:  # a read-only cache: compile without waiting
        return None
