"""ChanceProbCut: forward pruning at chance nodes, its fit, its Pacman option."""

from __future__ import annotations

import random

import pytest

from pacsim.agents import make_pacman
from pacsim.cli import main
from pacsim.engine import agent_rng, initial_state, load_layout
from pacsim.errors import AgentError, SearchError
from pacsim.search import CHANCE, MAX, MIN, ProbCutModel, search
from pacsim.search.probcut import DepthLine, load_model, save_model
from pacsim.search.probcut_fit import ValuePair, chance_pairs, fit_by_depth, fit_line, fit_model

LIMIT = 100


class LayeredGame:
    """A random game of ``levels`` levels: MAX, CHANCE, MIN, CHANCE, ...
    Positions are ``(level, index)``; successors are drawn from the next
    level (so positions repeat along paths).  ``estimates`` are either
    random numbers or, with ``exact=True``, each position's exact value, so
    a shallow search predicts a deep one perfectly."""

    KINDS = (MAX, CHANCE, MIN, CHANCE)

    def __init__(self, seed: int, levels: int = 8, width: int = 6, branching: int = 3, exact: bool = False):
        rng = random.Random(seed)
        self.levels = levels
        self.children: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self.leaves = {(levels, index): rng.randint(-LIMIT, LIMIT) for index in range(width)}
        for level in range(levels):
            for index in range(1 if level == 0 else width):
                self.children[(level, index)] = [(level + 1, rng.randrange(width)) for _ in range(branching)]
        self.estimates = {node: rng.randint(-LIMIT, LIMIT) for node in self.children}
        if exact:
            values: dict[tuple[int, int], float] = dict(self.leaves)
            for node in sorted(self.children, reverse=True):  # deepest level first
                below = [values[child] for child in self.children[node]]
                kind = self.to_move(node)
                values[node] = max(below) if kind == MAX else min(below) if kind == MIN else sum(below) / len(below)
            self.estimates = {node: values[node] for node in self.children}

    def to_move(self, state):
        return self.KINDS[state[0] % 4]

    def actions(self, state):
        return list(range(len(self.children[state])))

    def result(self, state, action):
        return self.children[state][action]

    def outcomes(self, state):
        children = self.children[state]
        return [(1 / len(children), child) for child in children]

    def is_terminal(self, state):
        return state[0] == self.levels

    def utility(self, state):
        return self.leaves[state]

    def evaluate(self, state):
        return self.estimates[state]


ROOT = (0, 0)
BOUNDS = (-LIMIT, LIMIT)


def star2(game, probcut=None, depth=None):
    return search(game, ROOT, "star2", depth=depth or game.levels, evaluate=game.evaluate, bounds=BOUNDS,
                  probcut=probcut)


@pytest.mark.parametrize("seed", range(12))
def test_a_huge_confidence_never_cuts_and_is_star2_exactly(seed):
    game = LayeredGame(seed)
    model = ProbCutModel(reduction=2, slope=1.0, intercept=0.0, sigma=5.0, confidence=1e9)
    for depth in (4, 6, 7):
        exact, pruned = star2(game, depth=depth), star2(game, model, depth)
        assert (pruned.value, pruned.action) == (exact.value, exact.action)
        assert pruned.stats.probcuts == 0
        assert (pruned.stats.generated, pruned.stats.evaluated, pruned.stats.cutoffs) == (
            exact.stats.generated, exact.stats.evaluated, exact.stats.cutoffs)


def test_exact_predictions_cut_without_changing_the_value():
    model = ProbCutModel(reduction=2, slope=1.0, intercept=0.0, sigma=0.0)
    cuts = 0
    for seed in range(10):
        game = LayeredGame(seed, exact=True)
        exact, pruned = star2(game), star2(game, model)
        assert pruned.value == pytest.approx(exact.value, abs=1e-9)
        assert pruned.value == pytest.approx(search(game, ROOT, "expectiminimax").value, abs=1e-9)
        cuts += pruned.stats.probcuts
    assert cuts > 0


def test_a_wrong_model_cuts_and_can_change_the_value():
    """Forward pruning is not exact: a model claiming certainty about
    random estimates cuts and errs somewhere."""
    model = ProbCutModel(reduction=2, slope=1.0, intercept=0.0, sigma=0.0)
    results = [(star2(LayeredGame(seed)), star2(LayeredGame(seed), model)) for seed in range(10)]
    assert sum(pruned.stats.probcuts for _, pruned in results) > 0
    assert any(pruned.value != pytest.approx(exact.value) for exact, pruned in results)


def test_the_fit_recovers_a_known_line():
    rng = random.Random(7)
    pairs = []
    for _ in range(4000):
        shallow = rng.uniform(-50, 50)
        pairs.append(ValuePair(5, shallow, 2.0 * shallow - 3.0 + rng.gauss(0, 4.0)))
    line = fit_line(pairs)
    assert line.slope == pytest.approx(2.0, abs=0.02)
    assert line.intercept == pytest.approx(-3.0, abs=0.3)
    assert line.sigma == pytest.approx(4.0, rel=0.05)
    model = fit_model(pairs, reduction=3, confidence=1.5)
    assert (model.reduction, model.confidence, model.slope, model.by_depth) == (3, 1.5, line.slope, ())


def test_lines_by_depth_are_fitted_and_used_at_their_depth():
    rng = random.Random(8)
    pairs = [ValuePair(depth, shallow, shallow + 10 * depth + rng.gauss(0, 1))
             for depth in (3, 4, 5) for shallow in (rng.uniform(-50, 50) for _ in range(300))]
    pairs += [ValuePair(6, 1.0, 2.0), ValuePair(6, 2.0, 3.0)]  # too few for a line of their own
    model = fit_model(pairs, reduction=2, per_depth=100)
    assert [line.depth for line in model.by_depth] == [3, 4, 5]
    for line in model.by_depth:
        assert line.intercept == pytest.approx(10 * line.depth, abs=0.5)
        assert line.sigma == pytest.approx(1.0, rel=0.15)
    assert model.sigma > 5  # the pooled line misses the depths' offsets


def test_pairs_of_an_exact_game_fit_the_identity():
    game = LayeredGame(3, exact=True)
    chance_nodes = [(1, 0), (3, 1), (3, 2)]
    pairs = chance_pairs(game, chance_nodes, game.evaluate, BOUNDS, reduction=2, depths=[3, 4])
    assert {pair.depth for pair in pairs} == {3, 4}
    assert all(pair.shallow == pytest.approx(pair.deep) for pair in pairs)
    for line in fit_by_depth(pairs).values():
        assert (line.slope, line.intercept, line.sigma) == pytest.approx((1.0, 0.0, 0.0), abs=1e-9)


@pytest.mark.parametrize("fields,message", [
    ({"reduction": 0}, "reduction must be a positive integer"),
    ({"sigma": -1.0}, "sigma must not be negative"),
    ({"confidence": 0.0}, "confidence must be positive"),
    ({"slope": float("nan")}, "slope must be a finite number"),
    ({"slope": 0.0}, "slope must be positive"),
    ({"min_depth": 3}, "min_depth=3 leaves no shallow search"),
])
def test_a_bad_model_is_refused(fields, message):
    values = {"reduction": 2, "slope": 1.0, "intercept": 0.0, "sigma": 1.0} | fields
    with pytest.raises(SearchError, match=message):
        ProbCutModel(**values)


def test_probcut_needs_a_star_algorithm_and_a_model():
    game = LayeredGame(1)
    model = ProbCutModel(2, 1.0, 0.0, 1.0)
    with pytest.raises(SearchError, match="star1 and star2 only"):
        search(game, ROOT, "expectiminimax", depth=4, evaluate=game.evaluate, probcut=model)
    with pytest.raises(SearchError, match="must be a ProbCutModel"):
        search(game, ROOT, "star2", depth=4, evaluate=game.evaluate, bounds=BOUNDS, probcut={"sigma": 1})


def test_a_model_file_round_trips(tmp_path):
    model = ProbCutModel(3, 0.9, 1.5, 12.0, 2.0, 6, (DepthLine(5, 1.0, 2.0, 3.0), DepthLine(7, 1.1, 4.0, 2.5)))
    save_model(tmp_path / "model.json", model, {"layout": "tinyGhostMaze"})
    assert load_model(tmp_path / "model.json") == model


def pacman_position():
    layout = load_layout("smallClassic")
    return initial_state(layout, 2)


def test_the_star2_pacman_takes_a_model_file_and_a_confidence(tmp_path):
    path = tmp_path / "model.json"
    save_model(path, ProbCutModel(3, 1.0, 0.0, 0.0, 1.0))
    spec = f"expectimax:depth=3,eval=careful,algorithm=star2,probcut={path}"
    agent = make_pacman(spec)
    assert agent.probcut == load_model(path)
    assert make_pacman(spec + ",probcut_t=2.5").probcut.confidence == 2.5
    exact = make_pacman("expectimax:depth=3,eval=careful,algorithm=star2")
    state = pacman_position()
    for player in (agent, exact):
        player.reset(0, agent_rng(0, 0))
        player.get_action(state)
    assert agent.last_result.stats.probcuts > 0
    assert agent.last_result.stats.generated < exact.last_result.stats.generated


def test_probcut_on_another_algorithm_is_an_agent_error(tmp_path):
    path = tmp_path / "model.json"
    save_model(path, ProbCutModel(3, 1.0, 0.0, 1.0))
    with pytest.raises(AgentError, match="needs algorithm=star2"):
        make_pacman(f"expectimax:eval=careful,probcut={path}")
    with pytest.raises(AgentError, match=r"needs probcut=MODEL\.json"):
        make_pacman("expectimax:eval=careful,algorithm=star2,probcut_t=2")


def test_the_fit_command_writes_a_model_the_pacman_loads(tmp_path, capsys):
    path = tmp_path / "smallClassic.json"
    status = main(["probcut", "fit", "-l", "smallClassic", "--games", "1", "--positions", "2", "--nodes", "4",
                   "--for", "expectimax:depth=2,eval=careful,algorithm=star2", "--out", str(path)])
    assert status == 0
    assert "deep = " in capsys.readouterr().out
    model = load_model(path)
    assert model.reduction == 3 and model.sigma >= 0
    assert make_pacman(f"expectimax:depth=2,eval=careful,algorithm=star2,probcut={path}").probcut == model
