"""``pacsim compare A B``: two Pacmen (or two ghosts) on the same seeds until a sequential test decides.

Game ``i`` of A and game ``i`` of B share their seed: the same maze, start,
opponents and random numbers.  The pairs are tested in the order of their
game index, one at a time (:func:`~pacsim.report.sprt.sequential_test`),
and only a prefix of pairs whose two games both finished counts: games end
out of order (a caught Pacman's game is short), and a test fed whichever
games finished first would favour the quick outcomes.  So the decision does
not depend on the workers, the batches or an interruption: a resumed
comparison reads its games from the store and reaches the same pair.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy

from pacsim.cli.common import add_debug_option
from pacsim.engine import DEFAULT_MAX_MOVES
from pacsim.engine.starts import DEFAULT_START_DISTANCE, LAYOUT, RANDOM
from pacsim.errors import ConfigError, PacsimError
from pacsim.report.sprt import BETTER_BY, BY_RESULT, BY_WIN, H1, Hypotheses, PairCounts, SprtState, pair_results, sequential_test, with_faults, with_forfeits
from pacsim.runner.execute import RunInterrupted

if TYPE_CHECKING:
    from concurrent.futures import Executor

    import pandas

    from pacsim.runner import Experiment

PACMAN_ROLE, GHOST_ROLE = "pacman", "ghosts"
DEFAULT_MAX_PAIRS = 5000
STORE_COLUMNS = ["config_hash", "condition_key", "condition", "game_index", "seed", "outcome", "score", "error", "fault"]


class ComparisonStopped(PacsimError):
    """A game of the counted pairs ended in ``error`` or ``crash``: a failure
    to fix, not a result (the next run plays it again)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", metavar="A", help="the first agent spec, e.g. alphabeta:depth=2")
    parser.add_argument("b", metavar="B", help="the second agent spec")
    parser.add_argument("--role", choices=(PACMAN_ROLE, GHOST_ROLE), default=PACMAN_ROLE,
                        help="what A and B are: Pacmen facing --ghosts (default) or ghosts facing --pacman")
    parser.add_argument("-g", "--ghosts", default=None, help="the ghosts the Pacmen face (default random)")
    parser.add_argument("-p", "--pacman", default=None, help="with --role ghosts, the Pacman the ghosts face (default greedy)")
    parser.add_argument("-l", "--layout", default="smallClassic", help="the maze (default smallClassic)")
    parser.add_argument("-k", "--num-ghosts", type=int, default=None, help="ghosts to use (default: every ghost in the layout)")
    parser.add_argument("--starts", choices=(RANDOM, LAYOUT), default=RANDOM,
                        help="Pacman's start: a random empty cell drawn from each seed (default) or the layout's P")
    parser.add_argument("--start-distance", type=int, default=DEFAULT_START_DISTANCE, metavar="STEPS",
                        help=f"with random starts, the fewest maze steps from every ghost (default {DEFAULT_START_DISTANCE})")
    parser.add_argument("--max-moves", type=int, default=DEFAULT_MAX_MOVES, help=f"Pacman moves before a timeout (default {DEFAULT_MAX_MOVES})")
    parser.add_argument("--time-limit", type=float, default=0.0, help="seconds a move (0, the default: none); over it a game ends in error")
    parser.add_argument("--seed", type=int, default=0, help="root seed of the pairs' seeds (default 0)")
    parser.add_argument("--store", default="results/compare.sqlite", help="results store (default results/compare.sqlite)")
    parser.add_argument("--better-by", choices=BETTER_BY, default=BY_RESULT,
                        help="which game of a pair is better: the better outcome (win, timeout, loss), then the higher "
                             "score (result, the default); or a win against no win (win: the hypotheses are then "
                             "about win rates)")
    parser.add_argument("--h0", type=float, default=0.0, metavar="POINTS",
                        help="H0: A's net advantage, P(A better) - P(B better) on a pair, is at most POINTS percent (default 0)")
    parser.add_argument("--h1", type=float, default=10.0, metavar="POINTS",
                        help="H1: it is at least POINTS percent (default 10)")
    parser.add_argument("--alpha", type=float, default=0.05, help="chance of accepting H1 when H0 holds (default 0.05)")
    parser.add_argument("--beta", type=float, default=0.05, help="chance of accepting H0 when H1 holds (default 0.05)")
    parser.add_argument("--max-pairs", type=int, default=DEFAULT_MAX_PAIRS,
                        help=f"stop undecided after this many pairs (default {DEFAULT_MAX_PAIRS:,})")
    parser.add_argument("--pairs", type=int, default=None, metavar="N",
                        help="no sequential test: play N pairs and report the paired difference with its interval")
    parser.add_argument("-j", "--workers", type=int, default=None, help="worker processes (default: all cores; 1 plays in this process)")
    parser.add_argument("--sandbox", action="store_true",
                        help="play each plugin agent in its own sandboxed process, under the default limits (docs/sandbox.md)")
    parser.add_argument("--batch", type=int, default=None, metavar="PAIRS",
                        help="pairs played between two looks at the test (default: 2 per worker, or an eighth of the pairs "
                             "counted when more); the decision does not depend on it")
    add_debug_option(parser)


@dataclass
class _Comparison:
    """What the command compares, as an experiment of two conditions."""

    experiment: Experiment
    keys: tuple[str, str]
    """The condition keys of A and B."""
    labels: tuple[str, str]
    ghosts_compared: bool
    better_by: str


@dataclass
class CompletedPairs:
    """The pairs that count: game indexes ``0 .. len(results) - 1``, both games finished."""

    results: numpy.ndarray
    """Each pair's result for A (-1, 0, 1), in game index order."""
    indexes: numpy.ndarray
    """The game index of each."""
    frame: pandas.DataFrame | None
    """The two conditions' rows of those pairs (None before the store exists)."""
    failure: str | None
    """What stops the prefix, if it is a game that ended in error or crashed."""


def run(args: argparse.Namespace) -> int:
    hypotheses = _hypotheses(args)
    limit = _check_counts(args)
    comparison = _comparison(args, limit)
    print(_header(comparison, hypotheses, fixed=args.pairs is not None), flush=True)
    for note in _backend_notes(comparison.experiment):
        print(note, file=sys.stderr)
    workers = args.workers or os.cpu_count() or 1
    try:
        with _executor(workers) as executor:
            if args.pairs is not None:
                _play(comparison, args.pairs, executor, workers, quiet=False)
                _report_fixed(comparison, completed_pairs(comparison, args.pairs))
            else:
                _run_sequential(comparison, hypotheses, limit, executor, workers, args.batch)
    except KeyboardInterrupt:  # in a batch or between two: either way the command resumes
        raise _interrupted(comparison, limit) from None
    return 0


def _interrupted(comparison: _Comparison, limit: int) -> RunInterrupted:
    """What a Ctrl-C says: the comparison's games in the store, of the most it may play."""
    from pacsim.runner.store import finished_games

    stored = finished_games(comparison.experiment.store, comparison.experiment.config_hash)
    saved = sum(key in comparison.keys and index < limit for key, index in stored)
    return RunInterrupted(comparison.experiment.store, saved, 2 * limit)


def _hypotheses(args: argparse.Namespace) -> Hypotheses:
    try:
        return Hypotheses(args.h0, args.h1, args.alpha, args.beta)
    except ValueError as error:
        raise ConfigError(f"--h0/--h1/--alpha/--beta: {error}") from None


def _check_counts(args: argparse.Namespace) -> int:
    """The most pairs this run may play (checked like the experiment's ``games``)."""
    for flag, value in (("--workers", args.workers), ("--batch", args.batch), ("--pairs", args.pairs),
                        ("--max-pairs", args.max_pairs)):
        if value is not None and value < 1:
            raise ConfigError(f"{flag} {value}: must be at least 1")
    if args.a == args.b:
        raise ConfigError(f"A and B are the same agent ({args.a!r}): every pair would be equal")
    return args.pairs if args.pairs is not None else args.max_pairs


def _comparison(args: argparse.Namespace, limit: int) -> _Comparison:
    from pacsim.runner import build_experiment

    ghosts_compared = args.role == GHOST_ROLE
    if ghosts_compared and args.ghosts is not None:
        raise ConfigError("--ghosts names the Pacmen's opponents; with --role ghosts, A and B are the ghosts (--pacman names their Pacman)")
    if not ghosts_compared and args.pacman is not None:
        raise ConfigError("--pacman names the ghosts' opponent; it goes with --role ghosts")
    grid: dict[str, list] = {"pacman": [args.pacman or "greedy"], "ghosts": [args.a, args.b], "layout": [args.layout]}
    if not ghosts_compared:
        grid.update(pacman=[args.a, args.b], ghosts=[args.ghosts or "random"])
    if args.num_ghosts is not None:
        grid["num_ghosts"] = [args.num_ghosts]
    raw = {"name": "compare", "games": limit, "seed": args.seed, "max_moves": args.max_moves,
           "time_limit": args.time_limit, "starts": args.starts, "start_distance": args.start_distance,
           "store": args.store, "grid": grid, **({"sandbox": True} if args.sandbox else {})}
    try:
        experiment = build_experiment(raw, source=SOURCE)
    except ConfigError as error:
        raise ConfigError(_in_flags(str(error), ghosts_compared)) from None
    first, second = experiment.conditions[0], experiment.conditions[1]  # grid order: A, then B
    return _Comparison(experiment, (first.key, second.key), (first.label, second.label), ghosts_compared, args.better_by)


SOURCE = "pacsim compare"
"""How the experiment's own messages name it (``pacsim compare: grid.layout: ...``)."""


def _in_flags(message: str, ghosts_compared: bool) -> str:
    """An experiment's message with its key put as the option the user typed (``--layout: ...``)."""
    flags = {"grid.pacman": "--pacman" if ghosts_compared else "A/B", "grid.ghosts": "A/B" if ghosts_compared else "--ghosts",
             "grid.layout": "--layout", "grid.num_ghosts": "--num-ghosts", "start_distance": "--start-distance",
             "max_moves": "--max-moves", "time_limit": "--time-limit", "seed": "--seed", "games": "--pairs/--max-pairs"}
    key, colon, rest = message.removeprefix(f"{SOURCE}: ").partition(": ")
    return f"{flags[key]}: {rest}" if colon and key in flags else message


def _header(comparison: _Comparison, hypotheses: Hypotheses, fixed: bool) -> str:
    condition = comparison.experiment.conditions[0]
    a, b = comparison.labels
    if comparison.ghosts_compared:
        setting = f"ghosts against {condition.pacman_spec()} on {condition.layout}"
        better = ("the worse outcome for Pacman (loss, timeout, win; a ghost's fault worst of all, Pacman's its win by "
                  "forfeit), then his lower score")
        if comparison.better_by == BY_WIN:
            better = "Pacman not winning against Pacman winning"
    else:
        setting = f"Pacmen against {condition.ghosts} ghosts on {condition.layout}"
        better = ("the better outcome (win, timeout, loss; a fault worst of all, the ghosts' a win by forfeit), "
                  "then the higher score")
        if comparison.better_by == BY_WIN:
            better = "a win against no win"
    lines = [f"A = {a}", f"B = {b}",
             f"{setting}, {comparison.experiment.starts} starts; a pair is A's and B's game on one seed",
             f"better on a pair: {better}"]
    if fixed:
        return "\n".join(lines)
    low, high = hypotheses.bounds
    measure = ("A's win rate minus B's" if comparison.better_by == BY_WIN and not comparison.ghosts_compared
               else "P(A better) - P(B better)")
    lines.append(f"H0: {measure} <= {hypotheses.low:g} points; H1: >= {hypotheses.high:g} points "
                 f"(alpha {hypotheses.alpha:g}, beta {hypotheses.beta:g}; LLR bounds [{low:.2f}, {high:.2f}])")
    return "\n".join(lines)


def _backend_notes(experiment: Experiment) -> list[str]:
    from pacsim.runner.execute import backend_notes

    return backend_notes(experiment)


@contextmanager
def _executor(workers: int) -> Iterator[Executor]:
    """One executor for every batch (a pool is not started again for each);
    its workers are stopped when the comparison ends, however it ends."""
    from pacsim.runner.execute import InlineExecutor, start_worker
    from pacsim.runner.pool import WorkerPool

    if workers == 1:
        yield InlineExecutor()
        return
    pool = WorkerPool(workers, initializer=start_worker)
    completed = False
    try:
        yield pool
        completed = True
    finally:
        if not completed:  # an error or a Ctrl-C: the games in flight are not waited for
            pool.terminate()
        pool.shutdown(wait=True, cancel_futures=True)


def _play(comparison: _Comparison, pairs: int, executor: Executor, workers: int, quiet: bool) -> None:
    """Play the first ``pairs`` pairs (those already stored are kept)."""
    from pacsim.runner import run_experiment

    experiment = comparison.experiment
    experiment.games = pairs
    experiment.config["games"] = pairs
    run_experiment(experiment, executor=executor, workers=workers, quiet=quiet)


def completed_pairs(comparison: _Comparison, limit: int) -> CompletedPairs:
    """The longest prefix of game indexes below ``limit`` whose two games are
    stored with a result, read from the comparison's store."""
    from pacsim.runner.row import REPLAYED_OUTCOMES
    from pacsim.runner.store import load_results

    experiment = comparison.experiment
    frame = load_results(experiment.store, columns=STORE_COLUMNS) if experiment.store.is_file() else None
    if frame is None or frame.empty:
        return CompletedPairs(numpy.zeros(0, dtype=numpy.int64), numpy.zeros(0, dtype=numpy.int64), frame, None)
    frame = frame[(frame["config_hash"] == experiment.config_hash) & frame["condition_key"].isin(comparison.keys)
                  & (frame["game_index"] < limit)]
    sides = [frame[frame["condition_key"] == key].set_index("game_index").reindex(range(limit)) for key in comparison.keys]
    finished = [side["outcome"].notna() & ~side["outcome"].isin(REPLAYED_OUTCOMES) for side in sides]
    complete = (finished[0] & finished[1]).to_numpy()
    count = int(numpy.argmin(complete)) if not complete.all() else limit
    failure = _failure(comparison, sides, count) if count < limit else None
    a, b = (side.iloc[:count] for side in sides)
    results = pair_results(a["outcome"], a["score"], b["outcome"], b["score"], comparison.better_by)
    if comparison.ghosts_compared:  # what is better for Pacman is worse for his ghosts
        results = -results
    (own_a, forfeit_a), (own_b, forfeit_b) = (_faults(side, comparison.ghosts_compared) for side in (a, b))
    same_outcome = a["outcome"].to_numpy() == b["outcome"].to_numpy()
    results = with_faults(with_forfeits(results, same_outcome, forfeit_a, forfeit_b), own_a, own_b)
    return CompletedPairs(results, numpy.arange(count), frame[frame["game_index"] < count], failure)


def _faults(side: pandas.DataFrame, ghosts_compared: bool) -> tuple[numpy.ndarray, numpy.ndarray]:
    """Per game, whether the compared entrant faulted, and whether its opponent did (a forfeit: the
    entrant's win as the rules recorded it)."""
    from pacsim.runner.row import BOTH_SIDES, GHOST_SIDE, PACMAN_SIDE, fault_of

    own = GHOST_SIDE if ghosts_compared else PACMAN_SIDE
    sides = [(fault_of(outcome, error, fault) or (None, None))[0]
             for outcome, error, fault in zip(side["outcome"], side["error"], side["fault"])]
    return (numpy.array([found in (own, BOTH_SIDES) for found in sides], dtype=bool),
            numpy.array([found not in (own, BOTH_SIDES, None) for found in sides], dtype=bool))


def _failure(comparison: _Comparison, sides: list[pandas.DataFrame], index: int) -> str | None:
    from pacsim.runner.row import REPLAYED_OUTCOMES

    for label, side in zip(comparison.labels, sides):
        outcome = side["outcome"].iloc[index]
        if outcome in REPLAYED_OUTCOMES:
            error = str(side["error"].iloc[index] or "").strip().splitlines()
            return f"game {index} of {label} ended in {outcome}: {error[0] if error else '(no message)'}"
    return None


GROWTH = 8
"""Without ``--batch``, a batch is at least the pairs counted so far over this:
each look costs a read of the store and a planning pass (half a second at
2,000 pairs), and a test that decides late plays at most an eighth more."""


def _batch(asked: int | None, workers: int, tested: int) -> int:
    """The pairs to play before the next look at the test."""
    return asked if asked is not None else max(2 * workers, tested // GROWTH)


def _run_sequential(comparison: _Comparison, hypotheses: Hypotheses, limit: int, executor: Executor,
                    workers: int, batch: int | None) -> None:
    tested = 0  # pairs tested without a decision
    pairs = completed_pairs(comparison, limit)
    if len(pairs.results):
        print(f"{len(pairs.results)} pairs already in {comparison.experiment.store}", flush=True)
    while True:
        if len(pairs.results) > tested:
            state = sequential_test(pairs.results, hypotheses, start=tested)
            print(_state_line(state), flush=True)
            if state.decision:
                _report_decision(comparison, hypotheses, state, pairs)
                return
            tested = state.pairs
        if tested >= limit:
            _report_undecided(comparison, pairs)
            return
        if pairs.failure is not None:
            raise ComparisonStopped(f"{pairs.failure}; the test counts pairs whose two games both finished: "
                                    "fix the agent and run the same command again (such games are played again)")
        _play(comparison, min(limit, tested + _batch(batch, workers, tested)), executor, workers, quiet=True)
        pairs = completed_pairs(comparison, limit)


def _state_line(state: SprtState) -> str:
    counts = state.counts
    return (f"pairs {counts.pairs:5d}: A better {counts.a_better:5d}, equal {counts.equal:5d}, B better {counts.b_better:5d}"
            f"   LLR {state.llr:6.2f} [{state.lower:.2f}, {state.upper:.2f}]")


def _report_decision(comparison: _Comparison, hypotheses: Hypotheses, state: SprtState, pairs: CompletedPairs) -> None:
    accepted = f"H1 accepted: >= {hypotheses.high:g} points" if state.decision == H1 else f"H0 accepted: <= {hypotheses.low:g} points"
    print(f"{accepted}, at pair {state.pairs} (net advantage of A on these pairs {_net(state.counts):+.1f} points, "
          "an estimate biased towards the decision: --pairs N estimates without it)")
    later = len(pairs.results) - state.pairs
    if later:
        print(f"{later} more finished pair{'s are' if later > 1 else ' is'} not counted: the test stopped at pair {state.pairs}")
    _print_comparison(comparison, pairs, state.pairs)


def _report_undecided(comparison: _Comparison, pairs: CompletedPairs) -> None:
    print(f"no decision after {len(pairs.results)} pairs (--max-pairs); the estimate with its interval:")
    _print_estimate(pairs.results)
    _print_comparison(comparison, pairs, len(pairs.results))


def _report_fixed(comparison: _Comparison, pairs: CompletedPairs) -> None:
    if pairs.failure is not None:
        raise ComparisonStopped(f"{pairs.failure}; the comparison counts pairs whose two games both finished: "
                                "fix the agent and run the same command again (such games are played again)")
    counts = PairCounts.of(pairs.results)
    print(f"pairs {counts.pairs}: A better {counts.a_better}, equal {counts.equal}, B better {counts.b_better}")
    _print_estimate(pairs.results)
    _print_comparison(comparison, pairs, counts.pairs)


def _net(counts: PairCounts) -> float:
    return 100 * (counts.a_better - counts.b_better) / counts.pairs if counts.pairs else float("nan")


def _print_estimate(results: numpy.ndarray) -> None:
    from pacsim.report.stats import mean_interval

    mean, low, high = (100 * value for value in mean_interval(results.astype(float).tolist()))
    print(f"net advantage of A, P(A better) - P(B better): {mean:+.1f} points [95% CI {low:+.1f}, {high:+.1f}]")


def _print_comparison(comparison: _Comparison, pairs: CompletedPairs, count: int) -> None:
    """Win rates and scores of the counted pairs, paired (report --compare's text)."""
    from pacsim.report import compare

    if count < 1 or pairs.frame is None:
        return
    frame = pairs.frame[pairs.frame["game_index"].isin(pairs.indexes[:count])]
    print(compare(frame, *comparison.labels).to_text())
