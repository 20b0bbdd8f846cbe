"""The reproduction's table, paired test and pattern points, on hand-made results."""

import pandas
import pytest

from pacsim.report.optimism import assess, render


def results(cells_spec):
    rows = []
    for (pacman, ghosts), games in cells_spec.items():
        for index, (outcome, score, moves) in enumerate(games):
            rows.append({"pacman": pacman, "ghosts": ghosts, "outcome": outcome, "score": score,
                         "moves": moves, "game_index": index, "seed": 1000 + index})
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
    assert "0/5 caught, 5 timeouts" in points[1].evidence
    assert "80% on one score" in points[3].evidence  # four of five minimax games end on 510


def test_point_three_needs_the_paired_interval_above_zero():
    spec = dict(LECTURE_LIKE)
    # Expectimax ahead on average but not game by game: the interval straddles 0.
    spec[("expectimax", "random")] = [("win", 520, 19), ("win", 480, 15), ("win", 515, 20), ("win", 485, 14),
                                      ("win", 499, 17)]
    points = assess(results(spec)).points
    assert not points[2].holds and points[0].holds and points[3].holds


def test_six_move_games_are_not_distributions():
    spec = dict(LECTURE_LIKE)
    spec[("minimax", "random")] = [("win", 494 + index, 6) for index in range(5)]
    assert [point.holds for point in assess(results(spec)).points][3] is False


def test_render_shows_the_slide_shape_beside_the_published_table():
    text = render(results(LECTURE_LIKE))
    assert "Won 1/5, Avg. Score -303" in text and "Won 5/5, Avg. Score 483" in text  # published
    assert text.count("Won 1/5, Avg. Score -303") == 2  # ours, (503 - 4 * 505) / 5, and the published one
    assert text.count("-- holds") == 4
    assert "expectimax - minimax: +10.0 points a game" in text
    assert "experiments/optimism_pessimism/README.md" in text
    # The README's path, on a line of its own, is as long as the folder pacsim is in.
    assert max(len(line) for line in text.splitlines() if "README.md" not in line) <= 100


def test_reproduction_figure(tmp_path):
    pytest.importorskip("matplotlib")
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
    assert "lines of play" in out and "Before reading this as the lecture's lesson" in out
    closing = out[out.index("Before reading this"):].splitlines()
    assert len(closing) == 6 and max(len(line) for line in closing) <= 100
    assert load_results(store)["start"].notna().all()  # the shipped table draws its starts
    assert main(["reproduce", "--games", "1", "-j", "1", "-q", "--set", "sed=1", "--store", str(store)]) == 2
    error = capsys.readouterr().err
    assert "sed" in error and error.count("\n") == 1
