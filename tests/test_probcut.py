"""ChanceProbCut (pacsim.search.probcut): with intervals too wide to cut it
is Star1, so it must return expectiminimax's value and move exactly; the
fitted line recovers a known relation; a model survives a save and load."""

from __future__ import annotations

import pytest
from test_search_properties import ROOT, RandomGame

from pacsim.errors import SearchError
from pacsim.search import search
from pacsim.search.probcut import ProbCutModel, fit_probcut, probcut_search


def alternating_games(count: int):
    for seed in range(count):
        yield RandomGame(seed, ("max", "min", "chance"), max_levels=7, min_levels=6, alternating=True)


def test_without_confidence_cuts_it_is_exact_expectiminimax():
    wide = ProbCutModel(reduction=2, lines={3: (1.0, 0.0, 1e9)})
    for game in alternating_games(60):
        exact = search(game, ROOT, "expectiminimax", depth=7, evaluate=game.evaluate)
        found = probcut_search(game, ROOT, 7, game.evaluate, game.local_bounds, wide)
        assert (found.value, found.action) == (exact.value, exact.action)


def test_confident_predictions_cut_and_mostly_agree():
    tight = ProbCutModel(reduction=2, lines={3: (1.0, 0.0, 0.0)})
    cuts = agree = 0
    games = list(alternating_games(60))
    for game in games:
        exact = search(game, ROOT, "expectiminimax", depth=7, evaluate=game.evaluate)
        found = probcut_search(game, ROOT, 7, game.evaluate, (-10, 10), tight, confidence=0.0)
        cuts += found.stats.cutoffs
        agree += found.action == exact.action
    assert cuts > 0
    assert agree >= 0.8 * len(games)


def test_fit_recovers_identity_at_zero_reduction_and_round_trips(tmp_path):
    game = RandomGame(5, ("max", "min", "chance"), max_levels=7, min_levels=7, alternating=True)
    positions = [node for node in game.nodes if node[0] in (1, 2) and not game.is_terminal(node)]
    assert len(positions) >= 3
    model = fit_probcut(game, positions, depths=(2, 3), reduction=0, evaluate=game.evaluate, bounds=(-10, 10))
    slope, intercept, sigma = model.lines[2]
    assert (slope, intercept) == pytest.approx((1.0, 0.0), abs=1e-9)
    assert sigma == pytest.approx(0.0, abs=1e-9)
    assert model.predict(4.0, 3) == pytest.approx((4.0, 0.0), abs=1e-9)
    path = tmp_path / "model.json"
    model.save(path)
    assert ProbCutModel.load(path) == model
    path.write_text("{}", encoding="utf-8")
    with pytest.raises(SearchError, match="not a ChanceProbCut model"):
        ProbCutModel.load(path)
