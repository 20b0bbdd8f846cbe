"""``pacsim compare``: the sequential test's statistics (against published
numbers and against simulation) and the command end to end."""

import math
import os
import signal
import sqlite3
import subprocess
import sys

import numpy
import pytest
from storetools import wait_for_rows
from test_runner import REPOSITORY, alive, pool_workers, stop_group

from pacsim.cli import main
from pacsim.report.sprt import (
    BY_RESULT,
    BY_WIN,
    CONTINUE,
    H0,
    H1,
    Hypotheses,
    PairCounts,
    approximate_llr,
    gsprt_llr,
    llr_bounds,
    pair_results,
    sequential_test,
)


def logistic_score(elo: float) -> float:
    """The expected score of a logistic Elo difference (how the chess testers state their hypotheses)."""
    return 1 / (1 + 10 ** (-elo / 400))


# -- published numbers ---------------------------------------------------------

# fastchess's own tests (github.com/Disservin/fastchess, app/tests/sprt_test.cpp, "logistic trinomial 1, 2" and
# "logistic pentanomial 1, 2"): fastchess's "logistic" model is the GSPRT with the constrained maximum likelihood
# estimates of Van den Bergh, as fishtest's LLR_logistic.  Their Stats(wins, losses, draws) and
# Stats(LL, LD, WL, DD, WD, WW) become counts lowest score first; the published LLRs have two decimals, checked
# to 1% as they check them.
FASTCHESS = [
    ([21184, 40708, 21404], 0.5, 2.5, -1.57),
    ([57030, 106593, 57433], 0.0, 2.0, -2.59),
    ([223, 9863, 20279 + 1000, 10037, 246], 0.5, 2.5, -3.07),
    ([871, 26175, 55003 + 980, 26678, 821], 0.0, 2.0, -4.98),
]


@pytest.mark.parametrize(("counts", "elo0", "elo1", "published"), FASTCHESS)
def test_gsprt_llr_matches_fastchess(counts, elo0, elo1, published):
    llr = gsprt_llr(counts, logistic_score(elo0), logistic_score(elo1))
    assert llr == pytest.approx(published, rel=0.01)


def test_llr_and_bounds_match_a_fishtest_statistics_page():
    # A fishtest instance's raw statistics page (https://montytest.muzhen.org/tests/stats/69d3c8dc7c5b3724e29d2712):
    # pentanomial [13, 37, 50, 25, 3], H0 and H1 given in normalized Elo 0 and 4, which the page turns into the
    # scores 0.5 and 0.50391 (normalized Elo times the standard deviation per game, sqrt(2 var) of the pairs,
    # over 800 / ln 10); it publishes "Logistic (exact) -0.53772", "Logistic (alt2) -0.55961" and the bounds
    # "[-2.9444, 2.9444]" for alpha = beta = 0.05.
    counts = numpy.array([13, 37, 50, 25, 3])
    scores = numpy.linspace(0, 1, 5)
    frequencies = counts / counts.sum()
    variance = (frequencies * (scores - (frequencies * scores).sum()) ** 2).sum()
    s1 = 0.5 + 4 / (800 / math.log(10)) * math.sqrt(2 * variance)
    assert s1 == pytest.approx(0.50391, abs=5e-6)
    assert gsprt_llr(counts, 0.5, s1) == pytest.approx(-0.53772, abs=1e-5)
    assert approximate_llr(counts, 0.5, s1) == pytest.approx(-0.55961, abs=1e-5)
    lower, upper = llr_bounds(0.05, 0.05)
    assert (lower, upper) == (pytest.approx(-2.9444, abs=1e-4), pytest.approx(2.9444, abs=1e-4))


def test_the_approximation_is_close_on_a_balanced_sample_and_not_on_a_lopsided_one():
    balanced = [300, 400, 340]
    assert approximate_llr(balanced, 0.5, 0.55) == pytest.approx(gsprt_llr(balanced, 0.5, 0.55), rel=0.05)
    lopsided = [0, 1, 30]  # what greedy against random looks like: the approximation is far off
    assert approximate_llr(lopsided, 0.5, 0.55) > 3 * gsprt_llr(lopsided, 0.5, 0.55)


# -- the sequential test ---------------------------------------------------------

SIMULATED_BLOCK = 50
"""Pairs whose LLRs :func:`simulated_decisions` computes at once: most runs decide within a few blocks."""


def simulated_decisions(advantage: float, equal: float, hypotheses: Hypotheses, runs: int, pairs: int,
                        seed: int) -> dict[str, float]:
    """The share of each decision over ``runs`` simulated tests of at most
    ``pairs`` pairs, A's net advantage and the share of equal pairs given."""
    generator = numpy.random.default_rng(seed)
    a_better = (1 - equal + advantage) / 2
    cells = generator.choice(3, size=(runs, pairs), p=[1 - equal - a_better, equal, a_better])
    cumulative = numpy.cumsum(numpy.eye(3)[cells], axis=1)
    lower, upper = hypotheses.bounds
    decisions = numpy.full(runs, CONTINUE, dtype=object)
    undecided = numpy.arange(runs)
    for start in range(0, pairs, SIMULATED_BLOCK):  # the LLRs of the runs still undecided, a block of pairs at a time
        llrs = gsprt_llr(cumulative[undecided, start:start + SIMULATED_BLOCK], *hypotheses.scores)
        crossed = (llrs >= upper) | (llrs <= lower)
        decided = crossed.any(axis=1)
        first = llrs[decided, crossed[decided].argmax(axis=1)]
        decisions[undecided[decided]] = numpy.where(first >= upper, H1, H0)
        undecided = undecided[~decided]
    return {decision: numpy.count_nonzero(decisions == decision) / runs for decision in (H0, H1, CONTINUE)}


def test_simulated_error_rates_stay_near_alpha_and_beta():
    hypotheses = Hypotheses(0, 10, alpha=0.05, beta=0.05)
    # 300 runs: a rate of 0.05 is measured within about 0.013; the bounds allow three of those.
    at_h0 = simulated_decisions(0.0, 0.3, hypotheses, runs=300, pairs=800, seed=1)
    assert at_h0[H1] <= 0.09 and at_h0[H0] > 0.8  # the rest undecided after 800 pairs
    at_h1 = simulated_decisions(0.10, 0.3, hypotheses, runs=300, pairs=800, seed=2)
    assert at_h1[H0] <= 0.09 and at_h1[H1] > 0.8
    well_above = simulated_decisions(0.25, 0.3, hypotheses, runs=100, pairs=400, seed=3)
    assert well_above[H1] >= 0.98


def test_sequential_test_stops_at_the_first_crossing_and_resumes_alike():
    hypotheses = Hypotheses(0, 10)
    results = numpy.array([1] * 40 + [-1] * 40)
    state = sequential_test(results, hypotheses)
    assert state.decision == H1 and state.pairs == 31  # log(19) / log(1.1): the 31st pair crosses
    assert state.counts == PairCounts(0, 0, 31)
    assert sequential_test(results, hypotheses, start=20) == state  # the first 20 pairs already tested
    undecided = sequential_test(results[:30], hypotheses)
    assert undecided.decision == CONTINUE and undecided.pairs == 30 and undecided.lower < undecided.llr < undecided.upper


def test_hypotheses_are_checked():
    with pytest.raises(ValueError, match="H0 < H1"):
        Hypotheses(10, 10)
    with pytest.raises(ValueError, match="error rates"):
        Hypotheses(0, 10, alpha=0.6, beta=0.5)


def test_pair_results_by_outcome_then_score():
    results = pair_results(["win", "timeout", "loss", "win", "loss"], [500, -300, -400, 510, -520],
                           ["loss", "loss", "loss", "win", "loss"], [-500, -600, -450, 510, -500], BY_RESULT)
    assert results.tolist() == [1, 1, 1, 0, -1]


def test_pair_results_by_win_measure_the_win_rate_difference():
    generator = numpy.random.default_rng(5)
    outcomes = numpy.array(["win", "loss", "timeout"])
    a, b = outcomes[generator.integers(0, 3, 500)], outcomes[generator.integers(0, 3, 500)]
    results = pair_results(a, numpy.zeros(500), b, numpy.zeros(500), BY_WIN)
    assert results.mean() == pytest.approx((a == "win").mean() - (b == "win").mean())
    assert set(results.tolist()) == {-1, 0, 1}


# -- the command -------------------------------------------------------------------

TINY = ["-l", "tinyGhostMaze", "-j", "1"]


def compare(capsys, *arguments) -> tuple[int, str, str]:
    status = main(["compare", *arguments])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def decision_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith(("pairs ", "H0 accepted", "H1 accepted"))]


def test_greedy_beats_random_and_a_rerun_decides_from_the_store(tmp_path, capsys):
    store = tmp_path / "c.sqlite"
    status, out, _ = compare(capsys, "greedy", "random", *TINY, "--store", str(store), "--batch", "8")
    assert status == 0
    assert "H0: P(A better) - P(B better) <= 0 points; H1: >= 10 points" in out
    assert "H1 accepted: >= 10 points, at pair" in out
    assert len(decision_lines(out)) >= 3  # a line per batch as the games come in, then the decision
    assert "exact McNemar" in out
    with sqlite3.connect(store) as connection:
        stored = connection.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    status, again, _ = compare(capsys, "greedy", "random", *TINY, "--store", str(store), "--batch", "8")
    assert status == 0 and "already in" in again
    assert decision_lines(again)[-1] == decision_lines(out)[-1]
    with sqlite3.connect(store) as connection:
        assert connection.execute("SELECT COUNT(*) FROM games").fetchone()[0] == stored  # nothing played again


def test_an_interrupted_comparison_resumes_to_the_same_decision(tmp_path, capsys):
    """Only whole pairs count, in game index order: a store left with
    half-played pairs (an interrupted batch) resumes to the decision of a run
    that was never interrupted, whatever the batches."""
    whole = tmp_path / "whole.sqlite"
    _, out, _ = compare(capsys, "greedy", "random", *TINY, "--store", str(whole), "--batch", "3")
    broken = tmp_path / "broken.sqlite"
    _, partial, _ = compare(capsys, "greedy", "random", *TINY, "--store", str(broken), "--max-pairs", "12")
    assert "no decision after 12 pairs" in partial
    with sqlite3.connect(broken) as connection:  # B's game 5 and A's game 9 were in flight when it stopped
        connection.execute("DELETE FROM games WHERE game_index = 5 AND pacman = 'random'")
        connection.execute("DELETE FROM games WHERE game_index = 9 AND pacman = 'greedy'")
    status, resumed, _ = compare(capsys, "greedy", "random", *TINY, "--store", str(broken), "--batch", "7")
    assert status == 0
    assert "5 pairs already in" in resumed  # pairs 0-4; pairs 6-8 and 10-11 wait for the missing games
    assert decision_lines(resumed)[-1] == decision_lines(out)[-1]
    assert decision_lines(resumed)[-2] == decision_lines(out)[-2]  # the same pair, counts and LLR


@pytest.mark.usefixtures("linux_proc")
@pytest.mark.usefixtures("ctrl_c_delivered")
def test_ctrl_c_stops_the_workers_and_says_how_to_resume(tmp_path, capsys):
    store = tmp_path / "c.sqlite"
    # Two Pacmen close in strength: the test runs long enough to be interrupted.
    arguments = ["compare", "alphabeta:depth=1", "expectimax:depth=1", "-l", "smallClassic", "-j", "2",
                 "--h1", "1", "--store", str(store)]
    process = subprocess.Popen([sys.executable, "-m", "pacsim", *arguments], env={**os.environ, "PYTHONPATH": str(REPOSITORY)},
                               start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_rows(store, 6, lambda: None if process.poll() is None else process.stderr.read())
        workers = pool_workers(process.pid)
        os.killpg(process.pid, signal.SIGINT)  # a terminal's Ctrl-C: the whole foreground group
        _, error = process.communicate(timeout=20)
    finally:
        stop_group(process)
    # 130, or killed by the SIGINT itself after saying so (what a shell reports as 130 too): once in a loaded
    # run the process died by the signal's default action at its exit, after the line below; not yet explained.
    assert process.returncode in (130, -signal.SIGINT), error
    assert error.startswith("pacsim: interrupted: ") and error.endswith(f"resume with: pacsim {' '.join(arguments)}\n")
    assert not any(alive(worker) for worker in workers)
    status, out, _ = compare(capsys, "alphabeta:depth=1", "expectimax:depth=1", "-l", "smallClassic", "-j", "1",
                             "--store", str(store), "--pairs", "8")  # the same pairs: the interrupted run's games count
    assert status == 0 and "pairs 8: A better" in out


def test_fixed_count_reports_the_paired_difference(tmp_path, capsys):
    status, out, _ = compare(capsys, "greedy", "random", *TINY, "--store", str(tmp_path / "c.sqlite"),
                             "--pairs", "12", "--better-by", "win")
    assert status == 0
    assert "better on a pair: a win against no win" in out
    assert "pairs 12: A better" in out
    assert "net advantage of A, P(A better) - P(B better): +" in out and "[95% CI" in out
    assert "LLR" not in out


def test_ghosts_compared_against_one_pacman(tmp_path, capsys):
    status, out, _ = compare(capsys, "random", "directional", "--role", "ghosts", "--pacman", "greedy", *TINY,
                             "--store", str(tmp_path / "c.sqlite"), "--max-pairs", "40")
    assert status == 0
    assert "ghosts against greedy on tinyGhostMaze" in out
    assert "H1 accepted" not in out  # a random ghost does not hold greedy to worse results than a directional one


FAILING_PACMAN = """
from pacsim.agents import Agent


class Broken(Agent):
    def get_action(self, state):
        raise RuntimeError("out of ideas")
"""


def test_a_game_in_error_stops_the_comparison(tmp_path, capsys):
    agent = tmp_path / "broken.py"
    agent.write_text(FAILING_PACMAN)
    status, _, err = compare(capsys, f"{agent}:Broken", "random", *TINY, "--store", str(tmp_path / "c.sqlite"))
    assert status == 2
    assert "game 0 of" in err and "ended in error" in err and "run the same command again" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("arguments", "message"), [
    (["greedy", "greedy"], "A and B are the same agent"),
    (["greedy", "random", "--h0", "10", "--h1", "5"], "H0 < H1"),
    (["random", "directional", "--role", "ghosts", "--ghosts", "random"], "--ghosts names the Pacmen's opponents"),
    (["greedy", "random", "--pacman", "greedy"], "--pacman names the ghosts' opponent"),
    (["greedy", "nosuchagent"], "A/B: unknown Pacman agent 'nosuchagent'"),
    (["greedy", "random", "-l", "nosuch"], "--layout: nosuch: no layout named 'nosuch'"),
    (["greedy", "random", "--max-pairs", "100001"], "--pairs/--max-pairs: must be at most 100,000"),
    (["random", "directional", "--role", "ghosts", "--pacman", "nosuch"], "--pacman: unknown Pacman agent"),
    (["greedy", "random", "--max-pairs", "0"], "--max-pairs 0: must be at least 1"),
])
def test_bad_input_is_one_line(tmp_path, capsys, arguments, message):
    status, _, err = compare(capsys, *TINY, *arguments, "--store", str(tmp_path / "c.sqlite"))
    assert status == 2
    assert message in err and len(err.strip().splitlines()) == 1
