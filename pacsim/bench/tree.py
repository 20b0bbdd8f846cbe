"""The search trace's figures: how long a traced depth-4 expectimax move
takes against the same search untraced, how many nodes it records, and how
large ``pacsim tree``'s page of it is (issue 36)."""

from __future__ import annotations

from time import perf_counter

from pacsim.agents.search_agents import ExpectimaxPacman, SearchOptions
from pacsim.bench.report import Report
from pacsim.engine import initial_state, load_layout
from pacsim.web.tree import tree_page

TRACE_LAYOUTS = ("smallClassic", "wideClassic", "classic")
"""The mazes the issue names: about 8,000, 28,000 and 577,000 nodes at depth 4."""


def tree_figures(report: Report, layouts: tuple[str, ...] = TRACE_LAYOUTS, depth: int = 4) -> None:
    """Per maze, at its start: the untraced and the traced search's seconds,
    their ratio, the nodes recorded and the page's size in bytes."""
    for name in layouts:
        state = initial_state(load_layout(name))
        pacman = ExpectimaxPacman(SearchOptions(depth=depth, backend="python"))
        started = perf_counter()
        pacman.analyze(state, root_values=False)
        untraced = perf_counter() - started
        started = perf_counter()
        trace = pacman.trace(state)
        traced = perf_counter() - started
        started = perf_counter()
        page = tree_page(trace, title=name)
        built = perf_counter() - started
        label = f"{name} expectimax depth {depth}"
        nodes = f"{len(trace.nodes)} nodes"
        report.add("tree", f"{label} trace seconds", traced, "s", f"{nodes}; untraced {untraced:.2f} s")
        report.add("tree", f"{label} traced/untraced", traced / untraced, "ratio", nodes)
        report.add("tree", f"{label} page bytes", len(page.encode("utf-8")), "bytes",
                   f"{nodes}, built in {built:.2f} s; the page embeds at most 20,000")
