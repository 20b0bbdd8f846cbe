"""pacsim from Python (pacsim.api): arguments checked at the entry point,
the notebook loop (play, run, report) and what each shows."""

import importlib
import json
import subprocess
import sys

import numpy as np
import pytest

import pacsim
import pacsim.api
from pacsim.engine import parse_layout
from pacsim.errors import ConfigError, PacsimError

TINY = "tinyGhostMaze"
GRID = {"pacman": ["greedy", "random"], "ghosts": ["random"], "layout": [TINY]}
CONFIG = {"name": "notebook", "games": 3, "seed": 5, "max_moves": 60, "grid": GRID}
OWN_MAZE = """\
%%%%%%%
%P . .%
% %%% %
%. G .%
%%%%%%%"""


# -- pacsim.play: its arguments ----------------------------------------------------

@pytest.mark.parametrize(("arguments", "message"), [
    ({"pacman": None}, "pacman=None: must be a non-empty string"),
    ({"ghosts": ["random"]}, "ghosts=\\['random'\\]: must be a non-empty string"),
    ({"seed": 1.5}, "seed=1.5: must be an integer, not float"),
    ({"seed": -1}, "seed=-1: must be at least 0"),
    ({"games": 1e7}, "games=10000000.0: must be an integer"),
    ({"games": True}, "games=True: must be an integer, not a bool"),
    ({"games": 10**7}, "at most 1,000; pacsim.run"),
    ({"num_ghosts": 0.5}, "num_ghosts=0.5: must be an integer"),
    ({"max_moves": 0}, "max_moves=0: must be at least 1"),
    ({"move_time_limit": "1"}, "move_time_limit='1': must be a number"),
    ({"layout": 7}, "layout=7: must be a layout name"),
])
def test_play_refuses_a_wrong_type_or_range_in_one_config_error(arguments, message, monkeypatch):
    def no_game(*args, **kwargs):
        raise AssertionError("a game was played: the arguments were not checked first")

    monkeypatch.setattr(pacsim.api, "play_game", no_game)  # games=10**7 would take days
    with pytest.raises(ConfigError, match=message):
        pacsim.play(**{"layout": TINY, **arguments})


def test_numpy_integers_are_integers_and_the_record_saves(tmp_path):
    games = pacsim.play(TINY, games=np.int64(2), seed=np.int64(3), num_ghosts=np.int32(1), max_moves=np.int16(50))
    assert [game.record.seed for game in games] == [3, 4]
    assert all(type(game.record.seed) is int for game in games)
    games[1].save(tmp_path / "game.json")
    assert json.loads((tmp_path / "game.json").read_text())["seed"] == 4
    assert pacsim.load_record(tmp_path / "game.json").score == games[1].score


def test_records_show_their_long_lists_by_length_not_inlined(tmp_path):
    """A game's record and a saved game read back: hundreds of actions are a count in the repr."""
    game = pacsim.play("smallClassic", "greedy", "random", seed=1, max_moves=60)[0]
    record = game.record
    assert len(record.actions) > 100 and f"actions=<{len(record.actions)} items>" in repr(record)
    assert "'East'" not in repr(record) and "outcome=" in repr(record) and len(repr(record)) < 400
    path = tmp_path / "game.json"
    game.save(path)
    saved = pacsim.load_record(path)
    assert f"actions=<{len(saved.actions)} items>" in repr(saved) and "ghosts=['random', 'random']" in repr(saved)


def test_the_default_seed_is_zero_and_none_draws_one_as_the_command_line_does():
    assert [game.record.seed for game in pacsim.play(TINY, games=2)] == [0, 1]
    drawn = {pacsim.play(TINY, seed=None, max_moves=1)[0].record.seed for _ in range(4)}
    assert len(drawn) > 1 and all(0 <= seed < pacsim.api.RANDOM_SEEDS for seed in drawn)


# -- what played games show ------------------------------------------------------------

def test_games_have_a_short_repr_and_a_frame():
    games = pacsim.play(TINY, "greedy", "random", games=3, seed=2)
    text = repr(games)
    assert len(text) < 200 and "3 on tinyGhostMaze" in text and "seeds 2..4" in text
    assert "actions" not in text and "actions" not in repr(games[0]) and "seed 2" in repr(games[0])
    assert repr(pacsim.api.Games()) == "<Games: none>"
    frame = games.to_frame()
    assert frame["seed"].tolist() == [2, 3, 4]
    assert frame["score"].tolist() == [game.score for game in games]
    assert frame["outcome"].tolist() == [game.outcome for game in games]
    assert set(frame["pacman"]) == {"greedy"} and set(frame["layout"]) == {TINY}


def test_a_record_on_the_users_own_maze_file_shows_as_the_player(tmp_path, monkeypatch):
    from pacsim.web.notebook import record_html

    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "mazes"
    folder.mkdir()
    (folder / "ownLoop.lay").write_text(OWN_MAZE)
    record = pacsim.play(str(folder / "ownLoop.lay"), seed=1)[0].record
    assert record.layout == "ownLoop"
    shown = record_html(record)
    assert shown is not None and shown.startswith("<iframe srcdoc=") and "ownLoop" in shown
    (tmp_path / "elsewhere.lay").write_text(OWN_MAZE)  # found by the names rule too: ./NAME.lay
    assert record_html(pacsim.play(parse_layout(OWN_MAZE, name="elsewhere"), seed=1)[0].record) is not None
    nowhere = pacsim.play(parse_layout(OWN_MAZE, name="nowhere"), seed=1)[0].record
    assert record_html(type(nowhere)(**{**vars(nowhere), "layout": "neverPlayed"})) is None


# -- pacsim.run and pacsim.report -------------------------------------------------------

def test_run_a_dict_returns_its_games_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    frame = pacsim.run(CONFIG, workers=1, progress=False)
    assert len(frame) == 2 * 3 and sorted(set(frame["condition"])) == ["greedy/random/tinyGhostMaze",
                                                                         "random/random/tinyGhostMaze"]
    assert sorted(frame["game_index"].unique()) == [0, 1, 2]
    assert list(tmp_path.iterdir()) == []  # a dict without a store plays into a temporary one


def test_run_resumes_into_a_named_store_and_reads_files(tmp_path):
    store = tmp_path / "notebook.sqlite"
    first = pacsim.run(CONFIG, games=2, store=store, workers=1, progress=False)
    more = pacsim.run(CONFIG, games=3, store=store, workers=1, progress=False)
    assert len(first) == 4 and len(more) == 6
    kept = more[more["game_index"] < 2].sort_values(["condition", "game_index"])
    assert kept["started_at"].tolist() == first.sort_values(["condition", "game_index"])["started_at"].tolist()
    experiment = tmp_path / "small.toml"
    experiment.write_text(f'name = "small"\ngames = 1\nmax_moves = 40\nstore = "{tmp_path / "small.sqlite"}"\n'
                          '[grid]\npacman = ["greedy"]\nghosts = ["random"]\nlayout = ["tinyGhostMaze"]\n')
    assert len(pacsim.run(experiment, workers=1, progress=False)) == 1
    assert (tmp_path / "small.sqlite").is_file()  # the file's own store


def test_run_finds_a_shipped_experiment_by_name(tmp_path):
    experiment = pacsim.api._experiment("optimism_pessimism", 2, tmp_path / "op.sqlite")
    assert experiment.name == "optimism_pessimism" and experiment.games == 2
    assert experiment.store == tmp_path / "op.sqlite"


@pytest.mark.parametrize(("call", "message"), [
    ({"config": 42}, "config=42: must be an experiment file"),
    ({"config": CONFIG, "games": 2.0}, "games=2.0: must be an integer"),
    ({"config": CONFIG, "workers": 0}, "workers=0: must be at least 1"),
    ({"config": {**CONFIG, "gmaes": 3}}, "<config>: gmaes: unknown key"),
])
def test_run_refuses_bad_arguments(call, message):
    with pytest.raises(ConfigError, match=message):
        pacsim.run(**call, progress=False)


def test_run_shows_progress_with_tqdm_auto(monkeypatch):
    import tqdm.auto

    totals = []

    class Recorder(tqdm.auto.tqdm):
        def __init__(self, *args, **kwargs):
            totals.append(kwargs["total"])
            super().__init__(*args, **{**kwargs, "disable": True})

    monkeypatch.setattr(tqdm.auto, "tqdm", Recorder)
    pacsim.run({**CONFIG, "games": 1}, workers=1)
    assert totals == [2]


def test_report_prints_text_and_shows_an_html_table(tmp_path):
    store = tmp_path / "notebook.sqlite"
    frame = pacsim.run(CONFIG, store=store, workers=1, progress=False)
    importlib.import_module("pacsim.report.summary")  # the package of that name, imported: pacsim.report still reports

    for shown in (pacsim.report(frame), pacsim.report(store), pacsim.report(str(store))):
        text = str(shown)
        assert "win rate [95% CI]" in text and "greedy/random/tinyGhostMaze" in text and repr(shown) == text
        page = shown._repr_html_()
        assert page.startswith("<table") and "greedy/random/tinyGhostMaze" in page
    assert pacsim.report(frame).summary["games"].tolist() == [3, 3]
    assert pacsim.report(frame, by=["pacman"]).summary["pacman"].tolist() == ["greedy", "random"]
    with pytest.raises(ConfigError, match="a results store's path or a DataFrame"):
        pacsim.report(42)
    with pytest.raises(PacsimError, match="no games"):
        pacsim.report(frame[frame["game_index"] > 10])


def test_import_pacsim_stays_light():
    code = ("import sys, pacsim; pacsim.run; pacsim.play; "
            "assert 'pandas' not in sys.modules and 'tqdm' not in sys.modules, 'heavy'; "
            "assert {'run', 'report', 'play'} <= set(dir(pacsim))")
    subprocess.run([sys.executable, "-c", code], check=True)
