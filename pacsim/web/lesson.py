"""The lesson of two searches of one position (``pacsim tree --compare``):
the first move the two value differently, followed down to where the
difference starts, and one sentence saying what differs there.

For minimax against expectimax at a move whose ghost replies both value
alike, that is the move's own node: "ghost 1's replies: South -477 (the
game ends), West 530: minimax takes the worst, -477; expectimax averages
with p = 1/2 each, 26.5".  Nothing here draws: the page
(:mod:`pacsim.web.tree`) opens both trees along :attr:`Lesson.paths`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pacsim.search.trace import LEAF, MCTS, TERMINAL_KIND, SearchTrace, TraceNode, averaged, shown
from pacsim.web.tree_labels import mover, step


@dataclass(frozen=True, slots=True)
class Lesson:
    """Where two searches of one position part in value, and why."""

    paths: tuple[tuple[int, ...], tuple[int, ...]]
    """Each trace's node indices from the root to the node where the difference starts."""
    start: int
    """The place on :attr:`paths` of the first node the two value differently (1: a move of the root's);
    every node after it is valued differently too."""
    sentence: str
    """What differs there, in one sentence."""


PAIRS_AT_MOST = 200_000
"""Pairs of nodes compared looking for the first difference (a classic-sized tree's whole)."""


def find_lesson(first: SearchTrace, second: SearchTrace, names: tuple[str, str]) -> Lesson | None:
    """The lesson of ``first`` against ``second``: the shallowest move (or
    line of moves) the two value differently, followed down while its
    children differ too (None: they value every line they share alike)."""
    paths = first_difference(first, second)
    if paths is None:
        return None
    start = len(paths[0]) - 1
    one, other = first.nodes[paths[0][-1]], second.nodes[paths[1][-1]]
    while one.kind == other.kind and MCTS not in (first.algorithm, second.algorithm):
        differing = [(a, b) for a, b in paired_children(first, one, second, other) if not same_value(a.value, b.value)]
        if not differing:
            break  # the children agree: the difference is in how the two combine them here
        one, other = clearest(first, second, differing)
        paths[0].append(one.index)
        paths[1].append(other.index)
    text = sentence(first, second, short_names(first, second, names), paths, start)
    return Lesson((tuple(paths[0]), tuple(paths[1])), start, text)


def first_difference(first: SearchTrace, second: SearchTrace) -> tuple[list[int], list[int]] | None:
    """The two paths from the roots to the shallowest pair of nodes reached by
    the same moves and valued differently (level by level; at one level the
    :func:`clearest` pair)."""
    level = [([0], [0])]
    compared = 0
    while level and compared < PAIRS_AT_MOST:
        differing: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
        deeper = []
        for path_one, path_other in level:
            for a, b in paired_children(first, first.nodes[path_one[-1]], second, second.nodes[path_other[-1]]):
                paths = ([*path_one, a.index], [*path_other, b.index])
                if same_value(a.value, b.value):
                    deeper.append(paths)
                else:
                    differing[a.index, b.index] = paths
        if differing:
            one, other = clearest(first, second, [(first.nodes[a], second.nodes[b]) for a, b in differing])
            return differing[one.index, other.index]
        compared += len(deeper)
        level = deeper
    return None


def paired_children(first: SearchTrace, one: TraceNode, second: SearchTrace, other: TraceNode) -> list[tuple[TraceNode, TraceNode]]:
    """The children of ``one`` and ``other`` reached by the same move, in ``one``'s order."""
    theirs = {step(second, second.nodes[index]): second.nodes[index] for index in searched(second, other)}
    pairs = []
    for index in searched(first, one):
        child = first.nodes[index]
        match = theirs.get(step(first, child))
        if match is not None:
            pairs.append((child, match))
    return pairs


def searched(trace: SearchTrace, node: TraceNode) -> list[int]:
    """``node``'s children the search valued (a Star2 probe only bounds an outcome)."""
    return [index for index in node.children if not trace.nodes[index].probe]


def clearest(first: SearchTrace, second: SearchTrace, differing: list[tuple[TraceNode, TraceNode]]) -> tuple[TraceNode, TraceNode]:
    """The pair to follow: one whose own children the two value alike (the
    difference is then all in how each combines them), then one a search
    plays, then the largest difference."""
    lines = set(first.principal_variation), set(second.principal_variation)

    def rank(pair: tuple[TraceNode, TraceNode]) -> tuple[bool, bool, float]:
        one, other = pair
        clean = all(same_value(a.value, b.value) for a, b in paired_children(first, one, second, other))
        played = one.index in lines[0] or other.index in lines[1]
        return clean, played, abs(as_float(one.value) - as_float(other.value))

    return max(differing, key=rank)


def same_value(one: Any, other: Any) -> bool:
    a, b = as_float(one), as_float(other)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))


def as_float(value: Any) -> float:
    return math.nan if value is None else float(value)


def short_names(first: SearchTrace, second: SearchTrace, names: tuple[str, str]) -> tuple[str, str]:
    """The searches' algorithm names where they tell the two apart, else the names given."""
    if first.algorithm != second.algorithm:
        return first.algorithm, second.algorithm
    return names


# -- the sentence ---------------------------------------------------------------

def sentence(first: SearchTrace, second: SearchTrace, names: tuple[str, str], paths: tuple[list[int], list[int]],
             start: int) -> str:
    """"The same move, West, is worth -477 to minimax and 26.5 to expectimax:
    ghost 1's replies ...": the first node valued differently is at ``start`` on ``paths``."""
    move_one, move_other = first.nodes[paths[0][start]], second.nodes[paths[1][start]]
    one, other = first.nodes[paths[0][-1]], second.nodes[paths[1][-1]]
    same = f"move, {step(first, move_one)}," if start == 1 else f"line, {path_text(first, paths[0][:start + 1])},"
    text = f"The same {same} is worth {shown(move_one.value)} to {names[0]} and {shown(move_other.value)} to {names[1]}"
    if len(paths[0]) > start + 1:
        text += f"; the difference starts at {path_text(first, paths[0])}"
    replies = replies_of(first, one, second, other)
    rules = f"{names[0]} {how(first, one)}; {names[1]} {how(second, other)}"
    return f"{text}: {replies}: {rules}." if replies else f"{text}: {rules}."


def path_text(trace: SearchTrace, path: list[int]) -> str:
    """"Pacman East → ghost 1 South": the moves from the root, each with who made it."""
    return " → ".join(f"{mover(trace.nodes[trace.nodes[index].parent])} {step(trace, trace.nodes[index])}" for index in path[1:])


def replies_of(first: SearchTrace, one: TraceNode, second: SearchTrace, other: TraceNode) -> str:
    """"ghost 1's replies: South -477 (the game ends), West 530", when both
    searches value the replies alike (else each search's rule says its own)."""
    pairs = paired_children(first, one, second, other)
    if not pairs or not all(same_value(a.value, b.value) for a, b in pairs):
        return ""
    return children_text(first, one)


def children_name(node: TraceNode) -> str:
    """What a node's children are called: random moves (a ghost's or a slippery Pacman's at a chance node),
    outcomes (another game's chance node), replies (a ghost's, MIN's), moves."""
    who = mover(node) or ""
    if node.kind == "chance":
        return "random moves" if who.startswith("ghost") or who == "Pacman" else "outcomes"
    return "replies" if who.startswith("ghost") or who == "MIN" else "moves"


def children_text(trace: SearchTrace, node: TraceNode) -> str:
    """"ghost 1's replies: South -477 (the game ends), West 530"."""
    children = [trace.nodes[index] for index in searched(trace, node)]
    listed = ", ".join(f"{step(trace, child)} {shown(child.value)}"
                       + (" (the game ends)" if child.kind == TERMINAL_KIND else "") for child in children)
    return f"{mover(node) or 'the mover'}'s {children_name(node)}: {listed}"


def how(trace: SearchTrace, node: TraceNode) -> str:
    """How ``trace``'s search got ``node``'s value, in a few words."""
    value = shown(node.value)
    if node.visits:
        return f"averages its {node.visits} playouts through it, {value}"
    if node.kind == LEAF:
        return f"stops searching here and scores the position, {value}"
    if node.kind == TERMINAL_KIND:
        return f"scores the end of the game, {value}"
    if node.kind == "chance" and node.cut:
        return f"stops averaging early, {value} (a bound: {node.cut})"
    if node.kind == "chance":
        rule = f"averages with p = {probabilities(trace, node)}" if averaged(node, trace.nodes) else "follows its one outcome"
    else:
        rule = "takes the best" if node.kind == "max" else "takes the worst"
    return f"{rule}, {value}" + (f" (a bound: {node.cut})" if node.cut else "")


def probabilities(trace: SearchTrace, node: TraceNode) -> str:
    """``1/2 each``, or ``1/4, 3/4`` in the outcomes' order."""
    shares = [fraction(trace.nodes[index].probability) for index in searched(trace, node)]
    if len(set(shares)) == 1:
        return f"{shares[0]} each"
    return ", ".join(shares)


def fraction(probability: Any) -> str:
    """A probability as a short fraction where it is one (0.5: 1/2), else to 3 figures."""
    exact = Fraction(probability).limit_denominator(100)
    return str(exact) if abs(float(exact) - float(probability)) < 1e-9 else f"{float(probability):.3g}"
