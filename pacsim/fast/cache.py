"""numba's cache of compiled code, kept fresh across files.

numba checks only the source file of a cached function.  A function that
calls into another file (the game loop calls the kernel's search; the star
search and MCTS inline the kernel's rules, the table's and the streams') carries
its own copy of the code it calls, so after that other file changes it
would load machine code built from the old version.  :func:`flush_when_changed`
empties the cache of such functions when the files they call into change
(:func:`keep_fresh`: once numba is needed, see :mod:`pacsim.fast.jit`), and
gives them no cache at all when numba's cache folder is not the user's (or
root's) alone: numba's cache files are pickles (:func:`trusted`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from contextlib import suppress
from pathlib import Path
from typing import Any

from pacsim.errors import OutputError, UntrustedCacheError
from pacsim.fast.aot import said_once
from pacsim.fast.cache_folder import check_private
from pacsim.fast.jit import Compiled, when_compiling
from pacsim.files import write_atomically


def compiled_functions(module: str, namespace: Mapping[str, Any]) -> list[Any]:
    """numba's dispatchers of the kernel functions defined in ``module``
    (its ``globals()`` are ``namespace``); none under ``NUMBA_DISABLE_JIT``."""
    from numba.core.registry import CPUDispatcher

    dispatchers = [value.dispatcher() for value in namespace.values()
                   if isinstance(value, Compiled) and value.kind == "njit" and value.__module__ == module]
    return [dispatcher for dispatcher in dispatchers if isinstance(dispatcher, CPUDispatcher)]


def keep_fresh(name: str, functions: Callable[[], Iterable[Any]], sources: Iterable[str]) -> None:
    """When numba is first needed, :func:`flush_when_changed` the ``functions()`` (see :mod:`pacsim.fast.jit`)."""
    sources = list(sources)

    def flush() -> None:
        flush_when_changed(name, functions(), sources)
    when_compiling(flush)


def trusted(folder: Path) -> bool:
    """Whether numba's cache folder of the kernel is this user's (or
    root's) alone (:func:`~pacsim.fast.cache_folder.check_private`); if not,
    said once.  A folder not there yet is numba's to make, as the user."""
    try:
        check_private(folder)
    except UntrustedCacheError as error:
        said_once(f"pacsim: {error}; compiling the kernel without numba's cache")
        return False
    except OSError:
        pass
    return True


def flush_when_changed(name: str, functions: Iterable[Any], sources: Iterable[str]) -> bool:
    """Flush the cached machine code of ``functions`` unless ``sources``
    (the files they call into) are as they were when it was last checked;
    ``name`` names the stamp file kept beside the cache.  True if flushed
    (or never to be read: a folder others may write is not used at all)."""
    from numba.core.caching import NullCache

    functions = list(functions)
    if not functions:  # NUMBA_DISABLE_JIT: plain Python functions, nothing cached
        return False
    folder = Path(functions[0]._cache.cache_path)
    if not trusted(folder):
        for function in functions:
            function._cache = NullCache()  # compiled in memory: nothing read from (or written to) that folder
        return True
    digest = hashlib.sha256(b"".join(Path(source).read_bytes() for source in sources)).hexdigest()
    stamp = folder / f"{name}.sources"
    try:
        if stamp.read_text(encoding="ascii") == digest:
            return False
    except OSError:  # no stamp yet (a first run) or an unreadable one: flush to be sure
        pass
    for function in functions:
        function._cache.flush()
    with suppress(OutputError):  # a read-only install: flushed again by the next process (numba cannot cache there either)
        write_atomically(stamp, digest)
    return True
