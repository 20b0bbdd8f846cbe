"""The tree a search visited at one position, node by node.

:func:`trace_search` runs :func:`~pacsim.search.search` itself (the same
node functions, the same counters) with a :class:`Tracer` as its
:class:`~pacsim.search.base.SearchObserver`: the search tells it, at named
hooks, of each node it enters and the value it finds there, and of each
chance node's Star bounds, probes and pinned leaves; the tracer builds the
tree from them.  A search without an observer runs exactly the code it ran
before, and a traced search returns exactly the untraced one's result.
:func:`trace_mcts` records the tree a Monte Carlo tree search grew.

What a node holds is :class:`TraceNode`; the whole record is
:class:`SearchTrace`.  Nothing here knows about Pacman: a state is whatever
the game's positions are, shown by whoever draws the trace
(:mod:`pacsim.web.tree`).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any

from pacsim.search.api import checked, run_search
from pacsim.search.arguments import SearchSettings
from pacsim.search.base import (
    CHANCE,
    MAX,
    MIN,
    NEGATIVE_INFINITY,
    POSITIVE_INFINITY,
    Bounds,
    Evaluate,
    Game,
    LocalBounds,
    Order,
    SearchCounters,
    SearchResult,
)
from pacsim.search.mcts import TERMINAL, MctsNode, mcts_tree
from pacsim.search.transposition import TranspositionTable

LEAF = "leaf"
"""A node's kind where the depth ran out and the evaluation scored it."""
TERMINAL_KIND = TERMINAL
"""A node's kind at a terminal position (scored by ``utility``)."""
MCTS = "mcts"
"""The algorithm name of a Monte Carlo tree search trace."""


@dataclass(slots=True, eq=False)
class TraceNode:
    """One node the search visited, as it saw it."""

    index: int
    """Its place in :attr:`SearchTrace.nodes` (the root is 0; parents come before children)."""
    parent: int
    """The parent's index; -1 at the root."""
    level: int
    """Tree levels below the root."""
    kind: str
    """``max``, ``min``, ``chance``, ``leaf`` (depth cut-off) or ``terminal``."""
    state: Hashable
    """The position as the search imagined it."""
    edge: Any = None
    """The move leading here (MAX or MIN parent) or the outcome's index (CHANCE parent)."""
    probability: Any = None
    """Under a CHANCE parent: this outcome's probability."""
    alpha: Any = None
    """Pruned searches: the window on entry (``None`` for an unpruned search)."""
    beta: Any = None
    value: Any = None
    """What the search returned for the node: exact, or (pruned, outside the window) a bound."""
    children: list[int] = field(default_factory=list)
    moves: Sequence[Any] = ()
    """MAX and MIN nodes: every move, in the order searched (those after a cut were not searched)."""
    probabilities: tuple[Any, ...] = ()
    """CHANCE nodes: every outcome's probability, in order."""
    cut: str = ""
    """Why the node stopped before all its successors (empty: it did not)."""
    table_hit: bool = False
    """The transposition table answered the node (no successor searched)."""
    probe: bool = False
    """Star2: the first move of outcome ``edge``, searched to bound it before the Star1 pass."""
    probed_move: Any = None
    """Star2 probes: the outcome's first move, the one searched."""
    pinned: bool = False
    """Star2: a leaf outcome valued during probing (no node function call)."""
    bounds: tuple[Any, Any] | None = None
    """Star1/Star2 chance nodes: ``(L, U)`` on each successor's value, before probing."""
    visits: int = 0
    """Monte Carlo tree search: iterations through the node (``value`` is then their mean)."""


@dataclass(frozen=True, slots=True)
class TreeCounts:
    """A search's statistics, counted from its trace's nodes alone."""

    generated: int
    evaluated: int
    cutoffs: int
    max_depth: int


@dataclass(slots=True)
class SearchTrace:
    """The tree one search visited at one position."""

    algorithm: str
    """A name of :data:`~pacsim.search.ALGORITHMS`, or ``mcts``."""
    depth: int | None
    """The depth limit in tree levels (``None``: to the end, or MCTS)."""
    result: SearchResult
    """The search's own answer, exactly as the untraced search gives it."""
    nodes: list[TraceNode]
    principal_variation: tuple[int, ...] = ()
    """Node indices from the root along the best line: the chosen child at
    MAX and MIN nodes; at a CHANCE node the outcome that decides its value
    (the only one searched), else the line ends there, the value being an
    average (MCTS: the most visited child)."""

    @property
    def root(self) -> TraceNode:
        return self.nodes[0]

    def counts_by_level(self) -> list[int]:
        """How many nodes each tree level holds (the root's level first)."""
        counts = [0] * (1 + max(node.level for node in self.nodes))
        for node in self.nodes:
            counts[node.level] += 1
        return counts

    def counts(self) -> TreeCounts:
        """``generated``, ``evaluated``, ``cutoffs`` and the deepest level as
        the search counts them, from the nodes: each searched move of a MAX
        or MIN node and each Star2 probe is a position created, a CHANCE node
        creates all its outcomes at once; every leaf is an evaluation."""
        generated = evaluated = cutoffs = 0
        for node in self.nodes:
            if node.kind in (LEAF, TERMINAL_KIND):
                evaluated += 1
            elif not node.table_hit:
                if node.kind == CHANCE:
                    generated += len(node.probabilities)
                else:
                    generated += sum(1 for child in node.children if not self.nodes[child].probe)
            generated += node.probe
            cutoffs += bool(node.cut)
        return TreeCounts(generated, evaluated, cutoffs, max(node.level for node in self.nodes))


# -- tracing a depth-limited search ---------------------------------------

def trace_search(game: Game, state: Hashable, algorithm: str = "expectiminimax", depth: int | None = None,
                 evaluate: Evaluate | None = None, bounds: Bounds | LocalBounds | None = None,
                 table: TranspositionTable | None = None, order: Order | None = None) -> SearchTrace:
    """:func:`~pacsim.search.search` of ``state``, recording every node it
    visits; the arguments mean what they mean there (a traced search has
    no deadline, no ChanceProbCut and no per-move root values)."""
    started = perf_counter()
    settings = SearchSettings(depth=depth, evaluate=evaluate, bounds=bounds, table=table, order=order)
    arguments = checked(game, algorithm, settings, started)
    tracer = Tracer(game, order)
    remaining: Any = math.inf if depth is None else depth
    tracer.open_root(state, remaining)
    result = run_search(arguments, state, started, tracer)
    tracer.close_root(state, result)
    return SearchTrace(algorithm, depth, result, tracer.nodes, principal_variation(tracer.nodes))


@dataclass(slots=True)
class _Frame:
    """A node being searched: where its next successor comes from, and the
    counters' changes made by the node itself (its successors' excluded)."""

    node: TraceNode
    successors: Sequence[Hashable] = ()
    next_successor: int = 0
    marks: tuple[int, int, int] = (0, 0, 0)
    """The counters (cutoffs, generated, evaluated) when the node last took over from a successor."""
    own: list[int] = field(default_factory=lambda: [0, 0, 0])


class Tracer:
    """Records the nodes of one search: the :class:`~pacsim.search.base.SearchObserver`
    :func:`trace_search` hands the search.

    The tracer asks the game again what it needs to label a node (its kind,
    its moves, its outcomes): those calls are not the search's and are not
    counted."""

    def __init__(self, game: Game, order: Order | None) -> None:
        self.game = game
        self.order = order
        self.nodes: list[TraceNode] = []
        self.stack: list[_Frame] = []
        self.counters = SearchCounters()
        self.probing: tuple[int, Any] | None = None
        """The outcome whose first move Star2 is probing, and that move, while it does."""

    # -- the hooks the search calls (SearchObserver); the node hooks are below --
    def search_started(self, counters: SearchCounters) -> None:
        self.counters = counters

    def chance_bounded(self, lower: Any, upper: Any) -> None:
        self.stack[-1].node.bounds = (lower, upper)

    def probe_started(self, outcome: int, move: Any) -> None:
        self.probing = (outcome, move)

    def probe_ended(self) -> None:
        self.probing = None

    def leaf_pinned(self, outcome: int, probability: Any, state: Hashable, terminal: bool, value: Any) -> None:
        parent = self.stack[-1].node
        leaf = self.add(parent.index, parent.level + 1, TERMINAL_KIND if terminal else LEAF, state, outcome)
        leaf.probability, leaf.value, leaf.pinned = probability, value, True

    # -- the root ----------------------------------------------------------
    def open_root(self, state: Hashable, remaining: Any) -> None:
        """The root of a MAX or MIN position: the search's root function,
        not its node function, searches it, so it is recorded here."""
        game = self.game
        if game.is_terminal(state) or remaining == 0 or game.to_move(state) not in (MAX, MIN):
            return
        root = self.labelled(self.add(-1, 0, game.to_move(state), state, None))
        root.alpha, root.beta = NEGATIVE_INFINITY, POSITIVE_INFINITY
        self.stack.append(_Frame(root))

    def close_root(self, state: Hashable, result: SearchResult) -> None:
        if not self.nodes:  # a leaf root, scored by the root function itself
            kind = TERMINAL_KIND if self.game.is_terminal(state) else LEAF
            self.add(-1, 0, kind, state, None).value = result.value
        elif self.stack:
            root = self.stack.pop().node
            root.value = result.value
            if self.nodes[root.children[0]].alpha is None:  # an unpruned search has no windows
                root.alpha = root.beta = None

    # -- every other node: the node hooks ------------------------------------
    def node_entered(self, state: Hashable, alpha: Any, beta: Any, remaining: Any, level: int) -> None:
        counters = self.counters
        if not self.stack:
            node = self.add(-1, level, "", state, None)
        else:
            parent = self.stack[-1]
            self.settle(parent)
            node = self.child_of(parent, state, level)
        node.alpha, node.beta = alpha, beta  # None and None in an unpruned search
        if self.game.is_terminal(state):
            node.kind = TERMINAL_KIND
        elif remaining == 0:
            node.kind = LEAF
        else:
            node.kind = self.game.to_move(state)
            self.labelled(node)
        frame = _Frame(node, marks=(counters.cutoffs, counters.generated, counters.evaluated))
        if node.kind == CHANCE:
            frame.successors = [successor for _, successor in self.game.outcomes(state)]
        self.stack.append(frame)

    def child_of(self, parent: _Frame, state: Hashable, level: int) -> TraceNode:
        """The new node for ``state``, labelled by the move or outcome that leads to it."""
        above = parent.node
        if self.probing is not None and level == above.level + 2:
            outcome, move = self.probing
            node = self.add(above.index, level, "", state, outcome)
            node.probe, node.probed_move = True, move
            node.probability = above.probabilities[outcome]
            return node
        if above.kind == CHANCE:
            index = parent.next_successor
            while parent.successors[index] != state:
                index += 1
            parent.next_successor = index + 1
            node = self.add(above.index, level, "", state, index)
            node.probability = above.probabilities[index]
            return node
        move = above.moves[parent.next_successor]
        parent.next_successor += 1
        return self.add(above.index, level, "", state, move)

    def node_valued(self, value: Any) -> None:
        frame = self.stack.pop()
        self.settle(frame)
        node = frame.node
        node.value = value
        own_cutoffs, own_generated, own_evaluated = frame.own
        if node.kind in (MAX, MIN, CHANCE) and not node.children and not own_generated and not own_evaluated:
            node.table_hit = True
        if own_cutoffs:
            node.cut = cut_reason(node, [self.nodes[child] for child in node.children])
        if self.stack:
            parent = self.stack[-1]
            counters = self.counters
            parent.marks = (counters.cutoffs, counters.generated, counters.evaluated)

    def settle(self, frame: _Frame) -> None:
        """Add to ``frame``'s own counts what the counters gained since its last mark."""
        counters = self.counters
        cutoffs, generated, evaluated = frame.marks
        frame.own[0] += counters.cutoffs - cutoffs
        frame.own[1] += counters.generated - generated
        frame.own[2] += counters.evaluated - evaluated
        frame.marks = (counters.cutoffs, counters.generated, counters.evaluated)

    # -- building nodes ------------------------------------------------------
    def add(self, parent: int, level: int, kind: str, state: Hashable, edge: Any) -> TraceNode:
        node = TraceNode(len(self.nodes), parent, level, kind, state, edge)
        self.nodes.append(node)
        if parent >= 0:
            self.nodes[parent].children.append(node.index)
        return node

    def labelled(self, node: TraceNode) -> TraceNode:
        """``node`` with its moves (MAX, MIN) or its outcomes' probabilities (CHANCE)."""
        if node.kind in (MAX, MIN):
            node.moves = self.ordered_moves(node.state)
        elif node.kind == CHANCE:
            node.probabilities = tuple(probability for probability, _ in self.game.outcomes(node.state))
        return node

    def ordered_moves(self, state: Hashable) -> Sequence[Any]:
        moves = self.game.actions(state)
        return moves if self.order is None else self.order(state, moves)


def cut_reason(node: TraceNode, children: list[TraceNode]) -> str:
    """Why ``node`` stopped early, in the terms of its window."""
    value = node.value
    if node.kind == MAX:
        return f"value {shown(value)} > beta {shown(node.beta)}: {not_searched(len(node.moves) - len(children), 'move')}"
    if node.kind == MIN:
        return f"value {shown(value)} < alpha {shown(node.alpha)}: {not_searched(len(node.moves) - len(children), 'move')}"
    searched = {child.edge for child in children if not child.probe}
    left = not_searched(len(node.probabilities) - len(searched), "outcome")
    phase = "Star2 probes" if all(child.probe or child.pinned for child in children) else "Star1"
    if value > node.beta:
        return f"{phase}: lower bound {shown(value)} > beta {shown(node.beta)}: {left}"
    return f"{phase}: upper bound {shown(value)} < alpha {shown(node.alpha)}: {left}"


def not_searched(count: int, what: str) -> str:
    """"1 move not searched", "2 outcomes not searched" (0: the cut-off came at the last one and cut nothing)."""
    return f"{count} {what}{'' if count == 1 else 's'} not searched"


def shown(number: Any) -> str:
    """A value for a sentence: a fraction as it is, a float to 6 figures."""
    return f"{number:.6g}" if isinstance(number, float) else str(number)


def principal_variation(nodes: list[TraceNode]) -> tuple[int, ...]:
    """The best line from the root (see :attr:`SearchTrace.principal_variation`)."""
    line = [0]
    while True:
        node = nodes[line[-1]]
        children = [nodes[child] for child in node.children if not nodes[child].probe]
        chosen = chosen_child(node, children) if children else None
        if chosen is None:
            return tuple(line)
        line.append(chosen.index)


def averaged(node: TraceNode, nodes: list[TraceNode]) -> bool:
    """Whether ``node`` is a chance node whose value is an average of several
    searched outcomes (no one outcome decides it: the best line ends there)."""
    if node.kind != CHANCE or node.visits:
        return False
    return sum(1 for child in node.children if not nodes[child].probe) > 1


def chosen_child(node: TraceNode, children: list[TraceNode]) -> TraceNode | None:
    """The child the search keeps at ``node``: the first strictly best at a MAX
    or MIN node (the search's own rule, so a pruned child's bound never
    wins), the most visited under MCTS; at a CHANCE node the one outcome
    searched, or None when several were (the value is their average, which
    no one outcome's line explains: following the most probable one would
    show, say, a capture as the line of a move valued for escaping it)."""
    if node.visits:
        return max(children, key=lambda child: child.visits)
    if node.kind == CHANCE:
        return children[0] if len(children) == 1 else None
    best = children[0]
    for child in children[1:]:
        if (child.value > best.value) if node.kind == MAX else (child.value < best.value):
            best = child
    return best


# -- Monte Carlo tree search --------------------------------------------------

def trace_mcts(game: Game, state: Hashable, **options: Any) -> SearchTrace:
    """:func:`~pacsim.search.mcts` of ``state`` (``options`` as there) and the
    tree it grew: a node's ``value`` is its mean, ``visits`` its iterations."""
    result, root = mcts_tree(game, state, **options)
    nodes: list[TraceNode] = []
    pending: list[tuple[MctsNode, int, Any, Any]] = [(root, -1, None, None)]
    while pending:
        tree_node, parent, edge, probability = pending.pop()
        level = 0 if parent < 0 else nodes[parent].level + 1
        node = TraceNode(len(nodes), parent, level, tree_node.kind, tree_node.state, edge, probability,
                         value=tree_node.value if tree_node.visits == 0 else tree_node.total / tree_node.visits,
                         visits=tree_node.visits)
        nodes.append(node)
        if parent >= 0:
            nodes[parent].children.append(node.index)
        pending.extend(reversed(_mcts_children(tree_node, node.index)))
    _sort_children(nodes)
    return SearchTrace(MCTS, None, result, nodes, principal_variation(nodes))


def _mcts_children(tree_node: MctsNode, index: int) -> list[tuple[MctsNode, int, Any, Any]]:
    if tree_node.kind == CHANCE:
        return [(child, index, outcome, tree_node.successors[outcome][0])
                for outcome, child in sorted(tree_node.children.items())]
    if tree_node.kind in (MAX, MIN):
        return [(child, index, action, None) for action, child in tree_node.children]
    return []


def _sort_children(nodes: list[TraceNode]) -> None:
    """Children listed in index order (a depth-first walk numbers them so already)."""
    for node in nodes:
        node.children.sort()

