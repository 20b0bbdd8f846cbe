"""The tables of experiments/mcts/README.md, "MCTS at equal compute": paired
comparisons (same seeds) of each MCTS Pacman with its depth-limited analogue
(ghosts=chance with expectimax, ghosts=min with minimax), and the measured
compute matching (MCTS generated positions per move over the search's);
and MCTS with greedy rollouts at equal compute (mcts_greedy_pincerMaze.toml).

    PYTHONPATH=. python experiments/mcts/mcts_pairs.py
"""

from __future__ import annotations

from pathlib import Path

import pandas

from pacsim.report.summary import compare
from pacsim.runner.store import load_results

RESULTS = Path("results")
EQUAL = {"tinyGhostMaze": (14, 129), "pincerMaze": (9, 39), "smallClassic": (20, 160)}
LEAF_EVALUATION = {"tinyGhostMaze": (53, 485), "pincerMaze": (47, 203)}
"""Iterations of MCTS without rollouts (rollout_depth=0) at the same budgets."""
GHOSTS = ("random", "directional", "adversarial")


def nodes_per_move(results, condition: str) -> float:
    games = results[results["condition"] == condition]
    return float(games["nodes"].sum() / games["moves"].sum())


def pair_cells(results, maze: str, ghosts: str, mcts_spec: str, search_spec: str) -> str:
    """The table cells from "MCTS vs analogue" on: one MCTS Pacman against
    its search analogue on the same seeds, and their nodes per move."""
    a, b = f"{mcts_spec}/{ghosts}/{maze}", f"{search_spec}/{ghosts}/{maze}"
    found = compare(results, a, b)
    ratio = nodes_per_move(results, a) / nodes_per_move(results, b)
    kind = "min" if "ghosts=min" in mcts_spec else "chance"
    return (f"MCTS-{kind} vs {search_spec.split(':')[0]} | {found.pairs} | {found.wins_a} vs {found.wins_b} "
            f"| {found.difference:+.0f} [{found.difference_low:+.0f}, {found.difference_high:+.0f}] "
            f"| {found.p_value:.2g} | {ratio:.2f} |")


def equal_compute(variant: str = "equal", table: dict[str, tuple[int, int]] = EQUAL) -> None:
    """One table row per maze, budget, ghost and MCTS Pacman; ``variant``
    ``leafeval`` pairs the no-rollout MCTS games with the search games of
    the ``equal`` store (same seeds)."""
    print("| maze | budget | ghosts | MCTS vs analogue | games | wins | score difference [95% CI] | McNemar p | nodes/move ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    for maze, budgets in table.items():
        paths = [RESULTS / f"mcts_equal_{maze}.sqlite", RESULTS / f"mcts_{variant}_{maze}.sqlite"]
        if not all(path.exists() for path in paths):
            continue
        results = pandas.concat([load_results(path) for path in dict.fromkeys(paths)], ignore_index=True)
        for depth, iterations in zip((2, 3), budgets):
            for ghosts in GHOSTS:
                for mcts_spec, search_spec in ((f"mcts:iterations={iterations}", f"expectimax:depth={depth}"),
                                               (f"mcts:iterations={iterations},ghosts=min", f"minimax:depth={depth}")):
                    print(f"| {maze} | depth {depth} = {iterations} it. | {ghosts} | "
                          + pair_cells(results, maze, ghosts, mcts_spec, search_spec))


def greedy() -> None:
    """MCTS with greedy rollouts against depth-3 search at equal compute
    (every successor a greedy step makes counted), one store."""
    path = RESULTS / "mcts_greedy_pincerMaze.sqlite"
    if not path.exists():
        return
    results = load_results(path)
    print()
    print("| pincerMaze, greedy rollouts | ghosts | MCTS vs analogue | games | wins | score difference [95% CI] | McNemar p | nodes/move ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for ghosts in ("random", "adversarial"):
        for mcts_spec, search_spec in (("mcts:iterations=24,rollout=greedy", "expectimax:depth=3"),
                                       ("mcts:iterations=24,ghosts=min,rollout=greedy", "minimax:depth=3")):
            print(f"| depth 3 = 24 it. | {ghosts} | " + pair_cells(results, "pincerMaze", ghosts, mcts_spec, search_spec))


def optimism() -> None:
    path = RESULTS / "mcts_optimism_pessimism.sqlite"
    if not path.exists():
        return
    results = load_results(path)
    print()
    print("| Pacman | adversarial ghost: won, mean score | random ghost: won, mean score | nodes/move |")
    print("|---|---|---|---|")
    for pacman in ("minimax:depth=4", "expectimax:depth=4", "mcts:iterations=950,ghosts=min", "mcts:iterations=950"):
        cells = []
        for ghosts in ("adversarial", "random"):
            games = results[results["condition"] == f"{pacman}/{ghosts}/tinyGhostMaze"]
            wins = int((games["outcome"] == "win").sum())
            cells.append(f"{wins}/{len(games)}, {games['score'].mean():.0f}")
        nodes = nodes_per_move(results, f"{pacman}/random/tinyGhostMaze")
        print(f"| {pacman} | {cells[0]} | {cells[1]} | {nodes:.0f} |")
    print()
    for ghosts in ("adversarial", "random"):
        for a, b in (("mcts:iterations=950,ghosts=min", "mcts:iterations=950"),
                     ("mcts:iterations=950,ghosts=min", "minimax:depth=4"),
                     ("mcts:iterations=950", "expectimax:depth=4")):
            print(compare(results, f"{a}/{ghosts}/tinyGhostMaze", f"{b}/{ghosts}/tinyGhostMaze").to_text())


if __name__ == "__main__":
    equal_compute()
    print()
    equal_compute("leafeval", LEAF_EVALUATION)
    greedy()
    optimism()
