"""Monte Carlo tree search (seed 002) over the :class:`~pacsim.search.base.Game` protocol.

Every iteration has four steps:

1. **selection**: from the root, a MAX or MIN node moves to the child with
   the highest :func:`ucb1` score *from its own mover's side* (MIN scores
   a child by how low its mean is); a CHANCE node draws one outcome with its
   probability from ``Game.outcomes``, so the visits of its children follow
   the probabilities and its mean estimates the expectation;
2. **expansion**: the first node met with an untried move gets one new
   child for it (chosen at random among the untried ones); a CHANCE node
   whose drawn outcome has no child yet gets that one;
3. **rollout**: from the new node a fast policy plays on, outside the tree,
   until a terminal position (``utility``) or ``rollout_depth`` moves
   (``evaluate``);
4. **backup**: every node on the path adds one visit and the value.

Values are kept as MAX's payoffs on the game's own scale.  UCB1 adds a mean
reward to an exploration term ``c * sqrt(ln N / n)``, so the two must be on
one known scale, the unit interval; with Pacman scores of hundreds of points
and ``c = 1.4`` the exploration term would vanish.  :func:`mcts` therefore
maps every value ``v`` to ``(v - low) / (high - low)`` before UCB1 sees it:
with ``bounds=(low, high)`` given, those; otherwise the lowest and highest
value backed up so far in this search (a running min/max, updated every
iteration, as MuZero normalises its values).  Means reported in the result
are never normalised: they are on the game's scale.

A depth here counts tree levels, MAX, MIN and CHANCE alike, as in
:func:`pacsim.search.search`; a rollout move is one level.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Callable, Hashable, Sequence
from itertools import accumulate
from time import perf_counter
from typing import Any

from pacsim.errors import SearchError
from pacsim.search.base import (
    CHANCE,
    MAX,
    MIN,
    Game,
    SearchResult,
    SearchStats,
    no_moves_error,
    node_type_error,
)

RolloutStep = Callable[[Hashable, random.Random], Hashable]
"""A rollout policy as one step: ``step(state, rng)`` returns the position
after one move (or one chance draw) from the non-terminal ``state``, using
only ``rng`` for randomness.  At CHANCE positions it must draw from the
distribution ``Game.outcomes`` gives, or the search estimates a different
game."""

TERMINAL = "terminal"
"""The node type of a tree node at a terminal position."""


def ucb1(reward_sum: float, visits: int, parent_visits: int, c: float) -> float:
    """UCB1 of a child (seed 002): ``U/N + c * sqrt(ln N(parent) / N)``.

    ``reward_sum`` is the child's total reward from the point of view of
    the player choosing at the parent, on a [0, 1] scale per visit.  An
    unvisited child scores infinity, so every child is tried once first.

    >>> round(ucb1(60, 79, 100, 1.5), 2), round(ucb1(2, 11, 100, 1.5), 2)
    (1.12, 1.15)
    """
    if visits == 0:
        return math.inf
    return reward_sum / visits + c * math.sqrt(math.log(parent_visits) / visits)


def random_rollout(game: Game) -> RolloutStep:
    """The default rollout policy: a uniformly random move at MAX and MIN
    positions, an outcome drawn with its probability at CHANCE positions."""
    to_move = game.to_move

    def step(state: Hashable, rng: random.Random) -> Hashable:
        if to_move(state) == CHANCE:
            draws = game.outcomes(state)
            if not draws:
                raise no_moves_error(state)
            weights = list(accumulate(float(probability) for probability, _ in draws))
            return draws[_draw(weights, rng)][1]
        moves = game.actions(state)
        if not moves:
            raise no_moves_error(state)
        return game.result(state, moves[rng.randrange(len(moves))])

    return step


def _draw(cumulative: Sequence[float], rng: random.Random) -> int:
    """The index of an outcome drawn with probability proportional to its
    weight, given the running sums of the weights."""
    return min(bisect_right(cumulative, rng.random() * cumulative[-1]), len(cumulative) - 1)


class MctsNode:
    """One position in the tree and what the iterations through it found.

    ``children`` is ``[(action, node), ...]`` at MAX and MIN nodes and
    ``{outcome index: node}`` at CHANCE nodes."""

    __slots__ = ("children", "cumulative", "kind", "state", "successors", "total", "untried", "value", "visits")

    def __init__(self, state: Hashable, kind: str) -> None:
        self.state = state
        self.kind = kind
        self.visits = 0
        self.total: Any = 0
        """Sum of the backed-up values, MAX's payoffs on the game's scale."""
        self.children: Any = None
        self.untried: list[Any] = []
        self.successors: Sequence[tuple[Any, Hashable]] = ()
        self.cumulative: list[float] = []
        self.value: Any = None
        """The utility, at a terminal node."""


def mcts(
    game: Game,
    state: Hashable,
    iterations: int | None = None,
    time: float | None = None,
    c: float = 1.4,
    rollout: RolloutStep | None = None,
    rollout_depth: int | None = None,
    evaluate: Callable[[Hashable], Any] | None = None,
    bounds: tuple[float, float] | None = None,
    seed: int = 0,
) -> SearchResult:
    """Monte Carlo tree search from ``state``; the most visited root move wins.

    The budget is ``iterations`` (a positive integer), ``time`` (seconds of
    wall clock, looked at after every iteration) or both, whichever ends
    first; at least one iteration always runs.  ``c`` is UCB1's exploration
    constant on values normalised to [0, 1] (see the module docstring):
    larger explores more, 0 is greedy.  ``rollout`` is the rollout policy as
    a :data:`RolloutStep` (default :func:`random_rollout`); ``rollout_depth``
    stops a rollout after that many moves and scores the position with
    ``evaluate`` (required then; ``rollout_depth=0`` evaluates the new node
    itself); ``None`` plays every rollout to the end, so the game must end.
    ``bounds=(low, high)`` fixes the normalisation; every value must lie
    within it (not checked).  The same ``seed`` gives the same result.

    The result's ``action`` is the most visited root move (ties: the better
    mean for the mover, then the first in ``actions()`` order); ``value`` is
    its mean value (at a CHANCE root: the root's mean; ``action`` is then
    None); ``action_values`` holds every visited root move's mean and
    ``action_visits`` every root move's visits, in ``actions()`` order.
    ``stats.generated`` counts positions made in the tree (``result`` calls
    and ``outcomes`` successors) plus one per rollout move.

    Misuse (no budget, a bad ``c``, ``rollout_depth`` without ``evaluate``,
    a node type that is not MAX, MIN or CHANCE, ...) raises
    :class:`~pacsim.errors.SearchError`.
    """
    return mcts_tree(game, state, iterations, time, c, rollout, rollout_depth, evaluate, bounds, seed)[0]


def mcts_tree(game: Game, state: Hashable, iterations: int | None = None, time: float | None = None, c: float = 1.4,
              rollout: RolloutStep | None = None, rollout_depth: int | None = None,
              evaluate: Callable[[Hashable], Any] | None = None, bounds: tuple[float, float] | None = None,
              seed: int = 0) -> tuple[SearchResult, MctsNode]:
    """:func:`mcts`'s result and the tree it grew (what :mod:`pacsim.search.trace` shows)."""
    started = perf_counter()
    _check_arguments(iterations, time, c, rollout, rollout_depth, evaluate, bounds, seed)
    searcher = _Searcher(game, c, rollout or random_rollout(game), rollout_depth, evaluate, bounds, seed)
    root = searcher.new_node(state, 0)
    if root.kind != TERMINAL:
        deadline = None if time is None else started + time
        while True:
            searcher.iterate(root)
            if iterations is not None and searcher.iterations >= iterations:
                break
            if deadline is not None and perf_counter() >= deadline:
                break
    return searcher.result(root, perf_counter() - started), root


def _check_arguments(iterations: Any, time: Any, c: Any, rollout: Any, rollout_depth: Any, evaluate: Any,
                     bounds: Any, seed: Any) -> None:
    """Raise :class:`SearchError` on the first argument :func:`mcts` cannot use."""
    if iterations is None and time is None:
        raise SearchError("mcts needs a budget: iterations=N, time=SECONDS or both")
    if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1):
        raise SearchError(f"mcts: iterations must be a positive integer, not {iterations!r}")
    if time is not None and not (_is_number(time) and 0 < time < math.inf):
        raise SearchError(f"mcts: time must be a positive number of seconds, not {time!r}")
    if not (_is_number(c) and 0 <= c < math.inf):
        raise SearchError(f"mcts: c must be a finite number >= 0, not {c!r}")
    if rollout is not None and not callable(rollout):
        raise SearchError("mcts: rollout must be a callable(state, rng) -> next state")
    if rollout_depth is not None:
        if isinstance(rollout_depth, bool) or not isinstance(rollout_depth, int) or rollout_depth < 0:
            raise SearchError(f"mcts: rollout_depth must be None or a non-negative integer, not {rollout_depth!r}")
        if evaluate is None:
            raise SearchError(f"mcts: rollout_depth={rollout_depth} needs an evaluate function for the cut-off positions")
    if evaluate is not None and not callable(evaluate):
        raise SearchError("mcts: evaluate must be a callable(state) -> value")
    if bounds is not None:
        try:
            low, high = bounds
            usable = _is_number(low) and _is_number(high) and math.isfinite(low) and math.isfinite(high) and low <= high
        except (TypeError, ValueError):
            usable = False
        if not usable:
            raise SearchError(f"mcts: bounds must be a pair of finite numbers (low, high), low <= high, not {bounds!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SearchError(f"mcts: seed must be an integer, not {seed!r}")


def _is_number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float))


class _Searcher:
    """The tree's builder and its counters; :func:`mcts` drives it."""

    def __init__(self, game: Game, c: float, step: RolloutStep, rollout_depth: int | None,
                 evaluate: Callable[[Hashable], Any] | None, bounds: tuple[float, float] | None, seed: int) -> None:
        self.game = game
        self.c = c
        self.step = step
        self.rollout_depth: float = math.inf if rollout_depth is None else rollout_depth
        self.evaluate = evaluate
        self.fixed_bounds = bounds
        self.low: Any = math.inf if bounds is None else bounds[0]
        self.high: Any = -math.inf if bounds is None else bounds[1]
        self.rng = random.Random(seed)
        self.iterations = 0
        self.generated = 0
        self.evaluated = 0
        self.simulated = 0
        self.nodes = 0
        self.deepest = 0

    # -- the tree ------------------------------------------------------------
    def new_node(self, state: Hashable, level: int) -> MctsNode:
        """A tree node for ``state`` at tree level ``level``, its moves or
        outcomes listed (a terminal node scores itself once)."""
        game = self.game
        self.nodes += 1
        if level > self.deepest:
            self.deepest = level
        if game.is_terminal(state):
            node = MctsNode(state, TERMINAL)
            self.evaluated += 1
            node.value = game.utility(state)
            return node
        kind = game.to_move(state)
        node = MctsNode(state, kind)
        if kind in (MAX, MIN):
            node.untried = list(game.actions(state))
            if not node.untried:
                raise no_moves_error(state)
            node.children = []
        elif kind == CHANCE:
            node.successors = game.outcomes(state)
            if not node.successors:
                raise no_moves_error(state)
            self.generated += len(node.successors)
            node.cumulative = list(accumulate(float(probability) for probability, _ in node.successors))
            node.children = {}
        else:
            raise node_type_error("mcts", kind)
        return node

    def iterate(self, root: MctsNode) -> None:
        """One selection, expansion, rollout and backup."""
        self.iterations += 1
        node = root
        path = [root]
        while True:
            kind = node.kind
            if kind == TERMINAL:
                value = node.value
                break
            if kind == CHANCE:
                index = _draw(node.cumulative, self.rng)
                child = node.children.get(index)
                if child is None:
                    child = self.new_node(node.successors[index][1], len(path))
                    node.children[index] = child
                    path.append(child)
                    value = self.rollout(child)
                    break
            elif node.untried:
                untried = node.untried
                picked = self.rng.randrange(len(untried))
                untried[picked], untried[-1] = untried[-1], untried[picked]
                action = untried.pop()
                self.generated += 1
                child = self.new_node(self.game.result(node.state, action), len(path))
                node.children.append((action, child))
                path.append(child)
                value = self.rollout(child)
                break
            else:
                child = self.select(node)
            node = child
            path.append(node)
        self.backup(path, value)

    def select(self, node: MctsNode) -> MctsNode:
        """The child of a fully expanded MAX or MIN node with the best UCB1
        for the mover (the first of equals)."""
        low = self.low
        span = self.high - low
        if not span > 0:  # every value so far equal (or none yet): explore only
            span = 1
        maximising = node.kind == MAX
        parent_visits = node.visits
        c = self.c
        best = None
        best_score = -math.inf
        for _, child in node.children:
            visits = child.visits
            reward = (child.total - visits * low) / span
            if not maximising:
                reward = visits - reward
            score = ucb1(reward, visits, parent_visits, c)
            if score > best_score:
                best, best_score = child, score
        assert best is not None  # a fully expanded node has children
        return best

    def rollout(self, node: MctsNode) -> Any:
        """The value of a rollout from a new node: play ``step`` until the
        end or ``rollout_depth`` moves."""
        if node.kind == TERMINAL:
            return node.value
        game = self.game
        is_terminal = game.is_terminal
        step = self.step
        rng = self.rng
        state = node.state
        moves = 0
        limit = self.rollout_depth
        while not is_terminal(state):
            if moves >= limit:
                self.simulated += moves
                self.generated += moves
                self.evaluated += 1
                return self.evaluate(state)  # type: ignore[misc]  # checked at the entry
            state = step(state, rng)
            moves += 1
        self.simulated += moves
        self.generated += moves
        self.evaluated += 1
        return game.utility(state)

    def backup(self, path: list[MctsNode], value: Any) -> None:
        """Add one visit and ``value`` to every node on ``path``; widen the
        running normalisation if no bounds were given."""
        if self.fixed_bounds is None:
            if value < self.low:
                self.low = value
            if value > self.high:
                self.high = value
        for node in path:
            node.visits += 1
            node.total += value

    # -- the answer ----------------------------------------------------------
    def result(self, root: MctsNode, seconds: float) -> SearchResult:
        """The search's answer for the root (see :func:`mcts`)."""
        action = None
        action_values: tuple[tuple[Any, Any], ...] = ()
        action_visits: tuple[tuple[Any, int], ...] = ()
        if root.kind == TERMINAL:
            value = root.value
        elif root.kind == CHANCE:
            value = root.total / root.visits
        else:
            action, value, action_values, action_visits = self.root_choice(root)
        stats = SearchStats(
            generated=self.generated, evaluated=self.evaluated, cutoffs=0, seconds=seconds,
            max_depth=self.deepest, iterations=self.iterations, simulated=self.simulated, tree_nodes=self.nodes,
        )
        return SearchResult(value=value, action=action, stats=stats, depth=None,
                            action_values=action_values, action_visits=action_visits)

    def root_choice(self, root: MctsNode) -> tuple[Any, Any, tuple[tuple[Any, Any], ...], tuple[tuple[Any, int], ...]]:
        """The most visited root move, its mean, and every move's mean and visits."""
        sign = 1 if root.kind == MAX else -1
        order = list(self.game.actions(root.state))
        by_index = {order.index(action): child for action, child in root.children}

        def mean(index: int) -> Any:
            return by_index[index].total / by_index[index].visits

        visited = sorted(by_index)
        chosen = max(visited, key=lambda index: (by_index[index].visits, sign * mean(index), -index))
        action_values = tuple((order[index], mean(index)) for index in visited)
        action_visits = tuple((action, by_index[index].visits if index in by_index else 0)
                              for index, action in enumerate(order))
        return order[chosen], mean(chosen), action_values, action_visits
