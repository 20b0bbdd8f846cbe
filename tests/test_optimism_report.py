"""The reproduction's table and pattern points, on hand-made results."""

import pandas

from pacsim.report.optimism import cells, pattern_points, render


def results(cells_spec):
    rows = []
    for (pacman, ghosts), games in cells_spec.items():
        for index, (outcome, score) in enumerate(games):
            rows.append({"pacman": pacman, "ghosts": ghosts, "outcome": outcome, "score": score, "game_index": index})
    return pandas.DataFrame(rows)


LECTURE_LIKE = {
    ("minimax", "adversarial"): [("win", 483)] * 5,
    ("minimax", "random"): [("win", 493)] * 5,
    ("expectimax", "adversarial"): [("win", 503)] + [("loss", -505)] * 4,
    ("expectimax", "random"): [("win", 503)] * 5,
}


def test_the_published_table_satisfies_every_point():
    points = pattern_points(cells(results(LECTURE_LIKE)))
    assert [point.holds for point in points] == [True, True, True, True]


def test_points_fail_for_the_right_reasons():
    spec = dict(LECTURE_LIKE)
    spec[("expectimax", "adversarial")] = [("timeout", -300)] * 5  # stalls are not "caught"
    spec[("minimax", "random")] = [("win", 510)] * 4 + [("loss", -500)]  # 0.8 < nearly always
    spec[("expectimax", "random")] = [("win", 503)] * 4 + [("loss", -500)]
    points = pattern_points(cells(results(spec)))
    assert [point.holds for point in points] == [False, False, False, True]
    assert "0/5 caught, 5 timeouts" in points[1].evidence


def test_render_shows_the_slide_shape_beside_the_published_table():
    text = render(results(LECTURE_LIKE))
    assert "Won 1/5, Avg. Score -303" in text and "Won 5/5, Avg. Score 483" in text  # published
    assert text.count("Won 1/5, Avg. Score -303") == 2  # ours, (503 - 4 * 505) / 5, and the published one
    assert text.count("-- holds") == 4
