"""The seeds' worked examples as games: test vectors for the searches, and
what ``pacsim tree --example NAME`` draws.

Each is a small :class:`~pacsim.search.base.Game` with its position, the
algorithm that shows it and the value the seed gives.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pacsim.search.base import CHANCE, MAX, MIN


class TreeGame:
    """A game given as an explicit tree: a node is ``("max"|"min", [child,
    ...])``, ``("chance", [(p, child), ...])`` or a bare number (a leaf).
    Positions are tuples of child indices from the root, actions the child
    indices."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.scored: list[tuple[int, ...]] = []  # positions whose utility was asked for, in order

    def node(self, path: tuple[int, ...]) -> Any:
        node = self.root
        for index in path:
            children = node[1]
            node = children[index][1] if node[0] == "chance" else children[index]
        return node

    def to_move(self, path: tuple[int, ...]) -> str:
        kind = self.node(path)[0]
        return {"max": MAX, "min": MIN, "chance": CHANCE}.get(kind, kind)

    def actions(self, path: tuple[int, ...]) -> list[int]:
        return list(range(len(self.node(path)[1])))

    def result(self, path: tuple[int, ...], action: int) -> tuple[int, ...]:
        return (*path, action)

    def outcomes(self, path: tuple[int, ...]) -> list[tuple[Any, tuple[int, ...]]]:
        return [(p, (*path, index)) for index, (p, _) in enumerate(self.node(path)[1])]

    def is_terminal(self, path: tuple[int, ...]) -> bool:
        return not isinstance(self.node(path), tuple)

    def utility(self, path: tuple[int, ...]) -> Any:
        self.scored.append(path)
        return self.node(path)


# Seed 003: the bounded inc-and-square game.
class IncAndSquare:
    """Positions (number, moves made); inc = +1 mod 10, sqr = square mod 10;
    over at 6 or 7 or after 4 moves; MAX moves at even move counts."""

    def to_move(self, state: Any) -> str:
        return MAX if state[1] % 2 == 0 else MIN

    def actions(self, state: Any) -> list[str]:
        return ["inc", "sqr"]

    def result(self, state: Any, action: str) -> Any:
        number, moves = state
        return ((number + 1) % 10 if action == "inc" else number * number % 10, moves + 1)

    def outcomes(self, state: Any) -> list[tuple[Any, Any]]:
        raise AssertionError("deterministic game")

    def is_terminal(self, state: Any) -> bool:
        return state[0] in (6, 7) or state[1] == 4

    def utility(self, state: Any) -> Any:
        return state[0]


# Seed 000: the stochastic variant.  sqr squares the number v with
# probability v/10 and doubles it (mod 10) otherwise; at most 3 moves.  A
# position is (number, moves made, sqr pending); a pending sqr is a CHANCE
# node, so chance levels count as tree levels.
class StochasticIncAndSquare(IncAndSquare):
    def to_move(self, state: Any) -> str:
        if state[2]:
            return CHANCE
        return MAX if state[1] % 2 == 0 else MIN

    def result(self, state: Any, action: str) -> Any:
        number, moves, _ = state
        if action == "inc":
            return ((number + 1) % 10, moves + 1, False)
        return (number, moves, True)

    def outcomes(self, state: Any) -> list[tuple[Any, Any]]:
        number, moves, _ = state
        squared = Fraction(number, 10)
        draws = []
        if squared:  # leave out the impossible outcome at 0
            draws.append((squared, (number * number % 10, moves + 1, False)))
        draws.append((1 - squared, (2 * number % 10, moves + 1, False)))
        return draws

    def is_terminal(self, state: Any) -> bool:
        return not state[2] and (state[0] in (6, 7) or state[1] == 3)


HALF = Fraction(1, 2)
EXPECTIMAX_LECTURE = ("chance", [(HALF, 8), (Fraction(1, 3), 24), (Fraction(1, 6), -12)])
"""Seed 002: 1/2 * 8 + 1/3 * 24 + 1/6 * (-12) = 10."""
CHANCE_ALPHA_BETA = ("max", [("chance", [(HALF, ("min", [3, 4])), (HALF, ("min", [-1, 5]))]),
                             ("chance", [(HALF, ("min", [-4, 2])), (HALF, ("min", [3, 4]))])])
"""Seed 002, "alpha-beta pruning in games with chance", -5 <= e(n) <= 5:
the left coin is worth 1; in the right coin the first MIN node is at most
-4, so the coin is at most 0.5 < 1 and the nodes marked "?" (here 2, 3 and
4, arbitrary values within the bounds) need not be computed."""
THREE_LEVEL = ("max", [("chance", [(HALF, 10), (HALF, 0)]), ("chance", [(HALF, 5), (HALF, 15)])])
"""Seed 004: max over two fair coins, (10, 0) -> 5 and (5, 15) -> 10."""


@dataclass(frozen=True)
class Example:
    """A seed's worked example: the game, where it starts, how it is searched."""

    source: str
    """The seed and what it shows."""
    game: Any
    state: Hashable
    algorithm: str
    value: Any
    """The value the seed gives."""
    bounds: tuple[Any, Any] | None = None

    def trace(self) -> Any:
        """The example's search, traced (:func:`pacsim.search.trace.trace_search`)."""
        from pacsim.search.trace import trace_search  # the trace needs the searches, which need this module's neighbours

        return trace_search(self.fresh_game(), self.state, self.algorithm, bounds=self.bounds)

    def fresh_game(self) -> Any:
        """The game, its record of scored leaves empty (a tree game counts them)."""
        game = self.game
        return TreeGame(game.root) if isinstance(game, TreeGame) else game


EXAMPLES: dict[str, Example] = {
    "expectimax-lecture": Example("seed 002: expectimax chance node, value 10", TreeGame(EXPECTIMAX_LECTURE), (),
                                  "expectimax", 10),
    "chance-alpha-beta": Example("seed 002: alpha-beta with chance nodes (Star1), the ? nodes never searched",
                                 TreeGame(CHANCE_ALPHA_BETA), (), "star1", 1, (-5, 5)),
    "chance-alpha-beta-star2": Example("seed 002's chance-node example under Star2: a probe cuts the right coin",
                                       TreeGame(CHANCE_ALPHA_BETA), (), "star2", 1, (-5, 5)),
    "inc-and-square": Example("seed 003: the bounded inc-and-square game, minimax value 5, MAX plays inc",
                              IncAndSquare(), (1, 0), "alphabeta", 5),
    "stochastic-inc-and-square": Example("seed 000: the stochastic inc-and-square game, value 6.9",
                                         StochasticIncAndSquare(), (1, 0, False), "expectiminimax", Fraction(69, 10)),
    "three-level": Example("seed 004: a three-level expectiminimax example, value 10, MAX plays the second move",
                           TreeGame(THREE_LEVEL), (), "expectiminimax", 10),
}
"""Every example by its ``--example`` name."""
