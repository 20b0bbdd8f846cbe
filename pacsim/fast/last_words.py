"""A C signal handler that says why pacsim ends inside a user's compiled code.

Compiled code runs no Python signal handler until it returns, so
:func:`pacsim.engine.deadline.compiled_code` hands a Ctrl-C and the move
limit's alarm to the default action around a call into a user's
``@pacsim.kernel_evaluation``: the process ends even if that function never
returns.  Without a word, that looked like a crash ("Alarm clock").  This
handler is compiled C (a numba ``cfunc``, so no Python runs in it): it writes
one line to standard error with ``write(2)``, then lets the signal's default
action end the process as before (same signal, same exit status)."""

from __future__ import annotations

import signal

import numpy as np
from numba import cfunc, types

from pacsim.engine import deadline

INTERRUPTED = np.frombuffer(
    b"pacsim: interrupted inside a user's compiled function (@pacsim.kernel_evaluation) that had not returned: "
    b"the games stored so far are kept, the game in play is lost\n", dtype=np.uint8)
OVERRAN = np.frombuffer(
    f"pacsim: error: a user's compiled function (@pacsim.kernel_evaluation) ran {deadline.COMPILED_GRACE:g} s past "
    "its move limit and cannot be stopped otherwise: pacsim ended; the games stored so far are kept, the game in "
    "play is lost\n".encode(), dtype=np.uint8)

_INTERRUPT = int(signal.SIGINT)
_DEFAULT_ACTION = 0
_write = types.ExternalFunction("write", types.intp(types.int32, types.voidptr, types.uintp))
_set_handler = types.ExternalFunction("signal", types.uintp(types.int32, types.uintp))  # the default action is 0
_raise = types.ExternalFunction("raise", types.int32(types.int32))


@cfunc(types.void(types.int32), cache=True)
def _say_and_end(signum):  # async-signal-safe calls only: write, signal, raise
    if signum == _INTERRUPT:
        _write(2, INTERRUPTED.ctypes.data, INTERRUPTED.size)
    else:
        _write(2, OVERRAN.ctypes.data, OVERRAN.size)
    _set_handler(signum, _DEFAULT_ACTION)
    _raise(signum)  # held until this handler returns, then the default action ends the process


def prepare() -> None:
    """Give the handler to :mod:`pacsim.engine.deadline`.  Importing this module compiles (or loads) it: only
    where a user's compiled function runs, before a move's clock (the kernels' warm-up does it)."""
    address = _say_and_end.address
    assert address is not None  # compiled when this module was imported
    deadline.set_last_words(address)
