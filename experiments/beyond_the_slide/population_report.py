"""Read the population experiment: the optimism/pessimism lesson maze by maze.

Usage (after ``pacsim run experiments/beyond_the_slide/population.toml``)::

    python experiments/beyond_the_slide/population_report.py results/population.sqlite \
        --csv results/population_mazes.csv --figure results/population.png
    python experiments/beyond_the_slide/population_report.py --mazes experiments/beyond_the_slide/population_mazes.csv \
        --figure experiments/beyond_the_slide/population.png    # the figure again, from the table

For every maze in the store: which of the four pattern points hold (the
criteria of ``pacsim reproduce``, ``pacsim.report.optimism``), expectimax's
*gain* against the random ghost and its *loss* against the adversarial one
(both paired with minimax on the same seeds, expectimax minus minimax), and
the maze's shape (``pacsim.engine.generate.maze_features``, measured on the
layout text stored with the games).  Then over the population: the share of
mazes where each point holds (Wilson 95% intervals), the distribution of
gains and losses (mean with a 95% t interval, quartiles), the same split by
the generator's loop setting, and rank correlations of the features with
gain and loss.  The figure shows the shares, the two distributions, and loss
and gain against dead ends and ghost-to-food distance.
"""

from __future__ import annotations

import argparse
import math
import sqlite3
import sys
from pathlib import Path

import pandas

from pacsim.engine import parse_layout
from pacsim.engine.generate import maze_features, parse_maze_specs
from pacsim.report.optimism import assess
from pacsim.report.stats import mean_interval, wilson_interval
from pacsim.report.summary import compare
from pacsim.runner import load_results

POINTS = ("1 minimax safe", "2 expectimax caught", "3 optimism pays vs random", "4 tiny-maze games")
SHORT = ("1 minimax\nsafe", "2 expectimax\ncaught", "3 optimism\npays", "4 tiny-maze\ngames", "all\nfour")
FEATURES = ("dead_ends", "loops", "corridor_length", "ghost_to_food", "pacman_to_food", "food_spread")


def layout_texts(store: Path) -> dict[str, str]:
    """The exact layout text stored with each maze's games."""
    connection = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        return dict(connection.execute("SELECT DISTINCT layout, layout_text FROM conditions"))
    finally:
        connection.close()


def per_maze(results: pandas.DataFrame, texts: dict[str, str]) -> pandas.DataFrame:
    """One row per maze: points, gain, loss, features, generator settings."""
    rows = []
    for layout, games in results.groupby("layout", sort=False):
        assessment = assess(games)
        side = games.assign(side=games["pacman"] + "/" + games["ghosts"])
        loss = compare(side, "expectimax/adversarial", "minimax/adversarial", by="side")
        features = maze_features(parse_layout(texts[layout], name=layout))
        row = {"layout": layout, "loops_setting": _setting(layout)}
        row.update({name: point.holds for name, point in zip(POINTS, assessment.points)})
        row["all four"] = assessment.all_hold
        row.update({"gain": assessment.paired.difference, "gain_low": assessment.paired.difference_low,
                    "gain_high": assessment.paired.difference_high, "loss": loss.difference,
                    "caught": assessment.cells[("expectimax", "adversarial")].losses
                    / assessment.cells[("expectimax", "adversarial")].games,
                    "expectimax_timeouts": assessment.cells[("expectimax", "adversarial")].timeouts,
                    "minimax_timeouts": assessment.cells[("minimax", "adversarial")].timeouts,
                    "games": assessment.cells[("minimax", "random")].games,
                    "differ_random": _differ(games, "random"), "differ_adversarial": _differ(games, "adversarial")})
        row.update({name: getattr(features, name) for name in FEATURES})
        rows.append(row)
    return pandas.DataFrame(rows)


def _differ(games: pandas.DataFrame, ghost: str) -> float:
    """Share of seeds on which the two Pacmen's games end differently (score or length)."""
    cell = games[games["ghosts"] == ghost]
    pairs = cell[cell["pacman"] == "minimax"].merge(cell[cell["pacman"] == "expectimax"], on="seed")
    return float(((pairs["score_x"] != pairs["score_y"]) | (pairs["moves_x"] != pairs["moves_y"])).mean())


def _setting(layout: str) -> float:
    try:
        return parse_maze_specs(layout)[0].loops
    except Exception:  # a hand-drawn maze in the store: no generator setting
        return math.nan


def summary_text(mazes: pandas.DataFrame) -> str:
    count = len(mazes)
    lines = [f"{count} mazes, {int(mazes['games'].iloc[0])} games a cell", "",
             "Share of mazes where each point holds (Wilson 95% interval):"]
    joints = {"1+2 (pessimism safe, optimism caught)": mazes[POINTS[0]] & mazes[POINTS[1]],
              "1+3 (pessimism safe, optimism pays)": mazes[POINTS[0]] & mazes[POINTS[2]],
              "1+2+3": mazes[POINTS[0]] & mazes[POINTS[1]] & mazes[POINTS[2]]}
    for name, holding in [*((name, mazes[name]) for name in (*POINTS, "all four")), *joints.items()]:
        holds = int(holding.sum())
        low, high = wilson_interval(holds, count)
        lines.append(f"  {name:<38} {holds:>4}/{count}  {holds / count:.2f} [{low:.2f}, {high:.2f}]")
    lines += ["", "Expectimax minus minimax, paired on seeds, per maze (mean [95% t interval]; quartiles):"]
    for name, label in (("gain", "vs the random ghost (gain)"), ("loss", "vs the adversarial ghost (loss)")):
        values = mazes[name].astype(float).tolist()
        mean, low, high = mean_interval(values)
        quartiles = mazes[name].quantile([0.25, 0.5, 0.75]).tolist()
        lines.append(f"  {label:<32} {mean:+7.1f} [{low:+.1f}, {high:+.1f}]; "
                     f"quartiles {quartiles[0]:+.0f} / {quartiles[1]:+.0f} / {quartiles[2]:+.0f}")
    for ghost in ("random", "adversarial"):
        differ = mazes[f"differ_{ghost}"]
        lines.append(f"  mazes where the two Pacmen play differently vs the {ghost} ghost (any seed): "
                     f"{int((differ > 0).sum())}/{count}; mean share of such seeds {differ.mean():.2f}")
    significant = int((mazes["gain_low"] > 0).sum())
    lines.append(f"  mazes whose own gain interval is above 0: {significant}/{count}; "
                 f"below 0: {int((mazes['gain_high'] < 0).sum())}/{count}")
    lines += ["", "By the generator's loop setting (share of mazes; mean gain, mean loss, mean dead ends):"]
    for setting, group in mazes.groupby("loops_setting"):
        shares = "  ".join(f"p{index + 1} {group[name].mean():.2f}" for index, name in enumerate(POINTS))
        lines.append(f"  loops={setting:<5g} n={len(group):<3} {shares}  all {group['all four'].mean():.2f}  "
                     f"gain {group['gain'].mean():+.0f}  loss {group['loss'].mean():+.0f}  "
                     f"dead ends {group['dead_ends'].mean():.1f}")
    lines += ["", "Spearman rank correlation of maze features with gain, loss and 'expectimax caught':"]
    for feature in FEATURES:
        # Spearman = Pearson on ranks (scipy is not a dependency).
        correlations = [mazes[feature].rank().corr(mazes[target].astype(float).rank())
                        for target in ("gain", "loss", "caught")]
        lines.append(f"  {feature:<16} gain {correlations[0]:+.2f}  loss {correlations[1]:+.2f}  "
                     f"caught {correlations[2]:+.2f}")
    return "\n".join(lines)


def figure(mazes: pandas.DataFrame, path: Path) -> None:
    """Draw the four panels (:func:`draw`) and save them at print resolution."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot

    plot = draw(mazes)
    plot.savefig(path, dpi=200, bbox_inches="tight")
    pyplot.close(plot)


def draw(mazes: pandas.DataFrame):
    """The figure: where each point holds, the gains and losses that are not
    zero (most mazes have neither: the zeros are counted in the title, so the
    bars show the rest), the shares by loop setting (legend below the panel,
    hiding no point), and gain by corridor length with a colour bar."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot

    count = len(mazes)
    plot, ((shares_axis, spread_axis), (loss_axis, gain_axis)) = pyplot.subplots(2, 2, figsize=(11, 9.5))
    _shares_panel(shares_axis, mazes)
    _spread_panel(spread_axis, mazes)
    _settings_panel(loss_axis, mazes)
    dots = gain_axis.scatter(mazes["corridor_length"], mazes["gain"], c=mazes["loops_setting"], cmap="viridis", s=18)
    plot.colorbar(dots, ax=gain_axis, label="generator loop setting")
    gain_axis.axhline(0, color="black", linewidth=0.8)
    gain_axis.set_xlabel("mean corridor length (squares)")
    gain_axis.set_ylabel("gain vs random (expectimax - minimax)")
    gain_axis.set_title("Gain vs the random ghost by corridor length")
    plot.suptitle(f"Optimism and pessimism across {count} generated 9x7 mazes (depth-4 Pacman, careful evaluation)")
    plot.tight_layout()
    return plot


def _shares_panel(axis, mazes: pandas.DataFrame) -> None:
    count = len(mazes)
    names = [*POINTS, "all four"]
    holds = [int(mazes[name].sum()) for name in names]
    intervals = [wilson_interval(value, count) for value in holds]
    rates = [value / count for value in holds]
    axis.bar(range(len(names)), rates, color="#f2c200", edgecolor="black", capsize=4,
             yerr=[[rate - low for rate, (low, _) in zip(rates, intervals)],
                   [high - rate for rate, (_, high) in zip(rates, intervals)]])
    axis.set_xticks(range(len(names)))
    axis.set_xticklabels(SHORT, fontsize=8)
    axis.set_ylim(0, 1.05)
    axis.set_ylabel("share of mazes (Wilson 95% interval)")
    axis.set_title(f"Where each pattern point holds ({count} mazes)")


def _spread_panel(axis, mazes: pandas.DataFrame) -> None:
    import numpy

    gains, losses = mazes["gain"][mazes["gain"] != 0], mazes["loss"][mazes["loss"] != 0]
    # Most differences are a few points, a few are hundreds: bins even on a symmetric log scale show both.
    largest = max([*gains.abs(), *losses.abs(), 10.0])
    side = numpy.geomspace(1.0, largest * 1.01, 9)
    edges = numpy.concatenate([-side[::-1], [0.0], side])
    axis.hist([gains, losses], bins=edges, color=["#4c9a2a", "#c0392b"],
              label=[f"gain vs random ghost ({len(gains)} mazes)", f"loss vs adversarial ({len(losses)} mazes)"])
    axis.set_xscale("symlog", linthresh=1.0)
    axis.axvline(0, color="black", linewidth=0.8)
    axis.set_xlabel("expectimax - minimax, mean score difference per maze (symmetric log scale)")
    axis.set_ylabel("mazes")
    axis.set_title(f"Optimism's gain and loss where not 0 (0 in {int((mazes['gain'] == 0).sum())} and "
                   f"{int((mazes['loss'] == 0).sum())} mazes)", fontsize=10)
    axis.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)  # below: no bar hidden


def _settings_panel(axis, mazes: pandas.DataFrame) -> None:
    by_setting = mazes.groupby("loops_setting")
    for name, colour in zip(POINTS[:3], ("#1f77b4", "#c0392b", "#4c9a2a")):
        shares = by_setting[name].mean()
        axis.plot(shares.index, shares.to_numpy(), marker="o", color=colour, label=name)
    both = mazes.assign(both=mazes[POINTS[0]] & mazes[POINTS[1]]).groupby("loops_setting")["both"].mean()
    axis.plot(both.index, both.to_numpy(), marker="x", color="black", label="1 and 2 together (the lesson)")
    differ = by_setting["differ_adversarial"].mean()
    axis.plot(differ.index, differ.to_numpy(), marker="s", linestyle="--", color="grey",
              label="Pacmen play differently vs adversary (share of seeds)")
    axis.set_ylim(-0.03, 1.03)
    axis.set_xlabel("generator loop setting (share of dead ends opened)")
    axis.set_ylabel("share of mazes")
    axis.set_title("Dead ends catch both Pacmen; loops save both")
    # Below the panel: inside, any corner covers some of the lines.
    axis.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", type=Path, nargs="?", help="the population store (or give --mazes)")
    parser.add_argument("--mazes", type=Path, default=None,
                        help="redraw from a per-maze table written by --csv (experiments/beyond_the_slide/population_mazes.csv)")
    parser.add_argument("--experiment", default="population")
    parser.add_argument("--csv", type=Path, default=None, help="write the per-maze table here")
    parser.add_argument("--figure", type=Path, default=None, help="save the figure here (.png, .pdf, .svg)")
    args = parser.parse_args(argv)
    if args.mazes is not None:
        mazes = pandas.read_csv(args.mazes)
        print(summary_text(mazes))
        if args.figure:
            figure(mazes, args.figure)
        return 0
    if args.store is None:
        parser.error("give the population store, or --mazes TABLE.csv")
    results = load_results(args.store)
    results = results[results["experiment"] == args.experiment]
    # Only mazes whose four cells are complete (a run may still be going).
    counts = results.groupby("layout")["game_index"].count()
    complete = counts[counts == counts.max()].index
    mazes = per_maze(results[results["layout"].isin(complete)], layout_texts(args.store))
    print(summary_text(mazes))
    if args.csv:
        mazes.to_csv(args.csv, index=False)
    if args.figure:
        figure(mazes, args.figure)
    return 0


if __name__ == "__main__":
    sys.exit(main())
