"""The kernel's functions, importable without numba.

Importing numba costs about as much as importing numpy, and loading the
kernel from numba's cache several times more (docs/performance.md).  A
process that runs only the built-in kernel needs neither: it calls the
ahead-of-time module (:mod:`pacsim.fast.aot`).  So the kernel's modules
decorate their functions with :func:`njit` and :func:`intrinsic` from
here, which only record the function and its options; numba is imported,
and each function made numba's own, the first time a process needs the
just-in-time path (:func:`materialize`): no ahead-of-time module, a call
it does not cover, a user's own compiled code, ``PACSIM_KERNEL=jit``.

A :class:`Compiled` is the function everywhere: compiled code that calls
another kernel function reads the :class:`Compiled` from its globals
(numba types it as the function's dispatcher), and a call from Python
goes to the ahead-of-time module when that covers it, else to numba.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from pacsim.fast.aot import KEY_ATTRIBUTE, export_for, said_once
from pacsim.fast.cache_folder import cache_root


class Compiled:
    """A kernel function as its module defines it: the Python function and
    numba's options, made numba's dispatcher on first need."""

    def __init__(self, function: Callable[..., Any], options: dict[str, Any], kind: str = "njit") -> None:
        self.py_func = function
        self.targetoptions = {"nopython": True, **options}
        self.kind = kind
        self.__name__ = function.__name__
        self.__qualname__ = function.__qualname__
        self.__module__ = function.__module__
        self.__doc__ = function.__doc__
        self.__wrapped__ = function
        self._dispatcher: Any = None

    def dispatcher(self) -> Any:
        """numba's own object for the function (imports numba the first time)."""
        if self._dispatcher is None:
            materialize()
            import numba
            from numba.extending import intrinsic as numba_intrinsic

            if self.kind == "intrinsic":
                self._dispatcher = numba_intrinsic(self.py_func)
            else:
                options = {name: value for name, value in self.targetoptions.items() if name != "nopython"}
                self._dispatcher = numba.njit(**options)(self.py_func)
        return self._dispatcher

    def __call__(self, *arguments: Any) -> Any:
        export = export_for(self, arguments)  # the ahead-of-time module's, when it covers the call
        if export is not None:
            return export(*arguments)
        return self.dispatcher()(*arguments)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "_dispatcher":
            raise AttributeError(name)
        return getattr(self.dispatcher(), name)  # overloads, compile, _cache...: numba's

    def __repr__(self) -> str:
        return f"<kernel function {self.__module__}.{self.__qualname__}>"


_hooks: list[Callable[[], None]] = []
_materialized = False


def njit(**options: Any) -> Callable[[Callable[..., Any]], Any]:
    """numba's ``njit(**options)``, deferred until the just-in-time path is needed."""
    def decorate(function: Callable[..., Any]) -> Any:
        return Compiled(function, options)
    return decorate


def intrinsic(function: Callable[..., Any]) -> Any:
    """numba's ``intrinsic``, deferred likewise (``function`` imports what it needs of numba itself)."""
    return Compiled(function, {}, "intrinsic")


def when_compiling(hook: Callable[[], None]) -> None:
    """Run ``hook`` when numba is first needed (now, if it is already):
    registering the rules numba compiles, flushing stale caches."""
    if _materialized:
        hook()
    else:
        _hooks.append(hook)


def materialize() -> None:
    """Import numba and ready it for the kernel's functions (each becomes
    numba's at its first need): its registries, the typing of a
    :class:`Compiled`, the hooks of :func:`when_compiling`.  Once per
    process, before numba compiles or loads any kernel function."""
    global _materialized
    if _materialized:
        return
    _materialized = True
    load_numba_registries_without_scipy()
    _teach_numba()
    for hook in _hooks:
        hook()
    _hooks.clear()


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


def _teach_numba() -> None:
    """numba types a :class:`Compiled` global as the function's own numba type."""
    from numba.core.registry import cpu_target
    from numba.core.typing.typeof import typeof_impl

    @typeof_impl.register(Compiled)
    def _typeof_compiled(value: Compiled, context: Any) -> Any:
        function = value.dispatcher()
        if value.kind == "intrinsic":
            cpu_target.typing_context.refresh()  # an intrinsic is typed by the registry it has just joined
        return cpu_target.typing_context.resolve_value_type(function)


def is_materialized() -> bool:
    """Whether numba has been imported for the kernel in this process."""
    return _materialized


# -- compilation said and kept out of the clocks (numba-free) ------------------

class Recorded(Exception):  # not an error (no PacsimError): the call it stops was only recorded
    """Raised in place of a call to the kernel while a recorder is set (:func:`recording`)."""


_recorder: Callable[[Any, tuple[object, ...]], None] | None = None


def recording(recorder: Callable[[Any, tuple[object, ...]], None] | None) -> None:
    """Set (or with None, clear) the function that receives every kernel
    entry and its arguments in place of running it: how
    :mod:`pacsim.fast.aot_build` learns the types the entries are called
    with, from the very code that calls them."""
    global _recorder
    _recorder = recorder


def machine_code(function: Any, arguments: tuple[object, ...]) -> Any:
    """What runs ``function`` on ``arguments``: the ahead-of-time module's
    export when it covers the call, else numba's dispatcher (a
    :class:`Compiled` itself while a recorder is set, or any other function)."""
    if not isinstance(function, Compiled) or _recorder is not None:
        return function
    return export_for(function, arguments) or function.dispatcher()


def compile_before_timing(function: Any, arguments: tuple[object, ...]) -> float:
    """Compile (or load) ``function`` for ``arguments`` unless it has
    machine code already (the ahead-of-time module's, or numba's); the
    seconds it took (0.0 when it had).  Callers call this before they
    start a game's or a move's clock: compilation is its own figure, never a game's."""
    if _recorder is not None:
        _recorder(function, arguments)
        raise Recorded
    if isinstance(function, Compiled):
        if export_for(function, arguments) is not None:
            return 0.0
        function = function.dispatcher()
    if getattr(function, "overloads", True):  # machine code already (a dict), or not a numba function
        return 0.0
    started = time.perf_counter()
    misses = sum(function._cache_misses.values())
    function.compile(tuple(function.typeof_pyval(argument) for argument in arguments))
    seconds = time.perf_counter() - started
    if sum(function._cache_misses.values()) > misses and hasattr(function.py_func, KEY_ATTRIBUTE):
        said_once(f"pacsim: compiled {describe(function)} in {seconds:.1f} s (once per version; "
                  f"kept in {cache_root()})")
    return seconds


def describe(dispatcher: Any) -> str:
    """What a copy was compiled around, for a person (the names the copy records)."""
    return getattr(dispatcher.py_func, "__pacsim_description__", dispatcher.py_func.__qualname__)
