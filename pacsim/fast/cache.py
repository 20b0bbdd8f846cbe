"""numba's cache of compiled code, kept fresh across files.

numba checks only the source file of a cached function.  A function that
calls into another file (the game loop calls the kernel's search; the star
search and MCTS inline the kernel's rules, the table's and the streams') carries
its own copy of the code it calls, so after that other file changes it
would load machine code built from the old version.  :func:`flush_when_changed`
empties the cache of such functions when the files they call into change.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable, Mapping
from contextlib import suppress
from pathlib import Path
from typing import Any

from numba.core.registry import CPUDispatcher

from pacsim.errors import OutputError
from pacsim.files import write_atomically


def load_numba_registries_without_scipy() -> None:
    """Import numba's array functions while ``scipy.linalg`` cannot be imported.

    The first compilation or cache load of a process makes numba import
    every registry of its typing and lowering, among them
    ``numba.np.arraymath``, which imports ``scipy.linalg`` only to learn
    whether BLAS is there: about 0.75 s of a 1.1 s kernel load
    (docs/performance.md).  Without it numba's ``np.convolve`` and
    ``np.correlate`` use their own loop instead of BLAS (the kernel calls
    neither); ``np.dot`` and ``np.linalg`` still import scipy when a
    function using them compiles.  A process that has loaded ``scipy.linalg`` already loses nothing."""
    if "scipy.linalg" in sys.modules or "numba.np.arraymath" in sys.modules:
        return
    sys.modules["scipy.linalg"] = None  # type: ignore[assignment]  # importing it now raises ImportError at once
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules["scipy.linalg"]


def compiled_functions(module: str, namespace: Mapping[str, Any]) -> list[Any]:
    """The numba functions defined in ``module`` (its ``globals()`` are ``namespace``)."""
    return [value for value in namespace.values()
            if isinstance(value, CPUDispatcher) and value.py_func.__module__ == module]


def flush_when_changed(name: str, functions: Iterable[Any], sources: Iterable[str]) -> bool:
    """Flush the cached machine code of ``functions`` unless ``sources``
    (the files they call into) are as they were when it was last checked;
    ``name`` names the stamp file kept beside the cache.  True if flushed."""
    functions = list(functions)
    if not functions:  # NUMBA_DISABLE_JIT: plain Python functions, nothing cached
        return False
    digest = hashlib.sha256(b"".join(Path(source).read_bytes() for source in sources)).hexdigest()
    stamp = Path(functions[0]._cache.cache_path) / f"{name}.sources"
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
