"""The one error hierarchy of pacsim.

Every mistake a user can make (a broken layout, a config typo, an unknown
agent, a bad replay) raises a subclass of :class:`PacsimError`; the command
line turns these into a one-line message and exit status 2.  Anything else
that escapes is a bug in pacsim and keeps its traceback.
"""

from __future__ import annotations

from collections.abc import Iterable


class PacsimError(Exception):
    """Root of every error caused by user input."""


class LayoutError(PacsimError, ValueError):
    """A layout file or text that cannot be used.

    The message is ``FILE:LINE:COL: what is wrong`` where a place applies.
    """

    def __init__(self, message: str, source: str = "<layout>", line: int | None = None, column: int | None = None):
        self.source = source
        self.line = line
        self.column = column
        self.reason = message
        where = source
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        super().__init__(f"{where}: {message}")


class ConfigError(PacsimError, ValueError):
    """An experiment file, a command-line option or an agent option is wrong."""


class AgentError(PacsimError, ValueError):
    """An unknown agent name or a bad agent option.

    ``option`` names the option to blame when one is (``depth`` for
    ``depth=0``), so a caller can point at where it was given."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option

    def __reduce__(self) -> tuple[type[AgentError], tuple[str, str | None]]:
        return (type(self), (str(self), self.option))  # across processes, keep the option


class ReplayError(PacsimError, ValueError):
    """A recorded game that cannot be replayed."""


class StoreError(PacsimError, ValueError):
    """A results store that cannot be used: missing, not pacsim's, or damaged
    (a corrupt page, a row pacsim cannot have written)."""


class SearchError(PacsimError, ValueError):
    """A search asked for something it cannot do (a node type an algorithm
    does not handle, star pruning without bounds, ...)."""


class UntrustedCacheError(PacsimError):
    """A cache folder or file someone else could have written (not owned by
    this user, or writable by others): pacsim loads no compiled code from it."""


class OutputError(ConfigError):
    """An output path that cannot be written, or that would destroy a file it
    must not (an input of the command, a results store).  A :class:`ConfigError`,
    as the options naming outputs were before it."""


class IllegalActionError(PacsimError, ValueError):
    """An action that is not legal in the state it was applied to."""


def install_hint(extra: str) -> str:
    """How to add an optional extra (``plot``, ``dask``, ``gif``), said so that
    it works whether pacsim came from a wheel or from a checkout."""
    return f"install the {extra} extra: pip install 'pacsim[{extra}]' (from a checkout: pip install -e '.[{extra}]')"


DEBUG_VARIABLE = "PACSIM_DEBUG"
"""Set to 1 (or give ``--debug``): an agent that raises shows its full
traceback, for people debugging their own agents, not just one line."""


def debug_wanted() -> bool:
    """Whether :data:`DEBUG_VARIABLE` asks for agents' tracebacks (read in
    worker processes too, which inherit the environment)."""
    import os

    return os.environ.get(DEBUG_VARIABLE, "") not in ("", "0")


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """``"; did you mean 'optimism_pessimism'?"`` for the known name nearest
    ``word``, or ``""`` when none is near enough: the tail of a message
    about an unknown name."""
    close = nearest(word, known)
    return f"; did you mean {close!r}?" if close is not None else ""


def nearest(word: str, known: Iterable[str]) -> str | None:
    """The name of ``known`` nearest ``word`` (the same but for case, else by
    :mod:`difflib`), or None when none is near enough."""
    from difflib import get_close_matches  # only when a mistake is being reported

    names = list(known)
    same = [name for name in names if name.lower() == word.lower()]
    close = same or get_close_matches(word, names, n=1, cutoff=0.6)
    return close[0] if close else None
