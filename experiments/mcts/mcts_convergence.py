"""MCTS error against iterations on random game trees (issue 12, requirement 2).

For each of 100 random MAX/MIN/CHANCE trees (the generator of
tests/test_search_properties.py, leaves in [-10, 10]) the exact
expectiminimax value is computed by plain search; MCTS is run at a range of
iteration counts, three seeds each, and the absolute error of its root value
is averaged; at MAX and MIN roots, the share of trees where MCTS (seed 0)
plays a move that is not optimal is counted too.  Writes experiments/mcts/mcts_convergence.csv and .png.  Run:

    PYTHONPATH=. python experiments/mcts/mcts_convergence.py
    PYTHONPATH=. python experiments/mcts/mcts_convergence.py --plot-only   # the figure again, from the CSV
"""

from __future__ import annotations

import csv
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))

from test_search_properties import ROOT, RandomGame

from pacsim.search import CHANCE, mcts, search

ITERATIONS = (10, 30, 100, 300, 1000, 3000)
TREES = 100
SEEDS = (0, 1, 2)
HERE = Path(__file__).resolve().parent


def trees() -> list[tuple[RandomGame, float]]:
    found = []
    for seed in range(10 * TREES):
        game = RandomGame(seed, ("max", "min", "chance"), max_levels=6, min_levels=4, max_branching=4)
        if not game.is_terminal(ROOT):
            found.append((game, float(search(game, ROOT, "expectiminimax").value)))
        if len(found) == TREES:
            break
    return found


DPI = 200
"""Print resolution, as pacsim's own figures (pacsim.report.plot.DPI)."""


def main() -> None:
    if "--plot-only" in sys.argv[1:]:
        with open(HERE / "mcts_convergence.csv", newline="", encoding="utf-8") as handle:
            _plot([{key: float(value) for key, value in row.items()} for row in csv.DictReader(handle)])
        return
    games = trees()
    rows = []
    for count in ITERATIONS:
        errors = [abs(float(mcts(game, ROOT, iterations=count, seed=seed).value) - exact)
                  for game, exact in games for seed in SEEDS]
        deciding = [(game, exact) for game, exact in games if game.to_move(ROOT) != CHANCE]
        wrong = sum(mcts(game, ROOT, iterations=count, seed=0).action not in _best_moves(game, exact)
                    for game, exact in deciding)
        rows.append({"iterations": count, "mean_abs_error": statistics.mean(errors),
                     "median_abs_error": statistics.median(errors), "max_abs_error": max(errors),
                     "wrong_move_share": wrong / len(deciding), "trees": len(games),
                     "trees_with_a_root_move": len(deciding)})
        print(rows[-1], flush=True)
    with open(HERE / "mcts_convergence.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    _plot(rows)


def _best_moves(game: RandomGame, exact: float) -> set[int]:
    """Root moves whose exact value equals the root's (any of them is right)."""
    values = search(game, ROOT, "expectiminimax", root_values=True).action_values
    return {move for move, value in values if abs(float(value) - exact) < 1e-9}


def _plot(rows: list[dict]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(5, 3.5))
    counts = [row["iterations"] for row in rows]
    axis.loglog(counts, [row["mean_abs_error"] for row in rows], "o-", label="mean |error|")
    axis.loglog(counts, [row["median_abs_error"] for row in rows], "s--", label="median |error|")
    axis.set_xlabel("MCTS iterations")
    axis.set_ylabel("|MCTS value - expectiminimax value|")
    axis.set_title(f"{len(SEEDS)} seeds x {TREES} random trees, leaves in [-10, 10]", fontsize=9)
    axis.legend()
    figure.tight_layout()
    figure.savefig(HERE / "mcts_convergence.png", dpi=DPI)


if __name__ == "__main__":
    main()
