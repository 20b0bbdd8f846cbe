"""The tables of experiments/mcts/README.md, "MCTS at equal wall clock": every
Pacman of ``mcts_time_pincerMaze.toml`` with its wins, mean score, the time
per move it actually used and the positions it generated a move; then each
MCTS Pacman paired (same seeds) with its search analogue at the same
budget, the search with the kernel and in Python (MCTS-chance with
expectimax, MCTS-min with alpha-beta).

    PYTHONPATH=. python experiments/mcts/mcts_time.py [results/mcts_time_pincerMaze.sqlite] [--csv OUT.csv]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas

from pacsim.report.stats import mean_interval, wilson_interval
from pacsim.report.summary import compare
from pacsim.runner.store import load_results

STORE = Path("results/mcts_time_pincerMaze.sqlite")
MAZE = "pincerMaze"
BUDGETS = ("0.01", "0.05")
GHOSTS = ("random", "adversarial")


def pacmen(budget: str) -> dict[str, str]:
    """The Pacmen at one budget, by the name the tables give them."""
    mcts = f"mcts:iterations=0,time={budget}"
    search = f"depth=50,time={budget}"
    return {
        "MCTS-chance": mcts, "MCTS-min": f"{mcts},ghosts=min",
        "MCTS-chance, no rollouts": f"{mcts},rollout_depth=0", "MCTS-min, no rollouts": f"{mcts},ghosts=min,rollout_depth=0",
        "expectimax, kernel": f"expectimax:{search},engine=fast", "alpha-beta, kernel": f"alphabeta:{search},engine=fast",
        "expectimax, Python": f"expectimax:{search},engine=python", "alpha-beta, Python": f"alphabeta:{search},engine=python",
    }


def cells(results: pandas.DataFrame) -> pandas.DataFrame:
    """Per budget, ghost and Pacman: wins, mean score, time and positions a move."""
    rows = []
    for budget in BUDGETS:
        for ghosts in GHOSTS:
            for name, spec in pacmen(budget).items():
                games = results[results["condition"] == f"{spec}/{ghosts}/{MAZE}"]
                if games.empty:
                    continue
                rows.append(cell(games, budget, ghosts, name))
    return pandas.DataFrame(rows)


def cell(games: pandas.DataFrame, budget: str, ghosts: str, name: str) -> dict[str, object]:
    wins = int((games["outcome"] == "win").sum())
    low, high = wilson_interval(wins, len(games))
    mean, mean_low, mean_high = mean_interval(games["score"].astype(float).tolist())
    moves = games["moves"].sum()
    return {
        "budget_s": float(budget), "ghosts": ghosts, "pacman": name, "games": len(games), "wins": wins,
        "win_low": low, "win_high": high, "score": mean, "score_low": mean_low, "score_high": mean_high,
        # every move's time, weighted by the moves of its game
        "ms_per_move": 1000 * float((games["move_seconds_mean"] * games["moves"]).sum() / moves),
        "ms_max": 1000 * float(games["move_seconds_max"].max()),
        "positions_per_move": float(games["nodes"].sum() / moves),
    }


def cell_table(table: pandas.DataFrame) -> list[str]:
    lines = ["| budget | ghosts | Pacman | won [95% CI] | mean score [95% CI] | ms a move (max) | positions a move |",
             "|---|---|---|---|---|---|---|"]
    for row in table.itertuples():
        lines.append(f"| {row.budget_s:g} s | {row.ghosts} | {row.pacman} | {row.wins}/{row.games} "
                     f"[{row.win_low:.2f}, {row.win_high:.2f}] | {row.score:.0f} [{row.score_low:.0f}, {row.score_high:.0f}] "
                     f"| {row.ms_per_move:.1f} ({row.ms_max:.0f}) | {row.positions_per_move:,.0f} |")
    return lines


def pair_table(results: pandas.DataFrame) -> list[str]:
    lines = ["| budget | ghosts | MCTS vs search | games | wins | score difference [95% CI] | McNemar p |",
             "|---|---|---|---|---|---|---|"]
    for budget in BUDGETS:
        names = pacmen(budget)
        for ghosts in GHOSTS:
            for mcts_name in ("MCTS-chance", "MCTS-min", "MCTS-chance, no rollouts", "MCTS-min, no rollouts"):
                analogue = "expectimax" if "chance" in mcts_name else "alpha-beta"
                for engine in ("kernel", "Python"):
                    a, b = (f"{names[name]}/{ghosts}/{MAZE}" for name in (mcts_name, f"{analogue}, {engine}"))
                    if not {a, b} <= set(results["condition"]):
                        continue
                    found = compare(results, a, b)
                    lines.append(f"| {budget} s | {ghosts} | {mcts_name} vs {analogue}, {engine} | {found.pairs} "
                                 f"| {found.wins_a} vs {found.wins_b} | {found.difference:+.0f} "
                                 f"[{found.difference_low:+.0f}, {found.difference_high:+.0f}] | {found.p_value:.2g} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", type=Path, nargs="?", default=STORE)
    parser.add_argument("--csv", type=Path, default=None, help="write the per-cell table")
    args = parser.parse_args(argv)
    results = load_results(args.store)
    results = results[results["outcome"] != "error"]
    table = cells(results)
    print("\n".join(cell_table(table)))
    print()
    print("\n".join(pair_table(results)))
    if args.csv is not None:
        table.to_csv(args.csv, index=False, float_format="%.4f")
    return 0


if __name__ == "__main__":
    sys.exit(main())
