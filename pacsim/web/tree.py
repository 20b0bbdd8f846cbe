"""A search trace (:mod:`pacsim.search.trace`) as a self-contained HTML page,
as JSON and as Graphviz DOT.

The page opens at the root and builds a node's children only when it is
expanded; the nodes are embedded as compact rows (the JSON schema, see
docs/tree.md), at most ``max_nodes`` of them, breadth first with the best
line always in, and the page says how many were left out.  A Pacman
position's node carries its board (Pacman, ghosts, scared timers, score,
food eaten since the root) as the search imagined it; any other game's
node carries its position's text.

Public entry points: :func:`tree_data` (the JSON), :func:`tree_page`,
:func:`compare_page` (two traces side by side, their choices' parting
marked), :func:`tree_dot`.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
import math
import tempfile
import webbrowser
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from string import Template
from typing import Any

from pacsim._version import __version__
from pacsim.engine.recording import SavedGame
from pacsim.engine.state import GameState, mask_cells
from pacsim.errors import ConfigError
from pacsim.files import write_atomically
from pacsim.search.trace import SearchTrace, TraceNode, averaged
from pacsim.web.exercise import Question, kept_for, question_data, question_for
from pacsim.web.frames import layout_data, move_positions, style_data
from pacsim.web.lesson import find_lesson
from pacsim.web.player import asset, embedded
from pacsim.web.tree_labels import label, mover, outcome_label, pacman_state

SCHEMA = "pacsim-tree/2"
"""The JSON's ``schema`` field; changes when a field changes meaning."""
MAX_NODES = 20_000
"""Nodes embedded in a page by default: a depth-4 smallClassic expectimax
tree whole, a larger one cut to about 1.5 MB."""
COLUMNS = ("parent", "kind", "edge", "probability", "value", "alpha", "beta", "flags", "cut", "children",
           "unsearched", "visits", "board", "mover")
"""The fields of a node row, in order (docs/tree.md)."""
PRINCIPAL, TABLE_HIT, PROBE, PINNED, CUT, AVERAGE = 1, 2, 4, 8, 16, 32
"""Bits of a row's ``flags``."""

Describe = Callable[[Hashable], Any]
"""A node's board for the page, from its position."""


def tree_data(trace: SearchTrace, *, title: str = "", max_nodes: int = MAX_NODES, lesson_path: tuple[int, ...] = (),
              question: Question | None = None) -> dict[str, Any]:
    """``trace`` as the page's JSON (see docs/tree.md for the schema), with
    the path ``lesson_path`` (``lesson``'s rows) and a ``question`` for the
    exercise mode (``exercise``), their nodes embedded whatever the cap."""
    keep = lesson_path + (kept_for(trace, question) if question else ())
    kept = embedded_nodes(trace, max_nodes, keep)
    number = {node.index: place for place, node in enumerate(kept)}
    data = plain_tree_data(trace, title, kept, number)
    data["lessonPath"] = [number[index] for index in lesson_path]
    data["exercise"] = None if question is None else question_data(question, number)
    return data


def plain_tree_data(trace: SearchTrace, title: str, kept: list[TraceNode], number: dict[int, int]) -> dict[str, Any]:
    describe, board = board_of(trace.root.state)
    principal = set(trace.principal_variation)
    result, stats = trace.result, trace.result.stats
    return {
        "schema": SCHEMA,
        "title": title,
        "algorithm": trace.algorithm,
        "depth": trace.depth,
        "value": number_of(result.value),
        "action": None if result.action is None else label(result.action),
        "stats": {"generated": stats.generated, "evaluated": stats.evaluated, "cutoffs": stats.cutoffs,
                  "maxDepth": stats.max_depth, "seconds": round(stats.seconds, 6), "treeNodes": stats.tree_nodes},
        "countsByLevel": trace.counts_by_level(),
        "nodesTotal": len(trace.nodes),
        "nodesEmbedded": len(kept),
        "principal": [number[index] for index in trace.principal_variation if index in number],
        "board": board,
        "columns": list(COLUMNS),
        "nodes": [row(trace, node, number, principal, describe) for node in kept],
    }


def embedded_nodes(trace: SearchTrace, max_nodes: int, keep: tuple[int, ...] = ()) -> list[TraceNode]:
    """The nodes a page holds: breadth first from the root up to
    ``max_nodes``, plus the best line and ``keep``, parents always before children."""
    nodes = trace.nodes
    kept: dict[int, TraceNode] = {index: nodes[index] for index in (*trace.principal_variation, *keep)}
    queue = deque([0])
    while queue and len(kept) < max(max_nodes, len(trace.principal_variation)):
        node = nodes[queue.popleft()]
        kept[node.index] = node
        queue.extend(node.children)
    return sorted(kept.values(), key=lambda node: (node.level, node.index))


def row(trace: SearchTrace, node: TraceNode, number: dict[int, int], principal: set[int], describe: Describe) -> list[Any]:
    """One node as a row of :data:`COLUMNS`."""
    left = unsearched(trace, node)
    ends_in_average = node.index in principal and averaged(node, trace.nodes)
    flags = ((PRINCIPAL if node.index in principal else 0) | (TABLE_HIT if node.table_hit else 0)
             | (PROBE if node.probe else 0) | (PINNED if node.pinned else 0) | (CUT if left else 0)
             | (AVERAGE if ends_in_average else 0))
    edge = node.edge
    if node.parent >= 0 and trace.nodes[node.parent].kind == "chance":
        edge = outcome_label(trace.nodes[node.parent].state, node) + (
            f", first move {label(node.probed_move)}" if node.probe else "")
    return [
        number.get(node.parent, -1), node.kind, None if edge is None else label(edge), number_of(node.probability),
        number_of(node.value), number_of(node.alpha), number_of(node.beta), flags, node.cut if left else "",
        len(node.children), left, node.visits, describe(node.state), mover(node),
    ]


def unsearched(trace: SearchTrace, node: TraceNode) -> list[str]:
    """The moves or outcomes a cut left unsearched, by name (none: the
    search counted a cut-off at its last move, which cut nothing, and the
    page shows none)."""
    if not node.cut:
        return []
    if node.moves:
        return [label(move) for move in node.moves[len(node.children):]]
    searched = {trace.nodes[child].edge for child in node.children if not trace.nodes[child].probe}
    return [f"outcome {index}" for index in range(len(node.probabilities)) if index not in searched]


def number_of(value: Any) -> Any:
    """A value for JSON: a float to 6 decimals, an exact fraction as a
    float, infinities and NaN as text (JSON has none)."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, Fraction):
        value = float(value)
    if isinstance(value, int):
        return value
    value = float(value)
    if math.isfinite(value):
        return round(value, 6)
    return "nan" if math.isnan(value) else "+inf" if value > 0 else "-inf"


# -- boards -------------------------------------------------------------------

def board_of(root: Hashable) -> tuple[Describe, dict[str, Any] | None]:
    """How a node's board is described, and the part every node shares:
    the maze for a Pacman search, nothing for any other game (its nodes
    then carry their position's text)."""
    start = pacman_state(root)
    if start is None:
        return position_text, None
    board = {"layout": layout_data(start.layout), "food": mask_cells(start.food | start.capsules),
             "capsules": mask_cells(start.capsules), "ghosts": len(start.ghosts), "style": style_data()}

    def describe(node_state: Hashable) -> list[int]:
        state = pacman_state(node_state) or start
        eaten = (start.food | start.capsules) & ~(state.food | state.capsules)
        return [state.pacman, *state.ghosts, *state.scared, state.score, *mask_cells(eaten)]

    return describe, board


def position_text(state: Hashable) -> str:
    """Another game's position for the page: its board when it draws one as
    text (a capture position's ``to_text``), else its text, cut to 200 characters."""
    to_text = getattr(state, "to_text", None)
    return str(to_text()) if callable(to_text) else str(state)[:200]


# -- pages ----------------------------------------------------------------------

def tree_page(trace: SearchTrace, *, title: str = "pacsim tree", max_nodes: int = MAX_NODES,
              question: Question | None = None) -> str:
    """The self-contained HTML page of one trace (with ``question``: as an exercise)."""
    return page([tree_data(trace, title=title, max_nodes=max_nodes, question=question)], title)


def compare_page(first: SearchTrace, second: SearchTrace, names: tuple[str, str], *, title: str = "pacsim tree",
                 max_nodes: int = MAX_NODES, exercise: str | None = None) -> str:
    """Two traces of the same position side by side; the page marks the
    first level where their best lines part (``parting`` in the JSON) and
    opens both at the lesson (:func:`~pacsim.web.lesson.find_lesson`): the
    shallowest move the two value differently, down to where that starts,
    with the sentence saying what differs (``lesson`` in the JSON); with
    ``exercise`` (``move``, or ``value``/``auto``: :func:`lesson_question`) a question for each."""
    return page(compare_data(first, second, names, max_nodes=max_nodes, exercise=exercise), title)


def compare_data(first: SearchTrace, second: SearchTrace, names: tuple[str, str], *,
                 max_nodes: int = MAX_NODES, exercise: str | None = None) -> list[dict[str, Any]]:
    """The two trees of :func:`compare_page`, each with ``parting``, ``lesson``
    (the sentence; ``lessonPath`` its rows) and, as an exercise, a question
    for each search (:func:`lesson_question`)."""
    lesson = find_lesson(first, second, names)
    paths = lesson.paths if lesson else ((), ())
    trees = []
    for trace, name, path in zip((first, second), names, paths):
        question = None
        if exercise:
            node = path[lesson.start] if lesson and exercise != "move" else None
            question = lesson_question(trace, node, name)
        trees.append(tree_data(trace, title=name, max_nodes=max_nodes, lesson_path=path, question=question))
    level = parting_level(first, second)
    for tree in trees:
        tree["parting"] = level
        tree["lesson"] = lesson.sentence if lesson else None
        tree["lessonStart"] = lesson.start if lesson else None
    return trees


def lesson_question(trace: SearchTrace, node: int | None, name: str) -> Question:
    """A comparison's question: the value of the lesson's first node valued
    differently, where it has children to work it out from, else the move played."""
    if node is not None and any(not trace.nodes[child].probe for child in trace.nodes[node].children):
        return question_for(trace, "value", node, name)
    return question_for(trace, "move", name=name)


def parting_level(first: SearchTrace, second: SearchTrace) -> int | None:
    """The level of the first node where the two best lines take different
    moves or outcomes (None: they agree as far as both go)."""
    for level, (one, other) in enumerate(zip(first.principal_variation, second.principal_variation)):
        if level and label(first.nodes[one].edge) != label(second.nodes[other].edge):
            return level
    return None


TREE_DATA = "@@PACSIM_TREE_DATA@@"
"""Where :func:`page_shell` leaves the packed trees out (the HTML replay fills it in per move)."""


def page(trees: list[dict[str, Any]], title: str) -> str:
    """The page around ``trees``."""
    return page_shell(title).replace(TREE_DATA, packed(trees))


def packed(trees: list[dict[str, Any]]) -> str:
    """``trees``' JSON gzipped and in base64: a tree's rows repeat
    themselves, so the page is several times smaller (the browser's own
    DecompressionStream opens it; base64 has no "</")."""
    data = gzip.compress(json.dumps(trees, separators=(",", ":"), allow_nan=False).encode("utf-8"), mtime=0)
    return base64.b64encode(data).decode("ascii")


def page_shell(title: str) -> str:
    """The tree page with :data:`TREE_DATA` where its trees go."""
    return Template(asset("tree.html")).substitute(version=__version__, title=html.escape(title), css=asset("tree.css"),
                                                   data=TREE_DATA, script=asset("tree.js"))


def tree_json(trace: SearchTrace, *, title: str = "", max_nodes: int = MAX_NODES) -> str:
    """``pacsim tree --format json``: :func:`tree_data` as text."""
    return json.dumps(tree_data(trace, title=title, max_nodes=max_nodes), separators=(",", ":"), allow_nan=False) + "\n"


def tree_dot(trace: SearchTrace, *, title: str = "", max_nodes: int = 2_000) -> str:
    """Graphviz DOT of the first ``max_nodes`` nodes (breadth first): the
    best line bold, cut nodes and the moves they left grey."""
    kept = embedded_nodes(trace, max_nodes)
    principal = set(trace.principal_variation)
    shapes = {"max": "triangle", "min": "invtriangle", "chance": "circle"}
    lines = [f"digraph {json.dumps(title or 'tree')} {{", '  node [fontname="Helvetica", fontsize=10];']
    for node in kept:
        value = number_of(node.value)
        cut = node.cut if unsearched(trace, node) else ""  # a cut-off at the last move cut nothing
        text = f"{node.kind}\\n{value}" + (f"\\n{cut}" if cut else "") + ("\\ntable" if node.table_hit else "")
        style = ', style="bold"' if node.index in principal else ', color="grey", fontcolor="grey"' if cut else ""
        lines.append(f'  n{node.index} [label="{text}", shape={shapes.get(node.kind, "box")}{style}];')
        if node.parent >= 0:
            edge = label(node.edge) + (f" p={number_of(node.probability)}" if node.probability is not None else "")
            bold = ', style="bold"' if node.index in principal else ""
            lines.append(f'  n{node.parent} -> n{node.index} [label="{edge}"{bold}];')
        for move in unsearched(trace, node):
            name = f"n{node.index}_{move.replace(' ', '_')}"
            lines.append(f'  {name} [label="{move}\\npruned", shape=box, color="grey", fontcolor="grey"];')
            lines.append(f'  n{node.index} -> {name} [style="dashed", color="grey"];')
    if len(kept) < len(trace.nodes):
        lines.append(f'  note [shape=note, label="{len(trace.nodes) - len(kept)} more nodes not drawn"];')
    lines.append("}")
    return "\n".join(lines) + "\n"


# -- a Pacman's trace, and the notebook's view -----------------------------------

TRACED_PACMEN = ("minimax", "alphabeta", "expectimax", "expectiminimax", "mcts")
"""The built-in Pacmen whose searches are traced."""


def tracing_pacman(spec: str, options: dict[str, str] | None = None, option: str = "-p") -> Any:
    """The search Pacman ``spec`` (with ``options``) whose :meth:`trace` draws
    its tree; a built-in one searches in Python (the trace's language: the
    compiled kernel would be loaded for nothing).  A Pacman that does not
    search is a :class:`ConfigError` naming ``option``."""
    from pacsim.agents.mcts_agent import MctsPacman
    from pacsim.agents.registry import make_pacman, parse_spec
    from pacsim.agents.search_agents import SearchPacman

    options = dict(options or {})
    parsed = parse_spec(spec)
    if parsed.target in TRACED_PACMEN and "backend" not in {**parsed.options, **options}:
        options["backend"] = "python"
    pacman = make_pacman(spec, options)
    if not isinstance(pacman, SearchPacman | MctsPacman):
        raise ConfigError(f"{option} {spec}: not a search Pacman (use minimax, alphabeta, expectimax, expectiminimax or mcts)")
    return pacman


@dataclass(frozen=True)
class TreeView:
    """A trace that Jupyter shows as the tree page (``game.tree(move)``)."""

    trace: SearchTrace
    title: str
    max_nodes: int = MAX_NODES

    def page(self) -> str:
        return tree_page(self.trace, title=self.title, max_nodes=self.max_nodes)

    def _repr_html_(self) -> str:
        return embedded(self.page(), (1100, 720))

    def __repr__(self) -> str:
        result = self.trace.result
        return f"<TreeView {self.title}: {len(self.trace.nodes)} nodes, value {result.value!r}, action {result.action!r}>"


def move_tree(saved: SavedGame, move: int, pacman: str | None = None, max_nodes: int = MAX_NODES) -> TreeView:
    """The tree ``pacman`` (default: the game's own Pacman) searches at the
    position before Pacman's move ``move`` of ``saved`` (0: the start).
    The game's own Pacman is searched only when all it names is built in
    (a record's text never imports code); a plugin is named as ``pacman``."""
    from pacsim.agents.registry import refuse_named_code

    if pacman is None:
        refuse_named_code(saved.pacman, "the recorded Pacman", "to search with it as you, pass it as pacman=SPEC")
    shown = move_positions(saved.states())
    if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < len(shown) - 1:
        raise ConfigError(f"move {move!r}: Pacman's moves in this game are numbered 0 to {len(shown) - 2}")
    spec = pacman or saved.pacman
    trace = tracing_pacman(spec, option="pacman").trace(shown[move])
    return TreeView(trace, f"{saved.layout.name}, move {move}: {spec}", max_nodes)


def principal_states(trace: SearchTrace) -> list[GameState]:
    """The positions along a Pacman search's best line, the root first."""
    states = [pacman_state(trace.nodes[index].state) for index in trace.principal_variation]
    return [state for state in states if state is not None]


def browser_tree(pacman: Any, open_page: Callable[[str], Any] = webbrowser.open) -> Callable[[GameState], list[GameState]]:
    """What the viewer's ``t`` key runs for ``pacman`` (a search Pacman): its
    tree at the position shown, written to a temporary page and opened in
    the browser; the best line's positions come back for the board."""
    folder: list[Path] = []

    def open_tree(state: GameState) -> list[GameState]:
        trace = pacman.trace(state)
        if not folder:
            folder.append(Path(tempfile.mkdtemp(prefix="pacsim-tree-")))
        path = folder[0] / f"tree-{len(list(folder[0].iterdir())) + 1}.html"
        write_atomically(path, tree_page(trace, title=f"pacsim tree: {state.layout.name}, {pacman.name}"), "the tree")
        open_page(path.as_uri())
        return principal_states(trace)

    return open_tree
