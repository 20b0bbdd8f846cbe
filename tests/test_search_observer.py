"""A search tells any SearchObserver what it does at named hooks (the tracer
of pacsim.search.trace is one such observer), and an observed search
returns exactly the unobserved one's result."""

from __future__ import annotations

from time import perf_counter

import pytest
from test_search import chance_alpha_beta_tree, stock_game

from pacsim.search import search
from pacsim.search.api import checked, run_search
from pacsim.search.arguments import SearchSettings
from pacsim.search.base import SearchCounters
from pacsim.search.examples import TreeGame


class Recorder:
    """A SearchObserver that writes down every hook called, by name, with its arguments."""

    def __init__(self) -> None:
        self.events: list[tuple] = []
        self.counters: SearchCounters | None = None

    def search_started(self, counters):
        self.counters = counters
        self.events.append(("search_started",))

    def node_entered(self, state, alpha, beta, remaining, level):
        self.events.append(("node_entered", state, alpha, beta, remaining, level))

    def node_valued(self, value):
        self.events.append(("node_valued", value))

    def chance_bounded(self, lower, upper):
        self.events.append(("chance_bounded", lower, upper))

    def probe_started(self, outcome, move):
        self.events.append(("probe_started", outcome, move))

    def probe_ended(self):
        self.events.append(("probe_ended",))

    def leaf_pinned(self, outcome, probability, state, terminal, value):
        self.events.append(("leaf_pinned", outcome, probability, state, terminal, value))

    def named(self, hook: str) -> list[tuple]:
        return [event for event in self.events if event[0] == hook]


def observed_search(game, algorithm: str, **settings):
    """``search(game, (), algorithm, **settings)`` told to a fresh Recorder: its result and the recorder."""
    recorder = Recorder()
    started = perf_counter()
    result = run_search(checked(game, algorithm, SearchSettings(**settings), started), (), started, recorder)
    return result, recorder


def entered_and_valued(events: list[tuple]) -> list[tuple]:
    """Each node entered, paired with the value it was left with (hooks nest like calls)."""
    pairs, open_nodes = [], []
    for event in events:
        if event[0] == "node_entered":
            open_nodes.append(len(pairs))
            pairs.append([event, None])
        elif event[0] == "node_valued":
            pairs[open_nodes.pop()][1] = event[1]
    assert not open_nodes
    return [tuple(pair) for pair in pairs]


@pytest.mark.parametrize("algorithm", ("minimax", "alphabeta", "expectiminimax", "star1", "star2"))
def test_an_observed_search_is_the_search_and_its_node_hooks_nest(algorithm):
    chance = algorithm not in ("minimax", "alphabeta")
    game = chance_alpha_beta_tree() if chance else TreeGame(("max", [("min", [3, 5]), ("min", [2, 9]), ("min", [4, 1])]))
    settings = {"bounds": (-5, 5)} if chance else {}
    result, recorder = observed_search(game, algorithm, **settings)
    untraced = search(game, (), algorithm, **settings)
    assert (result.value, result.action) == (untraced.value, untraced.action)
    assert (result.stats.generated, result.stats.evaluated, result.stats.cutoffs) == (
        untraced.stats.generated, untraced.stats.evaluated, untraced.stats.cutoffs)
    assert recorder.events[0] == ("search_started",) and recorder.counters is not None
    pairs = entered_and_valued(recorder.events)
    assert all(entered[5] == len(entered[1]) for entered, _ in pairs)  # a node's level is its path's length
    pruned = algorithm in ("alphabeta", "star1", "star2")
    assert all((entered[2] is not None) == pruned for entered, _ in pairs)  # a window only in a pruned search
    # The root (MAX) is worth the best of its moves' nodes, each entered at level 1.
    assert max(value for entered, value in pairs if entered[5] == 1) == result.value
    assert len([entered for entered, _ in pairs if entered[5] == 1]) == len(game.actions(()))


def test_star2_tells_its_chance_bounds_and_the_probe_that_cuts_the_right_coin():
    # Seed 002: the right coin's first MIN node is probed with its first
    # move, found worth -4, and the coin is cut before its "?" nodes.
    result, recorder = observed_search(chance_alpha_beta_tree(), "star2", bounds=(-5, 5))
    assert recorder.named("chance_bounded") == [("chance_bounded", -5, 5)] * 2
    events = recorder.events
    start = events.index(("probe_started", 0, 0))
    probed = entered_and_valued(events[start + 1:events.index(("probe_ended",))])
    assert [(entered[1], value) for entered, value in probed] == [((1, 0, 0), -4)]
    # Nothing is entered after the probe: the coin is left below its alpha.
    coin_alpha = next(event[2] for event in events if event[:2] == ("node_entered", (1,)))
    after = events[events.index(("probe_ended",)) + 1:]
    assert len(after) == 1 and after[0][0] == "node_valued" and after[0][1] < coin_alpha
    assert result.value == coin_alpha  # the left coin's value, the root's


def test_star2_tells_the_leaves_it_pins_while_probing():
    game = stock_game()  # both stocks are chance nodes over leaves
    _, recorder = observed_search(game, "star2", bounds=(-1, 4))
    pinned = recorder.named("leaf_pinned")
    assert [event[3] for event in pinned] == [(stock, outcome) for stock in (0, 1) for outcome in range(3)]
    for _, outcome, probability, state, terminal, value in pinned:
        assert terminal and value == game.utility(state)
        assert (probability, state) == game.outcomes(state[:1])[outcome]
