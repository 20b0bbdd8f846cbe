"""Per-condition summaries and paired comparisons of stored games."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import pandas

from pacsim.engine.recording import line_of_play
from pacsim.errors import PacsimError, did_you_mean
from pacsim.report.stats import mcnemar_exact, mean_interval, wilson_interval

REPETITIVE_SHARE = 0.1
"""A condition whose distinct lines of play are fewer than this share of its
games is mostly repetitions of the same game, and the report says so."""

REPORT_READS = (
    "experiment", "config_hash", "condition", "game_index", "seed", "outcome", "score", "moves",
    "move_seconds_mean", "nodes", "line", "options", "fault",
)
"""The stored columns a report reads (``load_results(STORE, columns=...)``),
besides those it is asked to group by: the summary's (``line`` in place of
the replay logs), the paired comparison's, the choice of runs', and
``options`` for the option columns (``eval``, ``ghost_attack``, ...)."""

SUMMARY_COLUMNS = (
    "games", "lines", "wins", "win_rate", "win_low", "win_high", "score_mean", "score_low", "score_high",
    "score_median", "losses", "timeouts", "errors", "crashes", "faults", "moves_mean", "nodes_per_move", "seconds_per_move",
)


def default_by(results: pandas.DataFrame) -> list[str]:
    """Group by condition label, and by experiment too when a store holds
    several, and by run (its root seed when that tells the runs apart, else
    its config hash) when one experiment has several."""
    if results["config_hash"].nunique() <= 1:
        return ["condition"]
    runs = results.groupby("experiment")["config_hash"].nunique()
    if runs.max() <= 1:
        return ["experiment", "condition"]
    if "root_seed" in results and (results.groupby("experiment")["root_seed"].nunique() == runs).all():
        return ["experiment", "root_seed", "condition"]  # pooled runs told apart by what the user chose
    return ["experiment", "config_hash", "condition"]


def check_columns(results: pandas.DataFrame, columns: Sequence[str], known: Sequence[str] = ()) -> None:
    """Refuse a column ``results`` lacks, listing its columns (and the ``known``
    ones a store holds that were not read)."""
    unknown = [column for column in columns if column not in results.columns]
    if unknown:
        listed = dict.fromkeys([*known, *results.columns])
        raise PacsimError(f"unknown column {unknown[0]!r} (columns: {', '.join(listed)})")


def summarize(results: pandas.DataFrame, by: Sequence[str] | None = None) -> pandas.DataFrame:
    """One row per group (default: per condition), in the order groups first appear.

    Columns: the ``by`` columns, then :data:`SUMMARY_COLUMNS` (win rate with its
    Wilson 95% interval, mean score with its 95% t interval, per-move costs)."""
    if results.empty:
        raise PacsimError("no games to summarize")
    by = list(by) if by else default_by(results)
    check_columns(results, by)
    rows = []
    # dropna=False keeps groups whose key is missing (e.g. depth of a greedy Pacman).
    for key, games in results.groupby(by, sort=False, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        rows.append({**dict(zip(by, key)), **_summary_row(games)})
    return pandas.DataFrame(rows, columns=[*by, *SUMMARY_COLUMNS])


def _summary_row(games: pandas.DataFrame) -> dict[str, float]:
    outcomes = games["outcome"].value_counts()
    count, wins = len(games), int(outcomes.get("win", 0))
    win_low, win_high = wilson_interval(wins, count)
    score_mean, score_low, score_high = mean_interval(games["score"].astype(float).tolist())
    moves = games["moves"].sum()
    thinking = (games["move_seconds_mean"].fillna(0.0) * games["moves"]).sum()
    return {
        "games": count, "lines": lines_of_play(games), "wins": wins, "win_rate": wins / count, "win_low": win_low, "win_high": win_high,
        "score_mean": score_mean, "score_low": score_low, "score_high": score_high,
        "score_median": float(games["score"].median()),
        "losses": int(outcomes.get("loss", 0)), "timeouts": int(outcomes.get("timeout", 0)),
        "errors": int(outcomes.get("error", 0)), "crashes": int(outcomes.get("crash", 0)),
        "faults": int(games["fault"].notna().sum()) if "fault" in games.columns else 0,
        "moves_mean": float(games["moves"].mean()),
        "nodes_per_move": games["nodes"].sum() / moves if moves else math.nan,
        "seconds_per_move": thinking / moves if moves else math.nan,
    }


def lines_of_play(games: pandas.DataFrame) -> float:
    """Distinct lines of play among ``games``: distinct (Pacman's start,
    Pacman's actions).  Games that are the same line are one game repeated,
    however many seeds they were played on.  Read from the ``line`` column
    where the store gave it (:data:`REPORT_READS`), else
    from the replay logs; NaN for results without either."""
    if "line" in games.columns:
        return games["line"].nunique()
    if "actions" not in games.columns or "num_ghosts" not in games.columns:
        return math.nan
    starts = games["start"] if "start" in games.columns else [None] * len(games)
    return len({line_of_play(actions, int(ghosts), None if pandas.isna(start) else int(start))
                for start, actions, ghosts in zip(starts, games["actions"], games["num_ghosts"])})


def repetition_notes(summary: pandas.DataFrame) -> list[str]:
    """In words, each condition whose games are mostly one line of play repeated:
    ``expectimax/adversarial/optimismHalls/depth=4: 500 games, 1 line of play``."""
    by = [column for column in summary.columns if column not in SUMMARY_COLUMNS]
    notes = [repetition_note("/".join(str(row[column]) for column in by), row["games"], row["lines"])
             for row in summary.to_dict("records")]
    return [note for note in notes if note]


def repetition_note(name: str, games: int, lines: float) -> str | None:
    """The words for a condition whose games are mostly one line of play
    repeated; None otherwise (and for an unknown count, NaN)."""
    if not lines < REPETITIVE_SHARE * games:
        return None
    count = int(lines)
    return (f"{name}: {games} games, {count} line{'' if count == 1 else 's'} of play "
            "(mostly repetitions: its interval counts the same game many times)")


def games_to_replay(results: pandas.DataFrame) -> list[tuple[str, dict]]:
    """The games worth watching first, each with why: the first win, the
    first loss, and the longest game (by Pacman's moves), as rows of
    ``results`` (``id`` is what ``pacsim replay STORE --game ID`` takes)."""
    picks = []
    for why, outcome in (("first win", "win"), ("first loss", "loss")):
        games = results[results["outcome"] == outcome]
        if not games.empty:
            picks.append((why, games.iloc[0].to_dict()))
    if not results.empty:
        picks.append(("longest", results.loc[results["moves"].idxmax()].to_dict()))
    return picks


@dataclass
class Comparison:
    """Condition A against condition B on the same seeds."""

    a: str
    b: str
    pairs: int
    score_a: float
    score_b: float
    difference: float
    """Mean of (score A - score B) over the pairs."""
    difference_low: float
    difference_high: float
    wins_a: int
    wins_b: int
    a_only: int
    """Pairs A won and B did not."""
    b_only: int
    p_value: float
    """Exact McNemar test on wins (two-sided)."""

    def to_frame(self) -> pandas.DataFrame:
        return pandas.DataFrame([asdict(self)])

    def to_text(self) -> str:
        return (f"{self.a} vs {self.b}: {self.pairs} paired games\n"
                f"  mean score {self.score_a:.1f} vs {self.score_b:.1f}, difference {self.difference:+.1f} "
                f"[95% CI {self.difference_low:+.1f}, {self.difference_high:+.1f}]\n"
                f"  wins {self.wins_a} vs {self.wins_b}; only A won {self.a_only}, only B won {self.b_only}; "
                f"exact McNemar p = {self.p_value:.4g}")


def compare(results: pandas.DataFrame, a: str, b: str, by: str = "condition") -> Comparison:
    """Paired comparison of the games whose ``by`` column is ``a`` and ``b``,
    matched on game index and seed (game i of every condition shares its seed)."""
    check_columns(results, [by])
    sides = [_side(results, by, label) for label in (a, b)]
    paired = sides[0].merge(sides[1], on=["game_index", "seed"], suffixes=("_a", "_b"))
    if paired.empty:
        raise PacsimError(f"{a!r} and {b!r} have no games with the same seed to compare")
    difference, low, high = mean_interval((paired["score_a"] - paired["score_b"]).astype(float).tolist())
    won_a, won_b = paired["outcome_a"] == "win", paired["outcome_b"] == "win"
    a_only, b_only = int((won_a & ~won_b).sum()), int((won_b & ~won_a).sum())
    return Comparison(a=a, b=b, pairs=len(paired), score_a=float(paired["score_a"].mean()),
                      score_b=float(paired["score_b"].mean()), difference=difference, difference_low=low,
                      difference_high=high, wins_a=int(won_a.sum()), wins_b=int(won_b.sum()),
                      a_only=a_only, b_only=b_only, p_value=mcnemar_exact(a_only, b_only))


def _side(results: pandas.DataFrame, by: str, label: str) -> pandas.DataFrame:
    games = results[results[by].astype(str) == label]
    if games.empty:
        known = [str(value) for value in results[by].unique()]
        raise PacsimError(f"no games with {by} {label!r} (known: {', '.join(known)}){did_you_mean(label, known)}")
    if games["game_index"].duplicated().any():
        raise PacsimError(f"{by} {label!r} holds several games per index (several runs pooled? pick one with "
                          "--experiment NAME, --root-seed N or --run ID; report --runs lists them)")
    return games[["game_index", "seed", "score", "outcome"]]
