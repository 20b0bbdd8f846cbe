"""Read the curve experiment: how much optimism pays as the ghost goes from random to adversarial.

Usage (after ``pacsim run experiments/optimism_curve/optimism_curve.toml``, or smaller
copies of it; experiments/optimism_curve/README.md gives the commands actually run)::

    python experiments/optimism_curve/optimism_curve.py results/optimism_curve.sqlite [MORE.sqlite ...] \
        --figure experiments/optimism_curve/optimism_curve.png --csv experiments/optimism_curve/optimism_curve.csv

The stores' games fall into two populations: the reproduction maze
(``optimismHalls``) and the generated mazes (every ``generated:`` layout,
pooled).  Per population, ghost ``p`` (``adversarial:p=P``) and Pacman
(minimax; expectimax with the uniform model; expectimax modelling the ghost
itself, ``model=true``): win rate (Wilson 95%) and mean score (95% t).
Then expectimax (uniform) minus minimax, paired on maze and game, per
``p``: the *crossover* is where that mean difference crosses 0 (linear
between the measured ``p``), and its interval where the 95% bounds of the
difference cross 0.  Last, at each ``p``, whether the true-model Pacman is
best or tied (its paired difference with each other Pacman has an upper
95% bound at or above 0), and, where both were played at ``p = 0``,
whether its games equal the uniform expectimax's (its model is then the
uniform one).  The figure (PNG and PDF) has one row per population: both
curves with their intervals and the crossover band.  ``--csv`` writes the
per-cell table.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import pandas

from pacsim.report.stats import mean_interval, wilson_interval
from pacsim.runner import load_results

PACMEN = {"minimax": "minimax (pessimism)", "expectimax": "expectimax, uniform model (optimism)",
          "expectimax:model=true": "expectimax, the true model"}
COLOURS = {"minimax": "tab:orange", "expectimax": "tab:blue", "expectimax:model=true": "tab:green"}
"""One colour per Pacman in every panel."""


REPRODUCTION = "optimismHalls"


def with_keys(results: pandas.DataFrame) -> pandas.DataFrame:
    """Rows with ``kind`` (the Pacman as the experiment names it), ``p`` (the
    ghost's) and ``population`` (the reproduction maze or the generated mazes)."""
    kind = results["condition"].str.split("/").str[0]
    p = results["ghosts"].str.extract(r"p=([0-9.]+)")[0].astype(float).fillna(1.0)
    generated = results["layout"].str.startswith("generated:")
    population = generated.map({True: "generated mazes", False: ""}).where(generated, results["layout"])
    return results.assign(kind=kind, p=p, population=population)


def populations(results: pandas.DataFrame) -> list[tuple[str, pandas.DataFrame]]:
    """Each population's games, the reproduction maze first, with a label saying how many mazes."""
    found = []
    for name, games in sorted(results.groupby("population"), key=lambda pair: pair[0] != REPRODUCTION):
        mazes = games["layout"].nunique()
        label = f"{name} ({mazes} mazes)" if mazes > 1 else f"{name} (the reproduction maze)" \
            if name == REPRODUCTION else name
        found.append((label, games))
    return found


def curve(results: pandas.DataFrame) -> pandas.DataFrame:
    """Per Pacman and p: games, win rate and mean score with intervals."""
    rows = []
    for (kind, p), games in results.groupby(["kind", "p"]):
        wins = int((games["outcome"] == "win").sum())
        low, high = wilson_interval(wins, len(games))
        mean, mean_low, mean_high = mean_interval(games["score"].astype(float).tolist())
        rows.append({"pacman": kind, "p": p, "games": len(games), "mazes": games["layout"].nunique(),
                     "wins": wins, "win_rate": wins / len(games), "win_low": low, "win_high": high,
                     "score": mean, "score_low": mean_low, "score_high": mean_high,
                     "caught": int((games["outcome"] == "loss").sum())})
    return pandas.DataFrame(rows)


def paired(results: pandas.DataFrame, a: str, b: str) -> pandas.DataFrame:
    """Per p: mean of (score a - score b) over games paired by maze and game index, with its interval."""
    rows = []
    for p, games in results.groupby("p"):
        sides = [games[games["kind"] == kind][["layout", "game_index", "score"]] for kind in (a, b)]
        both = sides[0].merge(sides[1], on=["layout", "game_index"], suffixes=("_a", "_b"))
        if both.empty:
            continue
        mean, low, high = mean_interval((both["score_a"] - both["score_b"]).astype(float).tolist())
        rows.append({"p": p, "pairs": len(both), "difference": mean, "low": low, "high": high})
    return pandas.DataFrame(rows)


def zero_crossing(ps: list[float], values: list[float]) -> float | None:
    """The first p where ``values`` goes from >= 0 to < 0, linear between neighbours."""
    for (p0, v0), (p1, v1) in zip(zip(ps, values), zip(ps[1:], values[1:])):
        if v0 >= 0 > v1:
            return p0 + (p1 - p0) * v0 / (v0 - v1)
    return None


def crossover(difference: pandas.DataFrame) -> tuple[float | None, float | None, float | None]:
    """Where optimism stops paying: the crossing of the mean, of its lower and of its upper bound."""
    ps = difference["p"].tolist()
    return (zero_crossing(ps, difference["difference"].tolist()), zero_crossing(ps, difference["low"].tolist()),
            zero_crossing(ps, difference["high"].tolist()))


def same_games(results: pandas.DataFrame, a: str, b: str, p: float) -> tuple[int, int]:
    """Of the games both Pacmen played at ``p`` (paired by maze and game),
    how many have the same start, moves and score; and how many pairs."""
    sides = [results[(results["kind"] == kind) & (results["p"] == p)][["layout", "game_index", "start", "actions",
                                                                        "score"]] for kind in (a, b)]
    both = sides[0].merge(sides[1], on=["layout", "game_index"], suffixes=("_a", "_b"))
    same = (both["start_a"] == both["start_b"]) & (both["actions_a"] == both["actions_b"]) & \
        (both["score_a"] == both["score_b"])
    return int(same.sum()), len(both)


def report(results: pandas.DataFrame) -> str:
    """The printout, one block per population."""
    blocks = []
    for label, games in populations(results):
        blocks.append(f"== {label}: {len(games)} games ==\n" + population_report(games))
    return "\n\n".join(blocks)


def population_report(results: pandas.DataFrame) -> str:
    table = curve(results)
    lines = ["Per Pacman and ghost p, pooled over mazes:"]
    for row in table.itertuples():
        lines.append(f"  {PACMEN.get(row.pacman, row.pacman):<40} p={row.p:<5g} {row.wins:>4}/{row.games:<4} won "
                     f"{row.win_rate:.2f} [{row.win_low:.2f}, {row.win_high:.2f}], caught {row.caught:>4}, "
                     f"mean {row.score:7.1f} [{row.score_low:.1f}, {row.score_high:.1f}]")
    kinds = set(results["kind"])
    if {"expectimax", "minimax"} <= kinds:
        difference = paired(results, "expectimax", "minimax")
        lines.append("Expectimax (uniform) minus minimax, paired by maze and game:")
        lines += [f"  p={row.p:<5g} {row.difference:+7.1f} [{row.low:+.1f}, {row.high:+.1f}] over {row.pairs} pairs"
                  for row in difference.itertuples()]
        middle, early, late = crossover(difference)
        if middle is None:
            lines.append("Crossover: the mean difference never goes from >= 0 to < 0 on this grid of p.")
        else:
            lines.append(f"Crossover (optimism stops paying): p = {middle:.2f}, interval "
                         f"[{_p(early)}, {_p(late)}] (where the 95% bounds of the difference cross 0)")
    if "expectimax:model=true" in kinds:
        same, pairs = same_games(results, "expectimax:model=true", "expectimax", 0.0)
        if pairs:
            lines.append(f"At p=0 the true model is the uniform one: {same} of {pairs} paired games identical "
                         "(start, moves, score)")
        lines.append("Is the true-model Pacman best or tied (upper 95% bound of its paired difference >= 0)?")
        for other in sorted(kinds - {"expectimax:model=true"}):
            for row in paired(results, "expectimax:model=true", other).itertuples():
                verdict = "best or tied" if row.high >= 0 else "WORSE"
                lines.append(f"  vs {other:<11} p={row.p:<5g} {row.difference:+7.1f} [{row.low:+.1f}, {row.high:+.1f}]"
                             f" over {row.pairs} pairs: {verdict}")
    return "\n".join(lines)


def _p(value: float | None) -> str:
    return "not within the grid" if value is None else f"{value:.2f}"


def plot(results: pandas.DataFrame, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    found = populations(results)
    figure, axes = plt.subplots(len(found), 2, figsize=(11, 4.2 * len(found)), squeeze=False)
    for (label, games), (wins, scores) in zip(found, axes):
        plot_population(games, label, wins, scores)
    figure.suptitle("Optimism vs pessimism between the two ghosts (dashed: crossover of expectimax minus minimax, "
                    "band: its 95% interval)", fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    figure.savefig(path.with_suffix(".pdf"))
    plt.close(figure)


def plot_population(results: pandas.DataFrame, label: str, wins: Any, scores: Any) -> None:
    """One population's row: win rate and mean score against p, one line per Pacman."""
    table = curve(results)
    for kind in sorted(set(table["pacman"]), key=lambda kind: list(PACMEN).index(kind) if kind in PACMEN else 9):
        rows = table[table["pacman"] == kind].sort_values("p")
        style = {"marker": "o", "capsize": 3, "label": PACMEN.get(kind, kind), "color": COLOURS.get(kind)}
        wins.errorbar(rows["p"], rows["win_rate"], yerr=[rows["win_rate"] - rows["win_low"],
                      rows["win_high"] - rows["win_rate"]], **style)
        scores.errorbar(rows["p"], rows["score"], yerr=[rows["score"] - rows["score_low"],
                        rows["score_high"] - rows["score"]], **style)
    title = label
    if {"expectimax", "minimax"} <= set(results["kind"]):
        middle, early, late = crossover(paired(results, "expectimax", "minimax"))
        for axis in (wins, scores):
            if middle is not None:
                axis.axvline(middle, color="grey", linestyle="--", linewidth=1)
                axis.axvspan(early if early is not None else 0.0, late if late is not None else 1.0,
                             color="grey", alpha=0.15)
        if middle is not None:
            title += f": crossover p = {middle:.2f} [{_p(early)}, {_p(late)}]"
    sizes = sorted(set(table["games"]))
    title += f"; {sizes[0]}-{sizes[-1]} games a point" if len(sizes) > 1 else f"; {sizes[0]} games a point"
    wins.set(xlabel="ghost adversarialness p", ylabel="win rate (95% CI)", ylim=(0, 1.05))
    wins.set_title(title, loc="left", fontsize=9)
    scores.set(xlabel="ghost adversarialness p", ylabel="mean score (95% CI)")
    scores.legend(fontsize=8)


def cells(results: pandas.DataFrame) -> pandas.DataFrame:
    """The per-cell table of every population, for ``--csv``."""
    return pandas.concat([curve(games).assign(population=label) for label, games in populations(results)],
                         ignore_index=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("stores", type=Path, nargs="+", help="results stores (several are pooled, e.g. one per Pacman)")
    parser.add_argument("--figure", type=Path, default=None, help="PNG path (a PDF is written beside it)")
    parser.add_argument("--csv", type=Path, default=None, help="write the per-cell table (population, Pacman, p)")
    args = parser.parse_args(argv)
    results = pandas.concat([load_results(store) for store in args.stores], ignore_index=True)
    results = with_keys(results[results["outcome"] != "error"])
    print(report(results))
    if args.csv is not None:
        cells(results).to_csv(args.csv, index=False, float_format="%.4f")
        print(f"cells: {args.csv}")
    if args.figure is not None:
        plot(results, args.figure)
        print(f"figure: {args.figure} (and {args.figure.with_suffix('.pdf')})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
