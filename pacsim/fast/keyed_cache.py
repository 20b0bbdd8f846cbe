"""Users' compiled code kept on disk, keyed by everything that makes its machine code.

numba's own cache keys a function on its source file's time stamp: a copy
of a kernel search compiled around a user's evaluation (:mod:`pacsim.fast.own`)
lives in the kernel's file, and would be loaded unchanged after the user
edited the evaluation.  :func:`keep_on_disk` gives such a function a cache
of its own instead, in a private folder (:func:`pacsim.fast.cache_folder.private_folder`)
named by :func:`~pacsim.fast.cache_folder.environment_digest` (what every compiled
code depends on), stamped with :func:`~pacsim.fast.cache_folder.user_digest` of the
user's functions (their files, the files of what they call, the values they
read): a stamp that differs is never loaded, and the copy compiles afresh
and replaces it.  A cache folder someone else could write is never used
(said once): the copy then compiles in memory.

Compiling one function is serialized across processes (:func:`one_compiler`):
the N workers of a run wait while the first compiles it and then load its
result, so a run compiles once and says so once (:func:`said_once`).
"""

from __future__ import annotations

import fcntl
import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from numba.core.caching import CompileResultCacheImpl, FunctionCache, _CacheLocator

from pacsim.errors import UntrustedCacheError
from pacsim.fast.aot import KEY_ATTRIBUTE, said_once
from pacsim.fast.cache_folder import cache_root, environment_digest, private_folder, trusted_root
from pacsim.fast.jit import materialize

materialize()  # users' code compiles here: the kernel's functions become numba's first (pacsim.fast.jit)


def users_folder() -> Path:
    """Where this environment's users' compiled code is kept."""
    return cache_root() / environment_digest()[:24]


class _KeyedLocator(_CacheLocator):
    """numba's cache locator for a function carrying :data:`KEY_ATTRIBUTE`:
    the environment's folder, and the key as the source stamp numba compares."""

    def __init__(self, py_func: Any, py_file: str) -> None:
        self._py_file = py_file
        self._key = getattr(py_func, KEY_ATTRIBUTE)
        self._path = str(users_folder())

    def ensure_cache_path(self) -> None:
        try:
            private_folder(Path(self._path))
        except UntrustedCacheError as error:  # numba skips a locator whose folder raises OSError
            raise PermissionError(str(error)) from None

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
    Where the cache folder cannot be written, or is not this user's (or root's) alone,
    it compiles in memory as before."""
    if dispatcher.py_func.__closure__:  # numba pickles a closure's cells into its key: not for users' objects
        return dispatcher
    try:
        trusted_root()
        private_folder(users_folder())
    except UntrustedCacheError as error:
        said_once(f"pacsim: {error}; compiling users' code in memory")
        return dispatcher
    except OSError:
        return dispatcher
    setattr(dispatcher.py_func, KEY_ATTRIBUTE, key)
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
