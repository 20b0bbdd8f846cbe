"""The optimism/pessimism table in the lecture's shape, and its four pattern points.

The published table (seed 002, 5 games a cell) and the pattern it teaches are
in ``experiments/optimism_pessimism/README.md`` ("The four pattern points").  Each point is checked with a
stated numeric criterion, so "holds" means something a reader can dispute.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas

from pacsim.errors import PacsimError
from pacsim.report.stats import binomial_tail, mean_interval, mean_of_draws_tail, wilson_interval
from pacsim.report.summary import Comparison, compare, lines_of_play
from pacsim.shipped import shipped_experiment

PACMEN = ("minimax", "expectimax")
GHOSTS = ("adversarial", "random")
PUBLISHED = {
    ("minimax", "adversarial"): "Won 5/5, Avg. Score 483",
    ("minimax", "random"): "Won 5/5, Avg. Score 493",
    ("expectimax", "adversarial"): "Won 1/5, Avg. Score -303",
    ("expectimax", "random"): "Won 5/5, Avg. Score 503",
}
PUBLISHED_NUMBERS = {
    ("minimax", "adversarial"): (5, 483),
    ("minimax", "random"): (5, 493),
    ("expectimax", "adversarial"): (1, -303),
    ("expectimax", "random"): (5, 503),
}
"""Wins out of 5 and average score of each published cell."""
SLIDE_GAMES = 5
"""Games a cell on the slide."""
CONSISTENT_AT = 0.05
"""A published cell is consistent with pacsim's when its result, as
``SLIDE_GAMES`` games drawn from pacsim's cell, is at least this likely."""
NEARLY_ALWAYS = 0.95
"""A win rate at least this high counts as winning "(nearly) always"."""
WIN_BAND = (400.0, 600.0)
"""Mean score of won games in "the few-hundreds band of a tiny maze"."""
MIN_MOVES = 15.0
"""Mean game length (Pacman moves) a random-ghost cell needs to be a real
distribution of games rather than one line of play repeated."""
MAX_MODE_SHARE = 0.8
"""Largest share of a random-ghost cell's games that may end on one score."""
README = "optimism_pessimism/README.md"
"""The reproduction study's README, in the shipped experiments folder."""


def readme_pointer() -> str:
    """Where to read on: the README shipped beside the experiments (inside the
    installed package when pacsim came from a wheel)."""
    return f"What each point means, and how the maze was found:\n  {shipped_experiment(README)}"


@dataclass(frozen=True)
class Cell:
    """One cell of the table: a Pacman against a ghost kind."""

    games: int
    wins: int
    losses: int
    timeouts: int
    score_mean: float
    score_low: float
    score_high: float
    win_low: float
    win_high: float
    won_score_mean: float
    """Mean score of the won games (NaN without wins)."""
    moves_mean: float
    """Mean Pacman moves a game (NaN when the results lack the column)."""
    mode_share: float
    """Share of the games that end on the cell's most common score."""
    lines: float = math.nan
    """Distinct lines of play (start + Pacman's actions) among the games; NaN without replay logs."""

    def slide_text(self) -> str:
        return f"Won {self.wins}/{self.games}, Avg. Score {self.score_mean:.0f}"


@dataclass(frozen=True)
class SlideSample:
    """The slide's cell read as five games drawn from pacsim's cell: how
    likely its wins (exact binomial at pacsim's win rate) and its average
    (exact distribution of a 5-game mean of pacsim's scores), each in the
    direction the slide lies from pacsim (``lower``: as few wins, as low a mean)."""

    wins: int
    score: float
    wins_probability: float
    wins_lower: bool
    score_probability: float
    score_lower: bool

    @property
    def wins_consistent(self) -> bool:
        return self.wins_probability >= CONSISTENT_AT

    @property
    def score_consistent(self) -> bool:
        return self.score_probability >= CONSISTENT_AT

    def column_text(self) -> str:
        """``P(<=1 win) 0.069, P(mean<=-303) 0.010``: the table's column."""
        wins = f"{'<=' if self.wins_lower else '>='}{self.wins} win{'' if self.wins == 1 else 's'}"
        score = f"mean{'<=' if self.score_lower else '>='}{self.score:.0f}"
        return f"P({wins}) {_probability(self.wins_probability)}, P({score}) {_probability(self.score_probability)}"

    def sentence(self, name: str) -> str:
        """One line in words: consistent or not, at what probability."""
        def verdict(consistent: bool) -> str:
            return "consistent" if consistent else f"NOT consistent (below {CONSISTENT_AT})"

        fewer = "or fewer" if self.wins_lower else "or more"
        lower = "as low" if self.score_lower else "as high"
        return (f"{name}: {self.wins} {fewer} wins in {SLIDE_GAMES} has probability "
                f"{_probability(self.wins_probability)}: {verdict(self.wins_consistent)}; a {SLIDE_GAMES}-game mean "
                f"{lower} as {self.score:.0f} (a score: it depends on the maze): "
                f"{_probability(self.score_probability)}, {verdict(self.score_consistent)}.")


def slide_sample(games: pandas.DataFrame, wins: int, score: float) -> SlideSample:
    """How likely a published cell (``wins`` of 5, mean ``score``) is as 5 of ``games`` drawn at random."""
    rate = float((games["outcome"] == "win").mean())
    scores = games["score"].astype(float).tolist()
    wins_lower = wins < SLIDE_GAMES * rate
    score_lower = score < math.fsum(scores) / len(scores)
    return SlideSample(wins=wins, score=score,
                       wins_probability=binomial_tail(wins, SLIDE_GAMES, rate, lower=wins_lower), wins_lower=wins_lower,
                       score_probability=mean_of_draws_tail(scores, SLIDE_GAMES, score, lower=score_lower),
                       score_lower=score_lower)


def _probability(value: float) -> str:
    return "<0.001" if value < 0.001 else f"{value:.3f}"


@dataclass(frozen=True)
class PatternPoint:
    text: str
    criterion: str
    holds: bool
    evidence: str


@dataclass(frozen=True)
class Assessment:
    """The table, the paired test of point 3, and the four points."""

    cells: dict[tuple[str, str], Cell]
    paired: Comparison
    """Expectimax against minimax, both against the random ghost, on the same seeds."""
    paired_adversarial: Comparison
    """Minimax against expectimax, both against the adversarial ghost, on the same seeds."""
    points: list[PatternPoint]
    slide: dict[tuple[str, str], SlideSample]
    """Each published cell read as five games drawn from ours."""

    @property
    def all_hold(self) -> bool:
        return all(point.holds for point in self.points)


def cells(results: pandas.DataFrame) -> dict[tuple[str, str], Cell]:
    """The four cells of the table from a store's games (columns pacman, ghosts, outcome, score, moves)."""
    found = {}
    for pacman in PACMEN:
        for ghost in GHOSTS:
            games = _cell_games(results, pacman, ghost)
            outcomes = games["outcome"].value_counts()
            wins = int(outcomes.get("win", 0))
            mean, low, high = mean_interval(games["score"].astype(float).tolist())
            win_low, win_high = wilson_interval(wins, len(games))
            won = games[games["outcome"] == "win"]["score"]
            found[(pacman, ghost)] = Cell(
                games=len(games), wins=wins, losses=int(outcomes.get("loss", 0)),
                timeouts=int(outcomes.get("timeout", 0)), score_mean=mean, score_low=low, score_high=high,
                win_low=win_low, win_high=win_high, won_score_mean=float(won.mean()) if len(won) else math.nan,
                moves_mean=float(games["moves"].mean()) if "moves" in games else math.nan,
                mode_share=float(games["score"].value_counts().iloc[0]) / len(games),
                lines=lines_of_play(games),
            )
    return found


def _cell_games(results: pandas.DataFrame, pacman: str, ghost: str) -> pandas.DataFrame:
    games = results[(results["pacman"] == pacman) & (results["ghosts"] == ghost)]
    if games.empty:
        raise PacsimError(f"no games of {pacman} Pacman against the {ghost} ghost in these results")
    return games


def paired(results: pandas.DataFrame, a: str, b: str) -> Comparison:
    """Cell ``a`` minus cell ``b`` (``pacman/ghost``), game by game (same seeds)."""
    frame = results.assign(side=results["pacman"].astype(str) + "/" + results["ghosts"].astype(str))
    return compare(frame, a, b, by="side")


def assess(results: pandas.DataFrame) -> Assessment:
    """Cells, the paired test and the four pattern points of one reproduction."""
    table = cells(results)
    gain = paired(results, "expectimax/random", "minimax/random")
    slide = {key: slide_sample(_cell_games(results, *key), *PUBLISHED_NUMBERS[key]) for key in table}
    return Assessment(cells=table, paired=gain, paired_adversarial=paired(results, "minimax/adversarial",
                                                                            "expectimax/adversarial"),
                      points=pattern_points(table, gain), slide=slide)


POINT_NAMES = ("Pessimism is safe", "Optimism is dangerous against an adversary",
               "Pessimism costs a little against chance", "A tiny maze, and games that vary")
"""The four points, in the words of experiments/optimism_pessimism/README.md ("The four pattern points"),
the only words pacsim uses for them."""


def pattern_points(table: dict[tuple[str, str], Cell], paired: Comparison) -> list[PatternPoint]:
    """The four points of the lecture's pattern (``experiments/optimism_pessimism/README.md``), each with its criterion."""
    minimax_adversarial = table[("minimax", "adversarial")]
    minimax_random = table[("minimax", "random")]
    expectimax_adversarial = table[("expectimax", "adversarial")]
    expectimax_random = table[("expectimax", "random")]

    def rate(cell: Cell) -> float:
        return cell.wins / cell.games

    bands = {key: cell.won_score_mean for key, cell in table.items()}
    randoms = {key: cell for key, cell in table.items() if key[1] == "random"}
    in_band = all(WIN_BAND[0] <= value <= WIN_BAND[1] for value in bands.values() if not math.isnan(value))
    distributions = all(cell.moves_mean >= MIN_MOVES and cell.mode_share <= MAX_MODE_SHARE for cell in randoms.values())
    caught = expectimax_adversarial.losses / expectimax_adversarial.games
    return [
        PatternPoint(
            f"{POINT_NAMES[0]}: minimax wins (nearly) always against both ghosts.",
            f"a win rate of at least {NEARLY_ALWAYS:.0%} in both minimax cells",
            rate(minimax_adversarial) >= NEARLY_ALWAYS and rate(minimax_random) >= NEARLY_ALWAYS,
            f"won {rate(minimax_adversarial):.1%} against the adversarial ghost, {rate(minimax_random):.1%} "
            "against the random one",
        ),
        PatternPoint(
            f"{POINT_NAMES[1]}: expectimax is caught by the adversarial ghost in more than half its games, "
            "with a negative mean.",
            "caught (not stalled) in more than half the games, and a mean score below 0",
            caught > 0.5 and expectimax_adversarial.score_mean < 0,
            f"caught in {caught:.1%} ({expectimax_adversarial.losses} of {expectimax_adversarial.games}; "
            f"{expectimax_adversarial.timeouts} stalled, {expectimax_adversarial.wins} won), "
            f"mean {expectimax_adversarial.score_mean:+.0f}",
        ),
        PatternPoint(
            f"{POINT_NAMES[2]}: expectimax wins (nearly) always against the random ghost and scores more "
            "than minimax.",
            f"a win rate of at least {NEARLY_ALWAYS:.0%}, and expectimax - minimax on the same seeds with its "
            "95% interval above 0",
            rate(expectimax_random) >= NEARLY_ALWAYS and paired.difference_low > 0,
            f"won {rate(expectimax_random):.1%}; expectimax - minimax = {paired.difference:+.1f} points a game "
            f"[{paired.difference_low:+.1f}, {paired.difference_high:+.1f}] over {paired.pairs} pairs",
        ),
        PatternPoint(
            f"{POINT_NAMES[3]}: winning averages of a few hundred points, random-ghost games that are not "
            "one game repeated.",
            f"won games average {WIN_BAND[0]:.0f}-{WIN_BAND[1]:.0f} in every cell with wins; random-ghost cells "
            f"at least {MIN_MOVES:.0f} moves a game and at most {MAX_MODE_SHARE:.0%} of games on one score",
            in_band and distributions,
            "won games average " + ", ".join(f"{value:.0f} ({pacman}/{ghost})" for (pacman, ghost), value
                                             in bands.items() if not math.isnan(value))
            + "; " + ", ".join(f"{pacman}/random {cell.moves_mean:.0f} moves a game, {cell.mode_share:.0%} on one "
                               "score" for (pacman, _), cell in randoms.items()),
        ),
    ]
