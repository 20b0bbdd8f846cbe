"""How a traced node is named on the tree page: its move, who moves there,
and the step leading to it, for a Pacman search (Pacman, ghost 1, ...) and
for any other game (MAX, MIN, chance).  Shared by the page
(:mod:`pacsim.web.tree`), its lesson (:mod:`pacsim.web.lesson`) and its
exercises (:mod:`pacsim.web.exercise`)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from pacsim.engine.capture.state import CaptureState
from pacsim.engine.layout import ACTIONS
from pacsim.engine.state import GameState
from pacsim.search.trace import SearchTrace, TraceNode

GAME_MOVERS = {"max": "MAX", "min": "MIN", "chance": "chance"}
"""Who moves at a node of a game that is not Pacman's, by the node's kind."""


def label(move: Any) -> str:
    """A move for the page: a Pacman move's action name, anything else as text."""
    if isinstance(move, tuple) and move and isinstance(move[0], str):
        return move[0]
    return str(move)


def pacman_state(node_state: Any) -> GameState | None:
    """The Pacman position of a node (a slippery Pacman's chance node wraps it)."""
    if isinstance(node_state, GameState):
        return node_state
    inner = getattr(node_state, "state", None)
    return inner if isinstance(inner, GameState) else None


def mover(node: TraceNode) -> str | None:
    """Who chooses (or, at a chance node, draws) the move out of ``node``:
    ``Pacman`` or ``ghost N`` in a Pacman search, ``red 0 (MAX)`` in a capture
    team's, else MAX, MIN or chance;
    None at a leaf or a terminal node (nobody moves there)."""
    if node.kind not in GAME_MOVERS:
        return None
    state = pacman_state(node.state)
    if isinstance(node.state, CaptureState):  # the agent, its side, and whether it is the searching team's
        turn = node.state.turn
        return f"{'red' if turn % 2 == 0 else 'blue'} {turn} ({GAME_MOVERS[node.kind]})"
    if state is None:
        return GAME_MOVERS[node.kind]
    return "Pacman" if state.turn == 0 else f"ghost {state.turn}"


def outcome_move(parent: Hashable, node: TraceNode) -> str | None:
    """The move a chance outcome is, in a Pacman search (the ghost's, or a
    slippery Pacman's), else None."""
    before = pacman_state(parent)
    after = pacman_state(node.state) if not node.probe else None
    if before is None or after is None or after.turn == before.turn:
        return None
    return ACTIONS[after.directions[before.turn]]


def outcome_label(parent: Hashable, node: TraceNode) -> str:
    """A chance outcome by name: the move it is (see :func:`outcome_move`)
    and its number, else its number alone."""
    move = outcome_move(parent, node)
    return f"outcome {node.edge}" if move is None else f"{move} (outcome {node.edge})"


def step(trace: SearchTrace, node: TraceNode) -> str:
    """The move leading to ``node`` by name alone (a chance outcome by the
    move it is, where it is one): what two searches of one position share."""
    parent = trace.nodes[node.parent]
    if parent.kind == "chance":
        return outcome_move(parent.state, node) or f"outcome {node.edge}"
    return label(node.edge)
