"""The results store: replayable rows, export, empty and foreign files."""

import dataclasses
import os
import re
import shutil
import sqlite3
import subprocess

import pandas
import pytest
from optional import missing

from pacsim.cli import main
from pacsim.engine.recording import decode_actions, encode_actions
from pacsim.engine.streams import STRING_STREAMS, Streams
from pacsim.errors import PacsimError, ReplayError, StoreError
from pacsim.runner import load_experiment, load_results, load_saved_game, run_experiment
from pacsim.runner.store import ResultStore, load_runs


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


def test_a_finished_run_and_its_report_leave_the_store_one_file(store, capsys):
    """No -wal or -shm beside the store once the run has closed it, nor after a report read it."""
    def beside():
        return sorted(path.name for path in store.parent.iterdir() if path.name.startswith(store.name + "-"))

    assert beside() == []
    assert main(["report", str(store), "-q"]) == 0 and len(load_results(store)) == 6
    assert beside() == []
    capsys.readouterr()


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


def test_a_report_reads_its_columns_and_each_games_line_of_play_not_the_replay_logs(store):
    from pacsim.engine.recording import line_of_play
    from pacsim.report.summary import REPORT_READS, lines_of_play

    everything = load_results(store)
    read = load_results(store, columns=[*REPORT_READS, "pacman", "not_a_column"])
    assert "actions" not in read and "start" not in read and "hostname" not in read and "started_at" not in read
    assert set(read.columns) == {"id", *REPORT_READS, "pacman", "eval"}  # eval: from options
    assert read["id"].tolist() == everything["id"].tolist() and read["score"].tolist() == everything["score"].tolist()
    assert read["line"].tolist() == [line_of_play(log, ghosts, None if pandas.isna(start) else int(start))
                                     for log, ghosts, start in zip(everything["actions"], everything["num_ghosts"], everything["start"])]
    assert lines_of_play(read) == lines_of_play(everything) >= 2


def test_a_report_by_an_unknown_column_lists_every_column_though_it_read_fewer(store, capsys):
    assert main(["report", "--by", "hostnam", str(store)]) == 2
    error = capsys.readouterr().err
    assert "unknown column 'hostnam'" in error and all(f" {name}," in error for name in ("hostname", "actions", "eval"))
    assert main(["report", "--by", "hostname", str(store)]) == 0


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


def test_a_game_played_again_is_not_stored_twice(store):
    from pacsim.runner.execute import plan_tasks, play_task

    task = next(plan_tasks(load_experiment(store.parent / "exp.toml")))
    before = load_results(store)
    with ResultStore(store) as writer:
        assert writer.add_games([play_task(task)]) == 0
    assert load_results(store).equals(before)


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


# -- provenance and older stores ------------------------------------------------

def test_rows_record_where_and_with_what_code_they_were_played(store):
    from pacsim.provenance import PACSIM_FOLDER, Machine, RunProvenance, git_commit

    results = load_results(store)
    machine, run = Machine.here(), RunProvenance.here()
    for column in ("hostname", "os", "arch", "cores", "python_version"):
        assert set(results[column]) == {getattr(machine, column)}
    assert set(results["numba_version"].fillna("none")) == {machine.numba_version or "none"}
    assert set(results["git_commit"].fillna("none")) == {run.git_commit or "none"}
    if (PACSIM_FOLDER.parent / ".git").exists() and shutil.which("git"):  # run from pacsim's own checkout
        assert re.fullmatch(r"[0-9a-f]{40}(-dirty)?", git_commit(PACSIM_FOLDER) or "")
    assert set(results["searched_by"]) <= {"fast", "python"} and results["searched_by"].notna().all()


def test_the_commit_is_none_without_git_or_outside_pacsims_own_checkout(tmp_path, monkeypatch):
    import subprocess

    from pacsim.provenance import PACSIM_FOLDER, git_commit

    if shutil.which("git") is None:
        missing("needs git: apt-get install git")
    package = tmp_path / "checkout" / "src" / "pacsim"  # installed inside someone else's repository
    package.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(tmp_path / "checkout")], check=True)
    assert git_commit(package) is None
    assert git_commit(tmp_path) is None  # no checkout at all
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    assert git_commit(PACSIM_FOLDER) is None  # no git at all


def test_a_game_is_searched_by_fast_python_or_both():
    from pacsim.engine.stats import MoveStats
    from pacsim.errors import AgentError
    from pacsim.runner.execute import searched_by

    fast, python = MoveStats(backend="fast"), MoveStats()
    assert [searched_by(moves) for moves in ([fast, fast], [python], [fast, python, fast], [])] == [
        "fast", "python", "mixed", None]
    with pytest.raises(AgentError, match="backend='numba' must be one of fast, python"):
        MoveStats(backend="numba")


FIRST_GAMES_TABLE = """CREATE TABLE games (id INTEGER PRIMARY KEY, experiment TEXT NOT NULL,
    config_hash TEXT NOT NULL, condition_key TEXT NOT NULL, condition TEXT NOT NULL, pacman TEXT NOT NULL,
    ghosts TEXT NOT NULL, layout TEXT NOT NULL, num_ghosts INTEGER NOT NULL, depth INTEGER, options TEXT NOT NULL,
    game_index INTEGER NOT NULL, seed INTEGER NOT NULL, outcome TEXT NOT NULL, score INTEGER NOT NULL,
    moves INTEGER NOT NULL, seconds REAL NOT NULL, move_seconds_mean REAL, move_seconds_max REAL,
    nodes INTEGER NOT NULL, depth_reached INTEGER, error TEXT, pacsim_version TEXT NOT NULL, machine TEXT NOT NULL,
    started_at TEXT NOT NULL, actions TEXT NOT NULL, UNIQUE (config_hash, condition_key, game_index))"""
"""The games table of the first stores (before start, provenance and levels_reached)."""

PROVENANCE = ["arch", "cores", "python_version", "numba_version", "git_commit", "searched_by"]


def first_store(store, path, games):
    """A copy of ``store`` as the first pacsim stores were, with its first ``games`` games of each condition."""
    path.write_bytes(store.read_bytes())
    with sqlite3.connect(path) as connection:
        connection.execute("ALTER TABLE games RENAME TO later")
        connection.execute(FIRST_GAMES_TABLE)
        connection.execute(
            "INSERT INTO games SELECT id, experiment, config_hash, condition_key, condition, pacman, ghosts, layout, "
            "num_ghosts, depth, options, game_index, seed, outcome, score, moves, seconds, move_seconds_mean, "
            "move_seconds_max, nodes, levels_reached, error, pacsim_version, hostname || ' (' || os || ')', "
            "started_at, actions FROM later WHERE game_index < ?", (games,))
        connection.execute("DROP TABLE later")
    connection.close()
    return path


def test_a_first_store_reads_as_it_was_then_resumes_migrated_without_losing_a_game(store, tmp_path, capsys):
    old = first_store(store, tmp_path / "old.sqlite", games=2)
    before = old.read_bytes()
    now = load_results(store)
    then = load_results(old)
    assert main(["report", str(old)]) == 0 and main(["export", str(old), "--out", str(tmp_path / "old.csv")]) == 0
    assert main(["replay", str(old), "--game", "4", "-q"]) == 0
    assert old.read_bytes() == before  # reading does not migrate
    assert list(pandas.read_csv(tmp_path / "old.csv").columns) == list(now.columns)
    assert list(then.columns) == list(now.columns)
    kept = now[now["game_index"] < 2].reset_index(drop=True)
    newer = PROVENANCE + ["start", "streams"]
    assert then.drop(columns=newer).equals(kept.drop(columns=newer))  # the store's old games were made by hand here
    assert then[newer].isna().all().all()
    assert load_saved_game(old, 4).states()[-1].score == then.set_index("id").loc[4, "score"]
    assert load_saved_game(old, 4).streams == STRING_STREAMS  # stored before streams were versioned

    result = run_experiment(load_experiment(store.parent / "exp.toml", store=old), workers=1)
    assert result.played == 2 and result.skipped == 4  # the stored games kept, the missing ones played
    assert "played with version-1 random streams" in capsys.readouterr().err
    with sqlite3.connect(old) as connection:
        columns = [row[1] for row in connection.execute("PRAGMA table_info(games)")]
    connection.close()
    assert "depth_reached" not in columns and "machine" not in columns and "levels_reached" in columns
    resumed = load_results(old)
    assert len(resumed) == 6 and not resumed.duplicated(["condition_key", "game_index"]).any()
    old_rows = resumed["game_index"] < 2
    assert resumed[old_rows].drop(columns=newer).reset_index(drop=True).equals(then.drop(columns=newer))  # as they were
    assert resumed.loc[old_rows, newer].isna().all().all()
    assert resumed.loc[~old_rows, "searched_by"].notna().all() and resumed.loc[~old_rows, "arch"].notna().all()
    assert (resumed.loc[~old_rows, "streams"] == STRING_STREAMS).all()  # the run goes on with the streams it began with
    untimed = ["id", "seconds", "move_seconds_mean", "move_seconds_max", "started_at", *newer]
    old_streams = dataclasses.replace(load_experiment(store.parent / "exp.toml", store=tmp_path / "v1.sqlite"),
                                      streams=Streams(STRING_STREAMS))
    run_experiment(old_streams, workers=1, quiet=True)  # the whole run as version 1 plays it
    version_one = load_results(tmp_path / "v1.sqlite")
    played = resumed[~old_rows].drop(columns=untimed).reset_index(drop=True)
    assert played.equals(version_one[version_one["game_index"] >= 2].drop(columns=untimed).reset_index(drop=True))
    assert list(played["actions"]) != list(now[now["game_index"] >= 2]["actions"])  # version 2 would have played others


# -- read-only stores ---------------------------------------------------------

@pytest.fixture
def read_only_store(store, tmp_path):
    """A copy of the store (WAL mode, closed) in a folder that cannot be written:
    a read-only tmpfs where this process may mount one (root ignores
    permission bits), else a folder without write permission."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    copy = folder / store.name
    if os.geteuid() != 0:
        shutil.copy(store, copy)
        folder.chmod(0o555)
        try:
            yield copy
        finally:
            folder.chmod(0o755)  # or pytest cannot clean the folder up
        return
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)], capture_output=True).returncode:
        missing("root, and no read-only file system to mount here (mount -t tmpfs refused)")
    try:
        shutil.copy(store, copy)
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        yield copy
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_a_store_in_a_read_only_folder_is_read_and_a_run_on_it_is_refused_as_read_only(store, read_only_store, tmp_path, capsys):
    with sqlite3.connect(store) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    connection.close()
    assert main(["report", str(store)]) == 0
    expected = capsys.readouterr().out
    assert main(["report", str(read_only_store)]) == 0  # the same report, the store's own path aside
    assert capsys.readouterr().out.replace(str(read_only_store), "STORE") == expected.replace(str(store), "STORE")
    assert main(["export", str(read_only_store), "--out", str(tmp_path / "games.csv")]) == 0
    assert main(["replay", "-q", str(read_only_store), "--game", "2"]) == 0
    pandas.testing.assert_frame_equal(load_results(read_only_store), load_results(store))
    assert load_runs(read_only_store).equals(load_runs(store))
    experiment = tmp_path / "more.toml"
    experiment.write_text(f'name = "more"\ngames = 1\nstore = "{read_only_store}"\n[grid]\npacman = ["greedy"]\n'
                          'ghosts = ["random"]\nlayout = ["tinyGhostMaze"]\n', encoding="utf-8")
    capsys.readouterr()
    assert main(["run", "-q", str(experiment)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and f"{read_only_store}: the results store is read-only" in error, error


def test_a_store_sqlite_will_not_write_is_read_only_not_damaged(store, tmp_path):
    copy = tmp_path / "copy.sqlite"
    shutil.copy(store, copy)
    before = copy.read_bytes()
    with ResultStore(copy) as opened:
        opened.connection.execute("PRAGMA query_only = 1")  # what SQLite says of a file it cannot write
        with pytest.raises(StoreError, match=re.escape(f"{copy}: the results store is read-only")):
            opened.register(load_experiment(store.parent / "exp.toml"))
    assert copy.read_bytes() == before
