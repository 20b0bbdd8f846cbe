"""The results store: replayable rows, export, empty and foreign files."""

import sqlite3

import pandas
import pytest

from pacsim.cli import main
from pacsim.engine.recording import decode_actions, encode_actions
from pacsim.errors import PacsimError, ReplayError
from pacsim.runner import load_experiment, load_results, load_saved_game, run_experiment
from pacsim.runner.store import ResultStore


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    directory = tmp_path_factory.mktemp("store")
    path = directory / "exp.toml"
    path.write_text(f"""
name = "store"
games = 3
seed = 8
max_moves = 50
store = "{directory / 'results.sqlite'}"
[grid]
pacman = ["expectimax"]
ghosts = ["random", "directional:attack=0.9"]
layout = ["pincerMaze"]
depth = [1]
[pacman_options]
eval = "careful"
""", encoding="utf-8")
    return run_experiment(load_experiment(path), workers=1, quiet=True).store


def test_actions_round_trip():
    actions = ["North", "South", "East", "West", "Stop"]
    assert encode_actions(actions) == "NSEWX" and decode_actions("NSEWX") == actions
    assert decode_actions(encode_actions(["North", "Teleport"])) == ["North", "Teleport"]


def test_rows_hold_conditions_and_options(store):
    results = load_results(store)
    assert len(results) == 6 and set(results["depth"]) == {1} and set(results["eval"]) == {"careful"}
    assert set(results["ghosts"]) == {"random", "directional:attack=0.9"}
    assert set(results["outcome"]) <= {"win", "loss", "timeout", "error"}
    assert (results["nodes"] > 0).all() and results["pacsim_version"].notna().all()


def test_every_stored_game_replays_to_its_score(store):
    results = load_results(store)
    for row in results.itertuples():
        saved = load_saved_game(store, row.id)
        assert saved.pacman == "expectimax:depth=1,eval=careful" and saved.seed == row.seed
        assert len(saved.ghosts) == saved.num_ghosts == 2 and saved.ghosts[0] == row.ghosts
        assert saved.states()[-1].score == row.score == saved.score
    with pytest.raises(ReplayError, match=r"no game 99 \(ids 1\.\.6\)"):
        load_saved_game(store, 99)


@pytest.mark.parametrize("style", ["parquet", "csv"])
def test_export_round_trips_rows(store, tmp_path, capsys, style):
    out = tmp_path / f"games.{style}"
    assert main(["export", str(store), "--out", str(out)]) == 0
    assert "wrote 6 games" in capsys.readouterr().out
    exported = pandas.read_parquet(out) if style == "parquet" else pandas.read_csv(out)
    assert len(exported) == 6 and list(exported.columns) == list(load_results(store).columns)


def test_unknown_export_suffix_needs_a_format(store, tmp_path, capsys):
    assert main(["export", str(store), "--out", str(tmp_path / "games.xlsx")]) == 2
    assert "give --format parquet or csv" in capsys.readouterr().err


def test_empty_and_foreign_stores(tmp_path, capsys):
    empty = tmp_path / "empty.sqlite"
    ResultStore(empty).close()
    assert load_results(empty).empty
    assert main(["report", str(empty)]) == 2
    assert "empty.sqlite: no games" in capsys.readouterr().err
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE other (x)")
    with pytest.raises(PacsimError, match="not a pacsim results store"):
        load_results(foreign)
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_text("not sqlite at all " * 100)
    with pytest.raises(PacsimError, match="not a results store"):
        load_results(garbage)


def test_duplicate_rows_are_ignored(store):
    with ResultStore(store) as writer:
        row = load_results(store).iloc[0].to_dict()
        assert writer.add_games([row]) == 0
    assert len(load_results(store)) == 6


def test_results_come_in_grid_order_whatever_order_games_were_stored(store, tmp_path):
    shuffled = tmp_path / "shuffled.sqlite"
    with sqlite3.connect(store) as source, sqlite3.connect(shuffled) as target:
        source.backup(target)
    with sqlite3.connect(shuffled) as connection:
        columns = [row[1] for row in connection.execute("PRAGMA table_info(games)") if row[1] != "id"]
        names = ", ".join(columns)
        connection.execute("CREATE TEMP TABLE stored AS SELECT * FROM games")
        connection.execute("DELETE FROM games")
        # As parallel workers may finish them: last condition first, last game first.
        connection.execute(f"INSERT INTO games ({names}) SELECT {names} FROM stored ORDER BY id DESC")
    in_order = load_results(store)
    results = load_results(shuffled)
    assert list(results["ghosts"]) == ["random"] * 3 + ["directional:attack=0.9"] * 3
    assert list(results["game_index"]) == [0, 1, 2] * 2
    assert results.drop(columns="id").equals(in_order.drop(columns="id"))


def test_a_stored_spec_gains_only_the_options_it_does_not_give():
    from pacsim.agents.registry import parse_spec
    from pacsim.runner.store import _spec

    for name in ("alphabeta:depth=1", "my.py:Cautious:depth=3", "mypkg.mod:Cls"):
        joined = _spec(name, {"depth": 3, "eval": "careful"})
        assert parse_spec(joined).options.keys() >= {"depth", "eval"}
        assert joined.count("depth=") == 1 and joined.startswith(name)
