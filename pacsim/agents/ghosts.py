"""Ghost policies.  Each exposes ``distribution(state)``, its true move
probabilities, so that a Pacman modelling the ghosts can use the real policy."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from pacsim.agents import backend
from pacsim.agents.api import Distribution, StochasticAgent, uniform
from pacsim.agents.random_ghost import RandomGhost as RandomGhost  # its home before: kept importable from here
from pacsim.engine import PLAYING, GameState, apply_move
from pacsim.errors import AgentError
from pacsim.fast import available
from pacsim.fast.evaluations import chase_utility, chase_value
from pacsim.fast.kinds import GhostKind
from pacsim.fast.policies import (
    PROBABILITY_TOLERANCE,
    Distances,
    first_bad_probability,
    ghost_probabilities,
    pacman_move_rows,
    parameters_of,
    searched_probabilities,
)
from pacsim.search import MAX, MIN

if TYPE_CHECKING:
    from pacsim.fast.view import GhostPolicy

MAX_GHOST_DEPTH = 10
"""Deepest adversarial ghost search (rounds): beyond it a move takes minutes."""

SEARCHED_POSITIONS = 200_000
"""Positions an adversarial ghost remembers its search's moves for (about 100 MB at most)."""


@dataclass(frozen=True)
class DirectionalOptions:
    """Options of the directional ghost."""

    attack: float = 0.8
    """Probability mass on the moves that approach Pacman most (by maze distance), in [0, 1]."""
    flee: float = 0.8
    """Probability mass on the moves that flee from Pacman most while scared, in [0, 1]."""

    def __post_init__(self) -> None:
        for option, value in (("attack", self.attack), ("flee", self.flee)):
            if not 0.0 <= value <= 1.0:
                raise AgentError(f"option {option}={value!r} must be a probability in [0, 1]", option=option)


class DirectionalGhost(StochasticAgent[DirectionalOptions]):
    """Prefers moves that approach Pacman (by maze distance) with probability
    ``attack``, or that flee from him with probability ``flee`` while scared;
    the rest of the mass is spread uniformly over all legal moves (as CS188's
    DirectionalGhost, which measures Manhattan distance instead)."""

    name = "directional"
    kernel_plays = True
    Options = DirectionalOptions

    def distribution(self, state: GameState) -> Distribution:
        return policy_distribution(GhostKind.DIRECTIONAL, parameters_of(self.options), state)


@dataclass(frozen=True)
class AmbusherOptions:
    """Options of the ambusher."""

    attack: float = 0.8
    """Probability mass on the moves that approach its aim most (by maze distance), in [0, 1]."""
    flee: float = 0.8
    """Probability mass on the moves that flee from Pacman most while scared, in [0, 1]."""
    ahead: int = 4
    """How many cells ahead of Pacman it aims, along his last direction (stopping at a wall), 0 to 10."""

    def __post_init__(self) -> None:
        DirectionalOptions(self.attack, self.flee)  # the same checks
        if not 0 <= self.ahead <= 10:
            raise AgentError(f"option ahead={self.ahead!r} must be in [0, 10]", option="ahead")


class AmbusherGhost(StochasticAgent[AmbusherOptions]):
    """The arcade's ambusher (Pinky): the directional ghost aiming ``ahead``
    cells in front of Pacman rather than at him, to cut him off; while
    scared it flees Pacman as the directional ghost does."""

    name = "ambusher"
    kernel_plays = True
    Options = AmbusherOptions

    def distribution(self, state: GameState) -> Distribution:
        return policy_distribution(GhostKind.AMBUSHER, parameters_of(self.options), state)


def policy_distribution(kind: GhostKind, parameters: tuple[float, ...], state: GameState) -> Distribution:
    """The distribution of the ghost to move under the policy ``kind``:
    :func:`pacsim.fast.policies.ghost_probabilities`, the function the
    kernel compiles, called here as plain Python."""
    moves = state.legal_moves()
    count = len(moves)
    probabilities = [0.0] * count
    layout = state.layout
    ghost_probabilities(kind, Distances(layout), pacman_move_rows(layout), state.pacman, state.directions[0],
                        state.scared[state.turn - 1] > 0, [target for _, target in moves], count, parameters,
                        probabilities)
    return [(action, probability) for (action, _), probability in zip(moves, probabilities)]


@dataclass(frozen=True)
class KernelGhostOptions:
    """Options of a user's own ghost policy (a :func:`pacsim.kernel_ghost` function)."""

    backend: str = "auto"
    """auto (whole games in the compiled kernel when numba is installed and compiles the policy), fast or python."""

    def __post_init__(self) -> None:
        backend.check_backend(self.backend)


class KernelGhost(StochasticAgent[KernelGhostOptions]):
    """A user's own ghost policy, a function marked ``@pacsim.kernel_ghost``
    (:mod:`pacsim.fast.view`): its ``distribution`` calls the function, in
    Python, on the view of the state and the ghost's moves; the kernel
    calls the same function compiled (whole games, and the chance nodes of
    a Pacman modelling it).  A ghost spec naming such a function gets a
    subclass made for it (:func:`kernel_ghost_class`), whose ``policy`` it is."""

    name = "kernel_ghost"
    Options = KernelGhostOptions
    policy: Any = None
    """The :func:`~pacsim.fast.view.kernel_ghost` function (set on each subclass)."""

    def __init__(self, options: KernelGhostOptions | None = None) -> None:
        super().__init__(options)
        if self.options.backend == "fast":  # say it once, not in every game
            from pacsim.fast.own import compiled, ghost_arguments

            reason = compiled(self.policy, ghost_arguments())[1]
            if reason is not None:
                raise AgentError(f"option backend=fast: {reason}", option="backend")

    def distribution(self, state: GameState) -> Distribution:
        return own_distribution(self.policy, state)

    def backend_note(self) -> str | None:
        """The note that this ghost plays in Python because numba cannot
        compile its policy, or None (it compiles, or Python was asked for)."""
        if not backend.kernel_wanted(self.options.backend) or available() is not None:
            return None
        from pacsim.fast.own import compiled, ghost_arguments

        reason = compiled(self.policy, ghost_arguments())[1]
        return None if reason is None else f"pacsim: ghost {self.name} plays in Python: {reason}"


@cache
def kernel_ghost_class(policy: Any) -> type[KernelGhost]:
    """The :class:`KernelGhost` of ``policy``, made once per function (its
    name is the function's)."""
    return type(policy.__name__, (KernelGhost,), {"policy": staticmethod(policy), "name": policy.__name__,
                                                  "kernel_plays": True,
                                                  "__doc__": policy.__doc__ or KernelGhost.__doc__,
                                                  "__module__": policy.__module__})


def own_distribution(policy: GhostPolicy, state: GameState) -> Distribution:
    """``policy``'s distribution for the ghost to move in ``state``: the
    function called on :func:`~pacsim.fast.view.view_of` and
    :func:`~pacsim.fast.view.moves_of` with its moves' entries of ``out``
    NaN, checked by :func:`~pacsim.fast.policies.first_bad_probability`
    (what the kernel runs compiled).  A refused distribution is an
    :class:`AgentError` naming the function and the move."""
    import numpy as np  # only a user's own ghost needs numpy: not every game's start-up

    from pacsim.fast.view import MOVE_SLOTS, moves_of, view_of

    moves = moves_of(state)
    out = np.zeros(MOVE_SLOTS, np.float64)
    out[:moves.count] = np.nan
    policy(view_of(state), moves, out)
    legal = state.legal_moves()
    bad = first_bad_probability(out, moves.count)
    if bad >= 0:
        name = f"ghost policy {getattr(policy, '__qualname__', policy)}()"
        if bad < moves.count:
            raise AgentError(f"{name} gave move {legal[bad][0]} the probability {float(out[bad])!r} at {state!r}; "
                             "each must be a number in [0, 1] (NaN: never written)")
        total = sum(float(out[index]) for index in range(moves.count))
        raise AgentError(f"{name} gave probabilities summing to {total!r} at {state!r}; they must sum to 1 "
                         f"(within {PROBABILITY_TOLERANCE:g})")
    return [(action, float(out[index])) for index, (action, _) in enumerate(legal)]


class ChaseGame:
    """The game as the ghosts see it: ghosts are MAX and chase together,
    Pacman is MIN.  Actions are (action, target) pairs straight from the
    state's move tables, so a successor costs one tuple."""

    def __init__(self, ghost_index: int) -> None:
        self.ghost_index = ghost_index

    # States are typed Any: the search protocol takes any hashable position.
    def to_move(self, state: Any) -> str:
        return MIN if state.turn == 0 else MAX

    def actions(self, state: Any) -> Any:
        return state.legal_moves()

    def result(self, state: Any, move: Any) -> GameState:
        return apply_move(state, move[0], move[1])

    def outcomes(self, state: Any) -> Any:
        raise NotImplementedError("the chase game has no chance nodes")

    def is_terminal(self, state: Any) -> bool:
        return state.status != PLAYING

    def utility(self, state: Any) -> float:
        return chase_utility(state.status)

    def evaluate(self, state: Any) -> float:
        """Seek Pacman by maze distance; flee while scared (:func:`pacsim.fast.evaluations.chase_value`)."""
        index = self.ghost_index - 1
        return chase_value(state.layout.distances_from(state.pacman)[state.ghosts[index]], state.scared[index])


@dataclass(frozen=True)
class AdversarialOptions:
    """Options of the adversarial ghost."""

    depth: int = 2
    """Search depth in rounds (every agent moving once), 1 to 10."""
    backend: str = "auto"
    """auto (the compiled kernel when numba is installed), fast or python."""
    p: float = 1.0
    """Probability of playing the search's move; otherwise a uniformly random legal move (1: always search, 0: the random ghost)."""

    def __post_init__(self) -> None:
        if not 1 <= self.depth <= MAX_GHOST_DEPTH:
            raise AgentError(f"option depth={self.depth!r} must be in [1, {MAX_GHOST_DEPTH}]", option="depth")
        if not 0.0 <= self.p <= 1.0:
            raise AgentError(f"option p={self.p!r} must be a probability in [0, 1]", option="p")
        backend.check_backend(self.backend)


class AdversarialGhost(StochasticAgent[AdversarialOptions]):
    """A depth-limited alpha-beta ghost.  One depth is one move of every agent
    (from this ghost round to the same ghost again).  Equally good moves are
    chosen uniformly at random, so games against it differ from seed to seed.
    With ``p`` below 1 it is a mixed ghost: the search's move with
    probability ``p``, a uniformly random legal move otherwise; its
    ``distribution`` is that mixture exactly, so an expectimax Pacman can
    model it (``model=adversarial:p=0.9``)."""

    name = "adversarial"
    kernel_plays = True
    Options = AdversarialOptions

    def __init__(self, options: AdversarialOptions | None = None) -> None:
        super().__init__(options)
        backend.prepare(self.options.backend)  # load the kernel now, not in the first timed move
        self._searched: dict[GameState, tuple[tuple[float, ...], float]] = {}
        """The search's root values by position: a pure function of the
        position, asked again and again when a Pacman models this ghost
        (successive searches share most of their trees)."""

    def distribution(self, state: GameState) -> Distribution:
        p = self.options.p
        legal = state.legal_actions()
        if p == 0.0:  # the random ghost: no search needed
            return uniform(legal)
        values, best_value = self.searched_values(state)
        count = len(legal)
        chosen, probabilities = [0] * count, [0.0] * count
        size = searched_probabilities(values, best_value, count, p, chosen, probabilities)
        return [(legal[chosen[index]], probabilities[index]) for index in range(size)]

    def searched_values(self, state: GameState) -> tuple[tuple[float, ...], float]:
        """The depth-limited search's value of each legal move (in move order), and the best."""
        known = self._searched.get(state)
        if known is None:
            if len(self._searched) >= SEARCHED_POSITIONS:
                self._searched.clear()
            known = self._searched[state] = self._search(state)
        return known

    def _search(self, state: GameState) -> tuple[tuple[float, ...], float]:
        from pacsim.search import SearchSettings, search  # the searches' modules: loaded by the ghosts that search

        game, levels = ChaseGame(state.turn), self.options.depth * state.num_agents
        result = backend.try_chase_values(self.options.backend, state, levels) or search(
            game, state, "alphabeta", SearchSettings(depth=levels, evaluate=game.evaluate, root_values=True))
        return tuple(value for _, value in result.action_values), result.value
