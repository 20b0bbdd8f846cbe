"""The reproduction's table, paired test, pattern points and the slide read
as a sample, on hand-made results; the story ``pacsim reproduce`` prints."""

import itertools
import math
from pathlib import Path

import pandas
import pytest
from optional import needed

from pacsim.report.lesson import Setting, story
from pacsim.report.optimism import assess
from pacsim.report.stats import binomial_tail, mean_of_draws_tail

SETTING = Setting(root_seed=7, starts="random starts")


def render(frame, slide_setting=None):
    return story(frame, SETTING, slide_setting)


def results(cells_spec):
    rows = []
    for (pacman, ghosts), games in cells_spec.items():
        for index, (outcome, score, moves) in enumerate(games):
            rows.append({"pacman": pacman, "ghosts": ghosts, "outcome": outcome, "score": score,
                         "moves": moves, "game_index": index, "seed": 1000 + index, "start": 0, "num_ghosts": 1,
                         # a replay log per game (Pacman and ghost alternating): equal games, equal logs
                         "actions": "NN" * moves + "EE" * (abs(score) % 97)})
    return pandas.DataFrame(rows)


# The published means (483, 493, -303, 503), with games that differ from seed to seed.
LECTURE_LIKE = {
    ("minimax", "adversarial"): [("win", 481, 39), ("win", 485, 35)] * 2 + [("win", 483, 37)],
    ("minimax", "random"): [("win", 490, 30), ("win", 496, 24), ("win", 488, 32), ("win", 498, 22), ("win", 493, 27)],
    ("expectimax", "adversarial"): [("win", 503, 17)] + [("loss", -505, 15)] * 4,
    ("expectimax", "random"): [("win", 501, 19), ("win", 505, 15), ("win", 500, 20), ("win", 506, 14), ("win", 503, 17)],
}


def test_the_published_table_satisfies_every_point():
    assessment = assess(results(LECTURE_LIKE))
    assert [point.holds for point in assessment.points] == [True, True, True, True]
    assert assessment.paired.difference == pytest.approx(10.0)  # 503 - 493, game by game
    assert assessment.paired.difference_low > 0


def test_points_fail_for_the_right_reasons():
    spec = dict(LECTURE_LIKE)
    spec[("expectimax", "adversarial")] = [("timeout", -300, 300)] * 5  # stalls are not "caught"
    spec[("minimax", "random")] = [("win", 510, 10)] * 4 + [("loss", -500, 10)]  # 0.8 < nearly always
    spec[("expectimax", "random")] = [("win", 503, 17)] * 4 + [("loss", -500, 5)]
    points = assess(results(spec)).points
    assert [point.holds for point in points] == [False, False, False, False]
    assert "caught in 0.0% (0 of 5; 5 stalled, 0 won)" in points[1].evidence
    assert "80% on one score" in points[3].evidence  # four of five minimax games end on 510


def test_point_three_needs_the_paired_interval_above_zero():
    spec = dict(LECTURE_LIKE)
    # Expectimax ahead on average but not game by game: the interval straddles 0.
    spec[("expectimax", "random")] = [("win", 520, 19), ("win", 480, 15), ("win", 515, 20), ("win", 485, 14),
                                      ("win", 499, 17)]
    points = assess(results(spec)).points
    assert not points[2].holds and points[0].holds and points[3].holds


def test_when_point_two_fails_the_story_points_at_the_lesson_map():
    spec = dict(LECTURE_LIKE)
    spec[("expectimax", "adversarial")] = [("win", 503, 17)] * 4 + [("loss", -505, 15)]  # caught 1 in 5
    failed = render(results(spec))
    assert "pacsim lesson-map" in " ".join(failed.split())
    assert "pacsim lesson-map" not in render(results(LECTURE_LIKE))  # point 2 holds: nothing to point at


def test_six_move_games_are_not_distributions():
    spec = dict(LECTURE_LIKE)
    spec[("minimax", "random")] = [("win", 494 + index, 6) for index in range(5)]
    assert [point.holds for point in assess(results(spec)).points][3] is False


def test_the_story_tells_its_sections_in_order_in_plain_words():
    spec = dict(LECTURE_LIKE)
    spec[("expectimax", "adversarial")] = [("loss", -477, 9)] * 5  # the maze's own start: one game, five times
    text = render(results(LECTURE_LIKE), slide_setting=results(spec))
    headings = ["1. The published table", "2. pacsim in the slide's own setting", "3. pacsim measured",
                "4. The slide as a sample", "5. The lesson, point by point", "6. Choices made"]
    assert [text.index(heading) for heading in headings] == sorted(text.index(heading) for heading in headings)
    assert "Won 1/5, Avg. Score -303" in text and "Won 5/5, Avg. Score 483" in text  # published
    assert text.count("Won 1/5, Avg. Score -303") == 2  # ours, (503 - 4 * 505) / 5, and the published one
    assert "1 (the same game 5 times)" in text and "one observation, not several: expectimax/adversarial." in text
    assert text.count(" HOLDS: ") == 4 and "DOES NOT HOLD" not in text
    assert "expectimax - minimax = +10.0 points a game" in text
    assert "timeout" not in text and "point 3" not in text  # words only the study's README explained
    assert "Seeds that chose anything: 101" in text
    assert "experiments/optimism_pessimism/README.md" in text
    # The README's path, on a line of its own, is as long as the folder pacsim is in.
    assert max(len(line) for line in text.splitlines() if "README.md" not in line) <= 100


def test_the_story_of_cells_without_a_won_game():
    lost = {key: [("loss", -505, 9), ("timeout", -5, 5)] for key in LECTURE_LIKE}  # a tiny move cap, say
    text = render(results(lost))
    assert "won games average nothing (no game won)" in text and "DOES NOT HOLD" in text


def test_the_disclosure_says_when_the_root_seed_chose_something():
    chosen = story(results(LECTURE_LIKE), Setting(root_seed=2026, starts="random starts"))
    assert "This run's root seed, 2026, helped choose" in chosen
    assert "helped choose" not in render(results(LECTURE_LIKE))
    assert "6. Choices made" not in story(results(LECTURE_LIKE), Setting(None, "random starts", shipped=False))


# -- the slide as a sample of pacsim's cells --------------------------------

def test_the_slide_as_a_sample_of_each_cell():
    spec = dict(LECTURE_LIKE)
    # 5 wins and 3 losses: the slide's 1 win in 5 is P(X <= 1) at a win rate of 5/8.
    spec[("expectimax", "adversarial")] = [("win", 503, 17)] * 5 + [("loss", -505, 15)] * 3
    assessment = assess(results(spec))
    sample = assessment.slide[("expectimax", "adversarial")]
    rate = 5 / 8
    assert sample.wins_lower and sample.wins_probability == pytest.approx((1 - rate) ** 5 + 5 * rate * (1 - rate) ** 4)
    # A 5-game mean <= -303 needs at least 4 losses of 5: (3/8)^5 + 5 (5/8) (3/8)^4.
    assert sample.score_lower and sample.score_probability == pytest.approx(sample.wins_probability)
    always = assessment.slide[("minimax", "random")]
    assert not always.wins_lower and always.wins_probability == 1.0 and always.wins_consistent
    # 493 is at or above the cell's mean (490-498 in turn): a 5-game mean that high is common.
    assert always.score_lower is False and 0.3 < always.score_probability <= 1
    assert sample.column_text() == "P(<=1 win) 0.069, P(mean<=-303) 0.069"
    assert "1 or fewer wins in 5 has probability 0.069: consistent" in sample.sentence("expectimax/adversarial")


def test_a_slide_cell_pacsim_never_gives_is_not_consistent():
    spec = dict(LECTURE_LIKE)
    spec[("expectimax", "adversarial")] = [("win", 503, 17)] * 40  # always won: 1 win in 5 has probability 0
    sample = assess(results(spec)).slide[("expectimax", "adversarial")]
    assert sample.wins_probability == 0 and not sample.wins_consistent and not sample.score_consistent
    assert "NOT consistent (below 0.05)" in sample.sentence("expectimax/adversarial")


@pytest.mark.parametrize("successes, trials, rate", [(1, 5, 0.626), (1, 5, 0.575), (5, 5, 0.99), (0, 5, 0.0),
                                                     (3, 10, 0.5), (7, 20, 0.123)])
def test_binomial_tails_agree_with_scipy(successes, trials, rate):
    stats = needed("scipy.stats", "pip install -e '.[test]'")
    assert binomial_tail(successes, trials, rate, lower=True) == pytest.approx(
        stats.binomtest(successes, trials, rate, alternative="less").pvalue, abs=1e-12)
    assert binomial_tail(successes, trials, rate, lower=False) == pytest.approx(
        stats.binomtest(successes, trials, rate, alternative="greater").pvalue, abs=1e-12)


def test_the_mean_of_draws_tail_is_the_enumerated_one():
    values = [-505, -477, 503, 503, 531, 12]
    for threshold in (-303, 0, 300, 503):
        means = [sum(draw) / 3 for draw in itertools.product(values, repeat=3)]
        assert mean_of_draws_tail(values, 3, threshold, lower=True) == pytest.approx(
            sum(mean <= threshold for mean in means) / len(means))
        assert mean_of_draws_tail(values, 3, threshold, lower=False) == pytest.approx(
            sum(mean >= threshold for mean in means) / len(means))
    assert math.isclose(mean_of_draws_tail(values, 5, -10_000, lower=False), 1.0)


def test_reproduction_figure(tmp_path):
    needed("matplotlib", "pip install -e '.[plot]'")
    from pacsim.report.plot import plot_reproduction

    path = tmp_path / "table.svg"
    plot_reproduction(assess(results(LECTURE_LIKE)), path)
    assert b"<svg" in path.read_bytes()[:400]


def test_reproduce_on_fresh_seeds_with_set(tmp_path, capsys):
    from pacsim.cli import main
    from pacsim.runner import game_seeds, load_results

    store = tmp_path / "fresh.sqlite"
    assert main(["reproduce", "--games", "1", "-j", "1", "-q", "--set", "seed=60617", "--store", str(store)]) == 0
    assert set(load_results(store)["seed"]) == set(game_seeds(60617, 1))
    out = capsys.readouterr().out
    assert "lines of play" in out and "6. Choices made" in out and "slide as a sample   P(" in out
    story_lines = out[out.index("1. The published table"):out.index("What each point means")].splitlines()
    assert max(len(line) for line in story_lines) <= 100
    rows = load_results(store)
    assert set(rows["experiment"]) == {"optimism_pessimism", "optimism_pessimism_slide"}
    assert rows["start"].nunique() > 1  # the measured table draws its starts; the slide's is the maze's own
    assert main(["report", str(store)]) == 0  # the reproduction's store reports the same verdicts
    reported = capsys.readouterr().out
    verdicts = out[out.index("4. The slide as a sample"):out.index("6. Choices made")]
    assert verdicts in reported
    assert main(["reproduce", "--games", "1", "-j", "1", "-q", "--set", "sed=1", "--store", str(store)]) == 2
    error = capsys.readouterr().err
    assert "sed" in error and error.count("\n") == 1


def test_reproduce_from_decision_starts_discloses_its_book(tmp_path, capsys):
    from pacsim.cli import main
    from pacsim.runner import load_results
    from pacsim.runner.openings import read_book
    from pacsim.shipped import shipped_experiment

    store = tmp_path / "decisions.sqlite"
    assert main(["reproduce", "--games", "2", "-j", "1", "-q", "--starts", "decisions", "--store", str(store)]) == 0
    book = read_book(shipped_experiment("optimism_pessimism.book.json"))
    rows = load_results(store)
    measured = rows[rows["experiment"] == "optimism_pessimism"]
    assert list(measured["start"]) == [book.cells[index % len(book.cells)] for index in measured["game_index"]]
    out = capsys.readouterr().out
    assert "decision starts (the opening book's cells in turn)" in out
    assert f"This run's opening book: {len(book.cells)} of {book.screened} start cells" in out


def test_the_four_points_have_one_wording_everywhere_and_the_summary_says_what_held_and_why_not():
    """The names the reproduction prints are the study README's, in its list and its question; the summary names
    the points that held, and each that did not with its evidence; section 4 says which rows to read."""
    import re

    from pacsim.report.lesson import in_short, slide_sample_section
    from pacsim.report.optimism import POINT_NAMES

    readme = (Path(__file__).resolve().parents[1] / "experiments/optimism_pessimism/README.md").read_text(encoding="utf-8")
    assert re.findall(r"^\d\. \*\*(.+?)\*\*:", readme, re.M) == list(POINT_NAMES)
    question = readme[readme.index("## The question"):readme.index("## Rerun it")].replace("\n", " ")
    assert all(name.lower() in question.lower() for name in POINT_NAMES) and "ruinous" not in question
    spec = dict(LECTURE_LIKE)
    spec[("expectimax", "adversarial")] = [("timeout", -300, 300)] * 5  # point 2 fails: stalled, never caught
    assessment = assess(results(spec))
    assert [point.text.split(":")[0] for point in assessment.points] == list(POINT_NAMES)
    summary = in_short(assessment)
    for number, (name, point) in enumerate(zip(POINT_NAMES, assessment.points, strict=True), start=1):
        assert f"{number}. {name}" in summary
        assert (point.evidence in summary) != point.holds  # the reason is given for a point that did not hold
    assert "Which rows to read" in slide_sample_section(assessment)
