"""The optimism/pessimism table in the lecture's shape, and its four pattern points.

The published table (seed 002, 5 games a cell) and the pattern it teaches are
in ``shared/reference/optimism_pessimism.md``.  Each point is checked with a
stated numeric criterion, so "holds" means something a reader can dispute.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas

from pacsim.errors import PacsimError
from pacsim.report.stats import mean_interval, wilson_interval

PACMEN = ("minimax", "expectimax")
GHOSTS = ("adversarial", "random")
PUBLISHED = {
    ("minimax", "adversarial"): "Won 5/5, Avg. Score 483",
    ("minimax", "random"): "Won 5/5, Avg. Score 493",
    ("expectimax", "adversarial"): "Won 1/5, Avg. Score -303",
    ("expectimax", "random"): "Won 5/5, Avg. Score 503",
}
NEARLY_ALWAYS = 0.9
"""A win rate at least this high counts as winning "(nearly) always"."""
WIN_BAND = (400.0, 600.0)
"""Mean score of won games in "the few-hundreds band of a tiny maze"."""


@dataclass
class Cell:
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

    def slide_text(self) -> str:
        return f"Won {self.wins}/{self.games}, Avg. Score {self.score_mean:.0f}"

    def interval_text(self) -> str:
        return (f"win rate {self.wins / self.games:.2f} [{self.win_low:.2f}, {self.win_high:.2f}], "
                f"score [{self.score_low:.0f}, {self.score_high:.0f}]")


@dataclass
class PatternPoint:
    text: str
    criterion: str
    holds: bool
    evidence: str


def cells(results: pandas.DataFrame) -> dict[tuple[str, str], Cell]:
    """The four cells of the table from a store's games (columns pacman, ghosts, outcome, score)."""
    found = {}
    for pacman in PACMEN:
        for ghost in GHOSTS:
            games = results[(results["pacman"] == pacman) & (results["ghosts"] == ghost)]
            if games.empty:
                raise PacsimError(f"no games of {pacman} Pacman against the {ghost} ghost in these results")
            outcomes = games["outcome"].value_counts()
            wins = int(outcomes.get("win", 0))
            mean, low, high = mean_interval(games["score"].astype(float).tolist())
            win_low, win_high = wilson_interval(wins, len(games))
            won = games[games["outcome"] == "win"]["score"]
            found[(pacman, ghost)] = Cell(
                games=len(games), wins=wins, losses=int(outcomes.get("loss", 0)),
                timeouts=int(outcomes.get("timeout", 0)), score_mean=mean, score_low=low, score_high=high,
                win_low=win_low, win_high=win_high, won_score_mean=float(won.mean()) if len(won) else float("nan"),
            )
    return found


def pattern_points(table: dict[tuple[str, str], Cell]) -> list[PatternPoint]:
    minimax_adversarial = table[("minimax", "adversarial")]
    minimax_random = table[("minimax", "random")]
    expectimax_adversarial = table[("expectimax", "adversarial")]
    expectimax_random = table[("expectimax", "random")]

    def rate(cell: Cell) -> float:
        return cell.wins / cell.games

    bands = {key: cell.won_score_mean for key, cell in table.items()}
    return [
        PatternPoint(
            "Minimax wins (nearly) always against both ghosts.",
            f"win rate >= {NEARLY_ALWAYS} in both minimax cells",
            rate(minimax_adversarial) >= NEARLY_ALWAYS and rate(minimax_random) >= NEARLY_ALWAYS,
            f"{rate(minimax_adversarial):.2f} vs adversarial, {rate(minimax_random):.2f} vs random",
        ),
        PatternPoint(
            "Expectimax against the adversarial ghost loses most games by being caught, with a negative mean score.",
            "losses (caught, not timeouts) > half the games and mean score < 0",
            expectimax_adversarial.losses > expectimax_adversarial.games / 2 and expectimax_adversarial.score_mean < 0,
            f"{expectimax_adversarial.losses}/{expectimax_adversarial.games} caught, "
            f"{expectimax_adversarial.timeouts} timeouts, mean score {expectimax_adversarial.score_mean:.0f}",
        ),
        PatternPoint(
            "Expectimax against the random ghost wins (nearly) always, scoring more than minimax against it.",
            f"win rate >= {NEARLY_ALWAYS} and mean score above minimax's against the random ghost",
            rate(expectimax_random) >= NEARLY_ALWAYS and expectimax_random.score_mean > minimax_random.score_mean,
            f"win rate {rate(expectimax_random):.2f}, mean score {expectimax_random.score_mean:.0f} "
            f"vs minimax's {minimax_random.score_mean:.0f}",
        ),
        PatternPoint(
            "Winning averages are in the few-hundreds band of a tiny maze.",
            f"mean score of won games within {WIN_BAND[0]:.0f}-{WIN_BAND[1]:.0f} in every cell with wins",
            all(WIN_BAND[0] <= value <= WIN_BAND[1] for value in bands.values() if value == value),
            ", ".join(f"{pacman}/{ghost} {value:.0f}" for (pacman, ghost), value in bands.items() if value == value),
        ),
    ]


def render(results: pandas.DataFrame) -> str:
    """The table in the slide's shape beside the published one, then the pattern points."""
    table = cells(results)
    width = 38
    lines = [
        f"{'':<20}{'Adversarial ghost':<{width}}{'Random ghost':<{width}}",
    ]
    for pacman in PACMEN:
        name = f"{pacman.capitalize()} Pacman"
        lines.append(f"{name:<20}" + "".join(f"{table[(pacman, ghost)].slide_text():<{width}}" for ghost in GHOSTS))
        lines.append(f"{'  (95% intervals)':<20}" + "".join(
            f"{_short_interval(table[(pacman, ghost)]):<{width}}" for ghost in GHOSTS))
        lines.append(f"{'  published':<20}" + "".join(f"{PUBLISHED[(pacman, ghost)]:<{width}}" for ghost in GHOSTS))
    lines.append("")
    for number, point in enumerate(pattern_points(table), start=1):
        verdict = "holds" if point.holds else "does NOT hold"
        lines.append(f"{number}. {point.text} -- {verdict}")
        lines.append(f"   criterion: {point.criterion}; measured: {point.evidence}")
    return "\n".join(lines)


def _short_interval(cell: Cell) -> str:
    return f"wins [{cell.win_low:.2f},{cell.win_high:.2f}] score [{cell.score_low:.0f},{cell.score_high:.0f}]"
