"""Perft: the size of the legal-move tree from a start position, level by
level, against known absolute counts.

The counts come from a tiny enumerator written here from the rules alone
(walls, Stop, the ghosts' no-reverse rule, a win on the last food, a loss on
meeting a ghost), which shares no code with pacsim's engine.  It was checked
by hand on a six-cell corridor; the shipped mazes' numbers are pinned, so a
change to pacsim's move rules (or to the enumerator) shows as a wrong count,
not only as the kernel and Python disagreeing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pacsim.engine import apply_move, load_layout, parse_layout
from pacsim.engine.state import initial_state

LAYOUTS = Path(__file__).resolve().parents[1] / "layouts"
STEPS = {"North": (-1, 0), "South": (1, 0), "East": (0, 1), "West": (0, -1)}
REVERSE = {"North": "South", "South": "North", "East": "West", "West": "East"}

CORRIDOR = "%%%%%%\n%P. G%\n%%%%%%\n"
CORRIDOR_COUNTS = [2, 3, 5, 6, 8, 9, 9]
"""Worked by hand: Pacman at column 1, one food at 2, the ghost at 4.
Level 1: Pacman East (eats the last food: won, a leaf) or Stop.  Level 2:
the ghost's only move, West, to 3.  Level 3: East (won) or Stop.  Level 4:
West to 2 (East would reverse).  Level 5: East (the last food wins, ghost or
not) or Stop.  Level 6: West onto Pacman: lost.  Level 7: nothing left.
Running totals: 2, 3, 5, 6, 8, 9, 9."""

SHIPPED_COUNTS = {
    "tinyGhostMaze": [2, 8, 26, 56, 156, 356, 1096, 2857],
    "smallClassic": [3, 6, 9, 18, 36, 72, 180, 396, 828, 2140, 4436, 8454],
}
"""Running totals of the tree's nodes, levels 1, 2, ... below the start
(one level per agent's move).  The first levels by hand: on tinyGhostMaze
Pacman can go West or Stop (2), then the ghost has 3 ways out (8); on
smallClassic Pacman has West, East, Stop (3) and each ghost's first move out
of the house is forced (6, 9)."""


def enumerate_levels(text: str, levels: int) -> list[int]:
    """Nodes at each level 1..``levels`` of the legal-move tree of the
    layout ``text``'s start, counted from the rules alone.  Capsules are
    not modelled: a line that eats one fails, so the horizon must stop short."""
    grid = [line for line in text.splitlines() if line]
    cells = {(row, column): char for row, line in enumerate(grid) for column, char in enumerate(line)}
    food = frozenset(cell for cell, char in cells.items() if char == ".")
    capsules = {cell for cell, char in cells.items() if char == "o"}
    pacman = next(cell for cell, char in cells.items() if char == "P")
    # CS188's agent order for 'G's: by column, then from the bottom row up.
    ghosts = tuple(sorted((cell for cell, char in cells.items() if char == "G"),
                          key=lambda cell: (cell[1], -cell[0])))
    counts = [0] * levels

    def moves_from(cell: tuple[int, int]) -> list[tuple[str, tuple[int, int]]]:
        found = []
        for direction, (down, right) in STEPS.items():
            target = (cell[0] + down, cell[1] + right)
            if cells.get(target, "%") != "%":
                found.append((direction, target))
        return found

    def expand(pacman, ghosts, headings, food, turn, level):
        if level == levels:
            return
        if turn == 0:
            for _, target in moves_from(pacman) + [("Stop", pacman)]:
                counts[level] += 1
                assert target not in capsules, "the enumerator does not model capsules: shorten the horizon"
                left = food - {target}
                if left and target not in ghosts:  # else won (the last food wins, ghost or not) or lost
                    expand(target, ghosts, headings, left, 1 if ghosts else 0, level + 1)
            return
        index = turn - 1
        options = moves_from(ghosts[index])
        forward = [move for move in options if headings[index] is None or move[0] != REVERSE[headings[index]]]
        for direction, target in forward or options:  # a ghost reverses only at a dead end
            counts[level] += 1
            if target != pacman:
                expand(pacman, ghosts[:index] + (target,) + ghosts[index + 1:],
                       headings[:index] + (direction,) + headings[index + 1:], food,
                       (turn + 1) % (len(ghosts) + 1), level + 1)

    expand(pacman, ghosts, (None,) * len(ghosts), food, 0, 0)
    return counts


def pacsim_levels(state, levels: int) -> list[int]:
    """Nodes at each level below ``state`` in pacsim's own legal-move tree."""
    counts = [0] * levels
    frontier = [state]
    for level in range(levels):
        following = []
        for node in frontier:
            for action, target in node.legal_moves():
                following.append(apply_move(node, action, target))
        counts[level] = len(following)
        frontier = [node for node in following if not node.status]
    return counts


def running_totals(counts: list[int]) -> list[int]:
    totals, total = [], 0
    for count in counts:
        total += count
        totals.append(total)
    return totals


def test_the_enumerator_and_pacsim_give_the_counts_worked_by_hand():
    levels = len(CORRIDOR_COUNTS)
    assert running_totals(enumerate_levels(CORRIDOR, levels)) == CORRIDOR_COUNTS
    assert running_totals(pacsim_levels(initial_state(parse_layout(CORRIDOR)), levels)) == CORRIDOR_COUNTS


@pytest.mark.parametrize("name", sorted(SHIPPED_COUNTS))
def test_perft_of_shipped_mazes_matches_the_pinned_counts(name):
    expected = SHIPPED_COUNTS[name]
    text = (LAYOUTS / f"{name}.lay").read_text(encoding="utf-8")
    assert running_totals(enumerate_levels(text, len(expected))) == expected
    assert running_totals(pacsim_levels(initial_state(load_layout(name)), len(expected))) == expected
