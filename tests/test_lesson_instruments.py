"""Instruments of randomness (issue 17): random starts, the mixed adversarial
ghost, random ties for search Pacmen.  Each is drawn from the game's seed, so
a game stays a pure function of it and rows do not depend on the backend."""

import random

import pytest

from pacsim.agents.pacman_game import PacmanGame
from pacsim.agents.registry import make_ghost, make_pacman
from pacsim.engine import initial_state, load_layout, parse_layout, play_game
from pacsim.engine.starts import draw_start, start_cells, with_pacman_start
from pacsim.errors import AgentError, ConfigError, LayoutError
from pacsim.runner import InlineExecutor, load_experiment, load_results, run_experiment
from pacsim.runner.row import TIMING_COLUMNS
from pacsim.runner.store import ResultStore, load_saved_game

ROOM = load_layout("openRoom")

RANDOM_STARTS = """
name = "starts"
games = 6
seed = 5
max_moves = 30
starts = "random"
start_distance = 3
store = "{store}"
[grid]
pacman = ["minimax", "expectimax"]
ghosts = ["adversarial"]
layout = ["openRoom"]
depth = [2]
[pacman_options]
eval = "careful"
"""


ALL_INSTRUMENTS = RANDOM_STARTS.replace("depth = [2]", 'depth = [2]\nties = ["random"]').replace(
    "[pacman_options]", "[ghost_options]\np = 0.9\n[pacman_options]")
"""Random starts, random ties and the mixed ghost in one small experiment."""


def experiment_file(tmp_path, text=RANDOM_STARTS):
    path = tmp_path / "exp.toml"
    path.write_text(text.format(store=tmp_path / "results.sqlite"), encoding="utf-8")
    return path


# -- random starts --------------------------------------------------------

def test_start_cells_are_empty_and_far_enough_from_every_ghost():
    cells = start_cells(ROOM, 1, 4)
    ghost_distances = ROOM.distances_from(ROOM.ghost_starts[0])
    assert cells and all(ghost_distances[cell] >= 4 for cell in cells)
    assert not any((ROOM.food | ROOM.capsules) >> cell & 1 for cell in cells)
    nearer = {cell for cell in range(ROOM.num_cells) if ghost_distances[cell] < 4}
    assert nearer and not nearer & set(cells)
    with pytest.raises(LayoutError, match="no empty cell at least 40 steps"):
        draw_start(ROOM, 1, seed=1, min_distance=40)


def test_a_start_is_a_function_of_the_seed_and_moves_only_pacman():
    starts = [draw_start(ROOM, 1, seed, 3) for seed in range(40)]
    assert starts == [draw_start(ROOM, 1, seed, 3) for seed in range(40)]
    assert len(set(starts)) > 5
    moved = with_pacman_start(ROOM, starts[0])
    assert moved.pacman_start == starts[0] and moved.cells == ROOM.cells and moved.food == ROOM.food
    assert moved.name == ROOM.name and parse_layout(moved.text).pacman_start == starts[0]


@pytest.fixture(scope="module")
def random_start_runs(tmp_path_factory):
    """One small experiment with every instrument stored three ways: one
    worker with the kernel, one worker in pure Python, two worker processes."""
    import os

    tmp_path = tmp_path_factory.mktemp("starts")
    path = experiment_file(tmp_path, ALL_INSTRUMENTS)
    stores = {}
    for name, engine, workers in (("fast", "auto", 1), ("python", "python", 1), ("two", "auto", 2)):
        os.environ["PACSIM_BACKEND"] = engine
        try:
            executor = InlineExecutor() if workers == 1 else None
            result = run_experiment(load_experiment(path), executor=executor, workers=workers,
                                    store_path=tmp_path / f"{name}.sqlite", quiet=True)
        finally:
            del os.environ["PACSIM_BACKEND"]
        stores[name] = result.store
    return stores


def comparable(frame):
    """A store's rows without what differs between runs of the same games:
    timing, and ``searched_by`` (the kernel or Python: these runs differ in it on purpose)."""
    frame = frame.drop(columns=["id", "searched_by", *TIMING_COLUMNS])
    return frame.sort_values(["condition_key", "game_index"]).reset_index(drop=True)


def test_rows_record_random_starts_drawn_per_game_from_the_seed(random_start_runs):
    rows = load_results(random_start_runs["fast"])
    assert rows["start"].nunique() > 1
    assert rows.groupby("game_index")["start"].nunique().eq(1).all()  # common random numbers across conditions
    expected = [draw_start(ROOM, 1, seed, 3) for seed in rows["seed"]]
    assert list(rows["start"]) == expected


def test_instrument_rows_are_the_same_with_and_without_the_kernel_and_with_two_workers(random_start_runs):
    fast, python, two = (comparable(load_results(random_start_runs[name])) for name in ("fast", "python", "two"))
    assert fast.equals(python) and fast.equals(two)
    searched_by = {name: set(load_results(random_start_runs[name])["searched_by"].dropna()) for name in ("fast", "python")}
    assert searched_by == {"fast": {"fast"}, "python": {"python"}}


def test_a_stored_random_start_game_replays_as_it_was_played(random_start_runs):
    rows = load_results(random_start_runs["fast"])
    for game_id, start, score in zip(rows["id"], rows["start"], rows["score"]):
        saved = load_saved_game(random_start_runs["fast"], int(game_id))
        states = saved.states()
        assert states[0].pacman == start and states[-1].score == score


def test_starts_from_set_and_errors_in_one_line(tmp_path):
    fixed = RANDOM_STARTS.replace('starts = "random"\n', "")
    path = experiment_file(tmp_path, fixed)
    plain = load_experiment(path)
    assert plain.starts == "layout" and "starts" not in plain.config  # fixed-start hashes stay as they were
    assert load_experiment(path, overrides=["starts=random"]).starts == "random"
    for override, message in (("starts=anywhere", "starts: must be one of 'layout', 'random'"),
                              ("start_distance=40", "start_distance: layout 'openRoom' has no empty cell 40")):
        with pytest.raises(ConfigError, match=message) as caught:
            load_experiment(path, overrides=["starts=random", override])
        assert "\n" not in str(caught.value)


def test_a_store_older_than_the_start_column_gains_it(tmp_path, random_start_runs):
    import shutil
    import sqlite3

    old = tmp_path / "old.sqlite"
    shutil.copy(random_start_runs["fast"], old)
    with sqlite3.connect(old) as connection:
        connection.execute("ALTER TABLE games DROP COLUMN start")
    assert load_results(old)["start"].isna().all()
    assert load_saved_game(old, 1).layout.pacman_start == ROOM.pacman_start  # an old game started on the P
    ResultStore(old).close()
    with sqlite3.connect(old) as connection:
        assert "start" in {row[1] for row in connection.execute("PRAGMA table_info(games)")}


def test_play_starts_random_saves_a_record_that_replays(tmp_path, capsys):
    from pacsim.cli import main

    record = tmp_path / "game.json"
    assert main(["play", "-l", "openRoom", "-p", "greedy", "-q", "--seed", "3", "--starts", "random",
                 "--start-distance", "3", "--record", str(record)]) == 0
    assert main(["replay", str(record), "-q"]) == 0
    assert "matches the recorded score" in capsys.readouterr().out
    from pacsim.engine.recording import load_game

    assert load_game(record).layout.pacman_start == draw_start(ROOM, 1, 3, 3)


# -- the mixed adversarial ghost -----------------------------------------

def ghost_position():
    """The ghost to move in a corridor: toward Pacman (West) or away."""
    corridor = parse_layout("%%%%%%%%%\n%P . G .%\n%%%%%%%%%\n")
    return initial_state(corridor).successor("Stop")


def test_the_mixed_ghost_distribution_is_the_exact_mixture():
    state = ghost_position()
    searched = dict(make_ghost("adversarial").distribution(state))
    legal = state.legal_actions()
    mixed = dict(make_ghost("adversarial:p=0.9").distribution(state))
    assert set(mixed) == set(legal) and sum(mixed.values()) == pytest.approx(1.0)
    for action in legal:
        assert mixed[action] == pytest.approx(0.9 * searched.get(action, 0.0) + 0.1 / len(legal))
    assert dict(make_ghost("adversarial:p=0").distribution(state)) == dict(make_ghost("random").distribution(state))
    assert searched == {"West": 1.0} and legal == ["East", "West"]  # the search prefers: the mixture is not uniform
    with pytest.raises(AgentError, match=r"option p=1\.5 must be a probability"):
        make_ghost("adversarial:p=1.5")


def test_the_mixed_ghost_plays_seeded_games_and_is_an_expectimax_model():
    def game(seed):
        agents = [make_pacman("expectimax:depth=1,eval=careful,model=adversarial:p=0.5"), make_ghost("adversarial:p=0.5")]
        return play_game(ROOM, agents, seed=seed, max_moves=30)

    first = game(4)
    assert first.actions == game(4).actions
    assert len({tuple(game(seed).actions) for seed in range(4)}) > 1
    pacman = make_pacman("expectimax:depth=1,model=adversarial:p=0.5")
    state = ghost_position()
    outcomes = PacmanGame(("chance",), pacman.models_for(1)).outcomes(state)
    model = dict(make_ghost("adversarial:p=0.5").distribution(state))
    assert [probability for probability, _ in outcomes] == [model[action] for action in state.legal_actions()]


# -- random ties -----------------------------------------------------------

def test_random_ties_draw_among_equal_root_values_from_the_seed():
    state = initial_state(ROOM)
    values = make_pacman("minimax:depth=1").action_values(state)
    best = {action for action, value in values if value == max(value for _, value in values)}
    assert len(best) > 1  # the room's start has ties
    pacman = make_pacman("minimax:depth=1,ties=random")
    chosen = set()
    for seed in range(12):
        pacman.reset(0, random.Random(seed))
        chosen.add(pacman.get_action(state))
    assert chosen == best
    first = make_pacman("minimax:depth=1")
    assert first.get_action(state) == next(action for action, value in values if action in best)
    with pytest.raises(AgentError, match="option ties='sometimes'"):
        make_pacman("minimax:ties=sometimes")


def test_random_ties_keep_games_a_function_of_the_seed_with_and_without_the_kernel():
    def game(engine, seed):
        agents = [make_pacman(f"expectimax:depth=2,eval=careful,ties=random,backend={engine}"), make_ghost("adversarial")]
        return play_game(ROOM, agents, seed=seed, max_moves=25).actions

    fast = [game("fast", seed) for seed in range(4)]
    assert fast == [game("python", seed) for seed in range(4)] == [game("fast", seed) for seed in range(4)]
    assert len({tuple(actions) for actions in fast}) > 1


# -- lines of play in reports ---------------------------------------------

def test_lines_of_play_count_distinct_starts_and_pacman_moves_and_flag_repetitions():
    import pandas

    from pacsim.report.summary import lines_of_play, repetition_notes, summarize

    def games(condition, logs, starts):
        return [{"condition": condition, "config_hash": "h", "outcome": "win", "score": 500, "moves": 2,
                 "nodes": 0, "move_seconds_mean": 0.0, "num_ghosts": 1, "actions": log, "start": start}
                for log, start in zip(logs, starts)]

    # The ghost's letters (every second one) differ: still one line of Pacman's.
    repeated = games("same", ["NESW", "NWSE", "NESE"] * 4, [3] * 12)
    varied = games("varied", ["NESW"] * 6 + ["SENW"] * 6, [3, 4] * 6)
    frame = pandas.DataFrame(repeated + varied)
    assert lines_of_play(frame[frame["condition"] == "same"]) == 1
    assert lines_of_play(frame[frame["condition"] == "varied"]) == 4
    notes = repetition_notes(summarize(frame))
    assert notes == ["same: 12 games, 1 line of play (mostly repetitions: its interval counts the same game many times)"]


def test_report_and_reproduce_show_lines_of_play(random_start_runs, capsys):
    from pacsim.cli import main
    from pacsim.report.lesson import Setting, story

    assert main(["report", str(random_start_runs["fast"])]) == 0
    out = capsys.readouterr().out
    assert " lines " in out.splitlines()[0]
    rows = load_results(random_start_runs["fast"])
    table = pandas_concat_as_table(rows)
    text = story(table, Setting(root_seed=5, starts="random starts"))
    assert "lines of play" in text and "1 (the same game 6 times)" in text


def pandas_concat_as_table(rows):
    """The stored games as the four cells of the table: the random-start
    games against 'adversarial' and, repeated from one game, against 'random'."""
    import pandas

    one_game = rows[rows["pacman"] == "minimax"].iloc[[0] * len(rows[rows["pacman"] == "minimax"])]
    randoms = pandas.concat([one_game.assign(game_index=range(len(one_game))),
                             rows[rows["pacman"] == "expectimax"]]).assign(ghosts="random")
    return pandas.concat([rows, randoms], ignore_index=True)


def test_model_true_is_each_conditions_own_ghost(tmp_path):
    text = RANDOM_STARTS.replace('pacman = ["minimax", "expectimax"]', 'pacman = ["expectimax:model=true"]').replace(
        'ghosts = ["adversarial"]', 'ghosts = ["adversarial:p=0.5", "random"]')
    conditions = load_experiment(experiment_file(tmp_path, text)).conditions
    assert [condition.pacman for condition in conditions] == ["expectimax:model=adversarial:p=0.5",
                                                              "expectimax:model=random"]
    assert conditions[0].label.startswith("expectimax:model=true/adversarial:p=0.5/")
    several = text.replace('"adversarial:p=0.5", "random"', '"adversarial:p=0.5,depth=1"')
    with pytest.raises(ConfigError, match="takes a ghost with at most one option"):
        load_experiment(experiment_file(tmp_path, several))


def test_a_moved_start_shares_the_mazes_distances():
    from pacsim.engine import load_layout
    from pacsim.engine.starts import start_cells, with_pacman_start

    layout = load_layout("optimismHalls")
    moved = with_pacman_start(layout, start_cells(layout, 1, 3)[0])
    assert moved.distances_from(0) is layout.distances_from(0)  # computed once for every start
    assert moved.pacman_start != layout.pacman_start and moved.cells == layout.cells


# -- decision starts: an opening book of the cells where the Pacmen part ways --

DECISION_PACMEN = ("minimax:depth=2,eval=careful", "expectimax:depth=2,eval=careful")


@pytest.fixture(scope="module")
def decision_runs(tmp_path_factory):
    """A screened book on openRoom and one small ``decisions`` experiment,
    stored with the kernel and in pure Python."""
    import os

    from pacsim.runner.openings import screen, write_book

    tmp_path = tmp_path_factory.mktemp("decisions")
    book = screen(ROOM, DECISION_PACMEN, "adversarial", start_distance=3, moves=2, seed=5)
    write_book(book, tmp_path / "room.book.json")
    path = experiment_file(tmp_path, RANDOM_STARTS.replace('starts = "random"', 'starts = "decisions"\nbook = "room.book.json"'))
    stores = {}
    for engine in ("auto", "python"):
        os.environ["PACSIM_BACKEND"] = engine
        try:
            stores[engine] = run_experiment(load_experiment(path), executor=InlineExecutor(), workers=1,
                                            store_path=tmp_path / f"{engine}.sqlite", quiet=True).store
        finally:
            del os.environ["PACSIM_BACKEND"]
    return book, path, stores


def test_the_book_keeps_the_cells_where_the_pacmen_part_ways(decision_runs):
    from pacsim.runner.openings import read_book, screen

    book, path, _ = decision_runs
    assert read_book(path.parent / "room.book.json") == book  # written and read back
    assert book.screened == len(start_cells(ROOM, 1, 3)) and 0 < len(book.cells) < book.screened
    assert set(book.cells) <= set(start_cells(ROOM, 1, 3))
    assert screen(ROOM, DECISION_PACMEN, "adversarial", start_distance=3, moves=2, seed=5) == book  # reproducible
    same = screen(ROOM, DECISION_PACMEN[:1] * 2, "adversarial", start_distance=3, moves=2, seed=5)
    assert same.cells == ()  # a Pacman never parts ways with itself
    assert "of " + str(book.screened) + " start cells" in book.disclosure()


def test_decision_starts_are_the_same_games_with_and_without_the_kernel(decision_runs):
    book, _, stores = decision_runs
    fast, python = (load_results(stores[engine]) for engine in ("auto", "python"))
    # The book's cells in turn: every start played by every Pacman, equally often.
    assert list(fast["start"]) == [book.cells[index % len(book.cells)] for index in fast["game_index"]]
    assert fast["start"].nunique() == min(len(book.cells), 6)
    assert comparable(fast).equals(comparable(python))
    assert set(fast["searched_by"].dropna()) == {"fast"} and set(python["searched_by"].dropna()) == {"python"}


def test_a_decisions_experiment_needs_a_matching_book(tmp_path, decision_runs):
    from pacsim.runner.openings import write_book

    book, path, _ = decision_runs
    assert load_experiment(path).config["book"] == list(book.cells)  # the cells are part of the run's identity
    text = path.read_text(encoding="utf-8")
    for replaced, message in (('book = "room.book.json"\n', "needs an opening book file"),
                              ('book = "room.book.json"', 'book = "missing.json"'),
                              ('layout = ["openRoom"]', 'layout = ["tinyGhostMaze"]')):
        broken = tmp_path / "broken.toml"
        broken.write_text(text.replace(*((replaced, "") if "\n" in replaced else (replaced, message))), encoding="utf-8")
        write_book(book, tmp_path / "room.book.json")
        with pytest.raises(ConfigError) as caught:
            load_experiment(broken)
        assert "\n" not in str(caught.value) and "book" in str(caught.value)
