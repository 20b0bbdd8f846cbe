"""The agent API: what every agent, built-in or plugin, is.

An agent is a subclass of :class:`Agent` (or :class:`StochasticAgent`),
which is what the game loop asks of an agent (:class:`pacsim.engine.game.Agent`):

* ``name``: the short name ``pacsim agents`` lists it under;
* ``Options``: a frozen dataclass of its options, typed, a docstring under
  each field, checked in ``__post_init__`` (raise :class:`AgentError`);
  ``NoOptions`` when it takes none.  The registry builds it from the
  command line's strings (``-a depth=3``) by the field types.  Declare it
  once, as the type argument too, and ``self.options`` is typed:
  ``class Cautious(Agent[CautiousOptions]): Options = CautiousOptions``
  (a plain ``class Cautious(Agent)`` works as well, its options untyped);
* ``reset(index, rng)`` runs before every game: the agent's index (0 is
  Pacman, i is ghost i) and its own random stream, so one agent object can
  play many games and each is a pure function of its seed;
* ``get_action(state)`` returns one of ``state.legal_actions()``;
* ``final(state)`` runs after every game that did not end in an error;
* ``last_stats``: after a move, a :class:`MoveStats` or None.

A :class:`StochasticAgent` defines ``distribution(state)`` instead and
samples it; a search Pacman can then use it as its ghost model
(``expectimax:model=my_ghosts.py:Ambusher``).

Two capabilities beyond playing are declared here too, for the tools that
use them: a :class:`SearchingAgent` (``analyze(state)``: ``pacsim analyze``)
and a :class:`ValuingAgent` (``action_values(state)`` and
``values_heading()``: the window's and the HTML player's values panel).
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import random
import textwrap
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from pacsim.engine import GameState
from pacsim.engine.stats import MoveStats
from pacsim.errors import AgentError
from pacsim.fast.policies import sample_index

if TYPE_CHECKING:
    from pacsim.search import SearchResult

__all__ = [
    "Agent", "StochasticAgent", "NoOptions", "MoveStats", "Distribution", "OptionInfo", "GhostMaker",
    "SearchingAgent", "ValuingAgent", "option_info", "sample", "uniform",
]

Distribution = list[tuple[str, float]]
"""(action, probability) pairs over the legal actions."""


@dataclass(frozen=True)
class NoOptions:
    """The options of an agent that takes none."""


DEFAULT_VALUES_TITLE = "Search values"
"""The values panel's title when an agent says nothing more."""

OptionsT = TypeVar("OptionsT")
"""An agent's ``Options`` dataclass."""


class Agent(Generic[OptionsT]):
    """Base of every agent.  Subclasses set ``name``, ``Options`` (if they take
    options) and ``get_action``; ``self.options`` is an ``Options`` instance."""

    name: ClassVar[str] = "agent"
    Options: ClassVar[type] = NoOptions
    ghost_model_option: ClassVar[str | None] = None
    """The option naming a ghost this agent models (``model`` for the search
    Pacmen): the registry then passes the agent a maker of that ghost, as
    ``ghost_model=``, unless the option is ``uniform``."""
    kernel_plays: ClassVar[bool] = False
    """Whether the compiled kernel may play this class's whole games in its
    place (a search Pacman making its ``search_request`` at every move, a
    built-in or kernel ghost its policy), calling none of its methods.
    Each class declares it for itself: a subclass, which may play
    differently, does not inherit it."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.kernel_plays = bool(cls.__dict__.get("kernel_plays", False))

    def __init__(self, options: OptionsT | None = None) -> None:
        if options is None:
            options = self.Options()
        elif not isinstance(options, self.Options):
            raise AgentError(f"agent {self.name!r} takes {self.Options.__name__}, not {type(options).__name__}")
        self.options: OptionsT = options
        self.index = 0
        self.rng = random.Random(0)
        self.last_stats: MoveStats | None = None

    def reset(self, index: int, rng: random.Random) -> None:
        """Before every game: this agent's index and random stream."""
        self.index = index
        self.rng = rng
        self.last_stats = None

    def get_action(self, state: GameState) -> str:
        """The action to play in ``state`` (it is this agent's turn)."""
        raise NotImplementedError

    def final(self, state: GameState) -> None:
        """After a game that ended by the rules or the move cap (not by an
        error), with its last state; a learning agent can learn from it here."""

    def values_heading(self) -> tuple[str, ...]:
        """For an agent with ``action_values`` (a :class:`ValuingAgent`): the
        values panel's title, then lines saying where the values come from."""
        return (DEFAULT_VALUES_TITLE,)


GhostMaker = Callable[[], Agent[Any]]
"""Makes a fresh ghost (one a Pacman models): the registry's maker for a spec."""


@runtime_checkable
class SearchingAgent(Protocol):
    """An agent whose move comes from a search it can show: ``pacsim analyze``."""

    def analyze(self, state: GameState) -> SearchResult:
        """Search ``state`` as for a move and return the whole result (value,
        move, each root move's value or visits, statistics), leaving the
        agent's own random stream and last move untouched."""


@runtime_checkable
class ValuingAgent(Protocol):
    """An agent that can value each legal action: the values panel."""

    def action_values(self, state: GameState) -> list[tuple[str, float]]:
        """Each legal action with its value as this agent sees it."""

    def values_heading(self) -> tuple[str, ...]:
        """The panel's title, then lines saying where the values come from."""


class StochasticAgent(Agent[OptionsT]):
    """An agent defined by its move distribution: a Pacman that models it can
    use the true policy, and sampling uses the agent's own random stream."""

    def distribution(self, state: GameState) -> Distribution:
        """(action, probability) over the legal actions of the agent to move in ``state``."""
        raise NotImplementedError

    def get_action(self, state: GameState) -> str:
        return sample(self.distribution(state), self.rng)


def sample(distribution: Distribution, rng: random.Random) -> str:
    """Draw an action; one uniform number per draw, so streams stay aligned
    (:func:`pacsim.fast.policies.sample_index`, the kernel's draw too)."""
    point = rng.random()
    return distribution[sample_index(point, [probability for _, probability in distribution], len(distribution))][0]


def uniform(actions: list[str]) -> Distribution:
    """Equal probability on each action."""
    share = 1.0 / len(actions)
    return [(action, share) for action in actions]


# -- describing options ---------------------------------------------------

@dataclass(frozen=True)
class OptionInfo:
    """One option of an agent, as ``pacsim agents NAME`` shows it."""

    name: str
    type: str
    """The field's type as written, e.g. ``int`` or ``float``."""
    default: Any
    doc: str
    """The docstring under the field (empty if it has none)."""


def option_info(options_class: type) -> list[OptionInfo]:
    """Every field of an ``Options`` dataclass with its type, default and docstring."""
    try:
        hints = typing.get_type_hints(options_class)
    except Exception:  # an annotation a plugin's module cannot resolve: show it as written
        hints = {}
    docs = field_docs(options_class)
    infos = []
    for field in dataclasses.fields(options_class):
        hint = hints.get(field.name, field.type)
        type_name = hint.__name__ if isinstance(hint, type) else str(hint)
        default = field.default if field.default is not dataclasses.MISSING else None
        infos.append(OptionInfo(field.name, type_name, default, docs.get(field.name, "")))
    return infos


def field_docs(cls: type) -> dict[str, str]:
    """The docstrings written under annotated fields of ``cls`` and its bases
    (Python keeps none at run time, so they are read from the source)."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
        except (OSError, TypeError, SyntaxError):
            continue
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for statement, following in itertools.pairwise(body):
            if (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
                    and isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant)
                    and isinstance(following.value.value, str)):
                docs[statement.target.id] = " ".join(following.value.value.split())
    return docs
