"""pacsim tournament: entrants, paired games, ratings, leaderboard, resume and changed code."""

import html
import json
import math
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy
import pytest
from optional import needed

from pacsim.agents.registry import GHOST, PACMAN
from pacsim.cli import main
from pacsim.report.leaderboard import build_leaderboard, fault_of
from pacsim.report.ratings import ELO_SCALE, fit, position_wins, rate
from pacsim.runner import load_results
from pacsim.runner.row import TIMING_COLUMNS
from pacsim.runner.tournament import build_tournament, discover, drawn_path

RANDOM_PACMAN = """from pacsim.agents import Agent

class {name}(Agent):
    def get_action(self, state):
        return self.rng.choice(state.legal_actions()){tail}
"""
STILL_PACMAN = """from pacsim.agents import Agent
import pacsim.agents as api

class Helper:
    pass

class Still(api.Agent):
    def get_action(self, state):
        return "Stop" if "Stop" in state.legal_actions() else state.legal_actions()[0]

PACMAN = Still
"""


@pytest.fixture
def students(tmp_path):
    """A folder of student folders: two that play, one whose file has no agent class, one that does not import."""
    folder = tmp_path / "students"
    for name, text in (("alice", RANDOM_PACMAN.format(name="Alice", tail="")), ("bob", STILL_PACMAN),
                       ("carol", "x = 1\n"), ("dave", "import no_such_module_here\n\nclass Dave(Agent):\n    pass\n")):
        (folder / name).mkdir(parents=True)
        (folder / name / "agent.py").write_text(text)
    return folder


def run_tournament(capsys, students, store, *extra):
    status = main(["tournament", "--pacman", str(students), "greedy", "--ghosts", "random", "directional",
                   "--layout", "tinyGhostMaze", "generated:w=7,h=7,food=3,ghosts=1,mazes=2", "--pairs", "2",
                   "--store", str(store), "--no-sandbox", "-j", "1", "-q", *extra])
    return status, capsys.readouterr()


def test_two_entrants_rated_as_worked_by_hand():
    # A beat B 3 times of 4: P(A beats B) = 3/4 is the maximum-likelihood fit, so the gap is ln 3.
    strengths = fit(numpy.array([[0.0, 3.0], [1.0, 0.0]]), prior_games=0)
    assert strengths[0] - strengths[1] == pytest.approx(math.log(3), abs=1e-6)
    # A beat B 2-1, B beat C 2-1, A beat C 4-1: odds 2, 2 and 4 fit exactly, so the gaps are ln 2 and ln 2.
    strengths = fit(numpy.array([[0.0, 2.0, 4.0], [1.0, 0.0, 2.0], [1.0, 1.0, 0.0]]), prior_games=0)
    assert strengths[0] - strengths[1] == pytest.approx(math.log(2), abs=1e-6)
    assert strengths[1] - strengths[2] == pytest.approx(math.log(2), abs=1e-6)
    assert strengths.mean() == pytest.approx(0, abs=1e-9)


def test_ratings_match_a_published_bradley_terry_fit():
    # Agresti (2002), Categorical Data Analysis, p. 448: citations among four statistics journals
    # (Stigler 1994), [i, j] = times journal i was cited by journal j, the cited one "winning".
    # Turner and Firth (2012), J. Statistical Software 48(9), section 2.1, fit them by maximum
    # likelihood with Biometrika at 0: Comm. Statist. -2.9491, JASA -0.4796, JRSS-B 0.2690.
    cited = numpy.array([[714, 730, 498, 221], [33, 425, 68, 17], [320, 813, 1072, 142], [284, 276, 325, 188]], dtype=float)
    numpy.fill_diagonal(cited, 0)  # self-citations say nothing of the abilities
    strengths = fit(cited, prior_games=0)
    assert strengths[1:] - strengths[0] == pytest.approx([-2.9491, -0.4796, 0.2690], abs=1e-4)


def test_position_wins_compare_outcome_then_score_and_skip_missing_games():
    values = numpy.array([[[3, 10], [3, 20], [1, 500], [numpy.nan, numpy.nan]]], dtype=float)
    wins = position_wins(values)[0]
    assert wins[1, 0] == 1 and wins[0, 1] == 0  # same outcome: the higher score wins
    assert wins[0, 2] == 1  # a win beats a loss whatever the scores
    assert wins[:, 3].sum() == 0 and wins[3, :].sum() == 0  # no game there: no comparison
    ties = position_wins(numpy.array([[[2, 5], [2, 5]]], dtype=float))[0]
    assert ties[0, 1] == ties[1, 0] == 0.5


def test_an_unbeaten_entrant_gets_a_finite_rating_and_intervals_hold_it():
    values = numpy.array([[[3, 100], [1, 0]]] * 10, dtype=float)
    ratings = rate(["strong", "weak"], position_wins(values), samples=20)
    assert [rating.entrant for rating in ratings] == ["strong", "weak"]
    assert math.isfinite(ratings[0].rating) and ratings[0].rating > 0
    assert all(rating.low <= rating.rating + 1e-6 and rating.rating <= rating.high + 1e-6 for rating in ratings)
    assert ratings[0].comparisons == 10 and ratings[0].wins == 10


def test_faults_are_charged_to_the_agent_named():
    assert fault_of("win", None) is None
    assert fault_of("crash", "worker died") == ("both", "crash")
    assert fault_of("error", "agent 0 exceeded the 0.1s move time limit") == ("pacman", "time")
    assert fault_of("error", "agent 2 played illegal action 'Up'; legal: []") == ("ghosts", "illegal")
    assert fault_of("error", "agent 0 raised ValueError at a.py:3: no") == ("pacman", "exception")
    assert fault_of("error", "building the agents raised ImportError") == ("both", "exception")
    assert fault_of("memory", "agent 0 used more than 512 MB") == ("pacman", "memory")  # a kind a sandbox adds


def test_entrants_from_folders_files_and_names(students, tmp_path):
    alone = tmp_path / "erin.py"
    alone.write_text(RANDOM_PACMAN.format(name="Erin", tail=""))
    entrants = {entrant.name: entrant for entrant in discover([str(students), str(alone), "greedy"], PACMAN)}
    assert list(entrants) == ["alice", "bob", "carol", "dave", "erin", "greedy"]
    assert entrants["alice"].spec.endswith("alice/agent.py:Alice")  # without snapshots: the file itself
    assert entrants["bob"].spec.endswith("bob/agent.py:Still")  # PACMAN = names it among two classes
    assert "PACMAN = ClassName" in entrants["carol"].error
    assert entrants["greedy"].spec == "greedy" and entrants["greedy"].error is None
    twice = discover(["greedy", "greedy"], PACMAN)
    assert [entrant.name for entrant in twice] == ["greedy", "greedy#2"]


def test_an_entrant_that_cannot_load_is_listed_and_the_others_play(students, tmp_path):
    tournament = build_tournament({"pacman": [str(students)], "layouts": ["tinyGhostMaze"], "pairs": 1,
                                   "store": str(tmp_path / "t.sqlite")}, sandboxed=False)
    refused = {entrant.name: entrant.error for entrant in tournament.refused}
    assert set(refused) == {"carol", "dave"} and "no_such_module_here" in refused["dave"]
    assert sorted(tournament.names(PACMAN).values()) == ["alice", "bob"]
    assert len(tournament.experiment.conditions) == 2  # two Pacmen x one ghost x one maze


def test_a_tournament_sandboxes_its_entrants_by_default(students, tmp_path, capsys):
    store = tmp_path / "s.sqlite"
    status = main(["tournament", "--pacman", str(students / "alice"), str(students / "bob"), "--ghosts", "random",
                   "--layout", "tinyGhostMaze", "--pairs", "1", "--seed", "3", "--store", str(store), "-j", "1", "-q"])
    assert status == 0, capsys.readouterr().err
    rows = load_results(store)
    assert len(rows) == 2 and set(rows["sandbox"]) <= {"bubblewrap", "limits"} and set(rows["sandbox"]) != {""}


def test_tournament_plays_rates_resumes_and_replays_changed_code(students, tmp_path, capsys):
    store = tmp_path / "contest.sqlite"
    page = tmp_path / "board.html"
    status, output = run_tournament(capsys, students, store, "--html", str(page))
    assert status == 0, output.err
    board = output.out
    for name in ("alice", "bob", "greedy"):
        assert f" {name} " in board
    assert "not played: carol" in board and "not played: dave" in board
    assert "Crosstable" in board and "directional" in board and "Head to head" in board
    drawn = json.loads(drawn_path(store).read_text())
    assert len(drawn["mazes"]) == 1 and "seed=" in next(iter(drawn["mazes"].values()))
    first = _rows(store)
    # 3 Pacmen x 2 ghosts x 3 mazes (one shipped, two generated) x 2 pairs
    assert len(first) == 36
    assert first.groupby(["layout", "ghosts", "game_index"])["seed"].nunique().max() == 1  # paired: same seed
    text = page.read_text()
    assert "<table" in text and "alice" in text and "first" in text

    # Killed part-way: the missing games are played again and the store is as a whole run left it.
    with sqlite3.connect(store) as connection:
        connection.execute("DELETE FROM games WHERE id IN (SELECT id FROM games ORDER BY id DESC LIMIT 10)")
    status, output = run_tournament(capsys, students, store)
    assert status == 0
    resumed = _rows(store)
    assert resumed.drop(columns=["id", *TIMING_COLUMNS]).equals(first.drop(columns=["id", *TIMING_COLUMNS]))

    # Alice edits a file of her folder other than her agent's: her games (and only hers) are played again.
    (students / "alice" / "helper.py").write_text("DEPTH = 2\n")
    before = set(zip(first["condition_key"], first["game_index"]))
    main(["tournament", "--pacman", str(students), "greedy", "--ghosts", "random", "directional",
          "--layout", "tinyGhostMaze", "generated:w=7,h=7,food=3,ghosts=1,mazes=2", "--pairs", "2",
          "--store", str(store), "--no-sandbox", "-j", "1"])
    said = capsys.readouterr().out
    assert "played 12 games" in said
    after = _rows(store)
    new = after[[(key, index) not in before for key, index in zip(after["condition_key"], after["game_index"])]]
    assert len(new) == 12 and set(new["pacman"].str.rsplit("/", n=2).str[-2].str.rpartition("-")[0]) == {"alice"}


def _rows(store):
    results = load_results(store)
    return results.sort_values(["condition_key", "game_index"]).reset_index(drop=True)


def test_ratings_do_not_depend_on_the_order_of_the_games(students, tmp_path, capsys):
    store = tmp_path / "order.sqlite"
    status, _ = run_tournament(capsys, students, store, "--seed", "7")
    assert status == 0
    tournament = build_tournament({"pacman": [str(students), "greedy"], "ghosts": ["random", "directional"],
                                   "layouts": ["tinyGhostMaze", "generated:w=7,h=7,food=3,ghosts=1,mazes=2"],
                                   "pairs": 2, "store": str(store), "seed": 7}, sandboxed=False)
    results = tournament.experiment.own_games(load_results(store))
    names = tournament.names(PACMAN), tournament.names(GHOST)
    board = build_leaderboard(results, *names)
    shuffled = build_leaderboard(results.sample(frac=1, random_state=3), *names)
    assert [standing.rating for standing in board.pacmen] == [standing.rating for standing in shuffled.pacmen]
    assert [standing.rating for standing in board.ghosts] == [standing.rating for standing in shuffled.ghosts]
    assert board.positions == 2 * 3 * 2
    assert all(abs(standing.rating.rating) < 10 * ELO_SCALE for standing in board.pacmen)


def test_the_dask_executor_plays_the_same_tournament(students, tmp_path, capsys):
    distributed = needed("distributed", "pip install -e '.[dask]'")
    common = ["tournament", "--pacman", str(students / "alice"), str(students / "bob"), "greedy",
              "--layout", "tinyGhostMaze", "--pairs", "2", "--seed", "3", "--no-sandbox", "-q"]
    assert main([*common, "--store", str(tmp_path / "local.sqlite"), "-j", "1"]) == 0
    same_draws(tmp_path / "local.sqlite", tmp_path / "dask.sqlite")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        assert main([*common, "--store", str(tmp_path / "dask.sqlite"), "--executor", "dask",
                     "--scheduler", cluster.scheduler_address]) == 0
    boards = capsys.readouterr().out.split("Pacmen (")
    assert len(boards) == 3 and boards[1] == boards[2]  # the same games give the same board
    # Each store has its own snapshots of the folder entrants: compare the games, not the paths.
    played = ["ghosts", "layout", "game_index", "seed", "outcome", "score", "moves", "actions", "start"]
    local, remote = (_rows(tmp_path / name) for name in ("local.sqlite", "dask.sqlite"))
    assert local[played].sort_values(played).reset_index(drop=True).equals(
        remote[played].sort_values(played).reset_index(drop=True))


SLOW_PACMAN = """import time
from pacsim.agents import Agent

class Slow(Agent):
    def get_action(self, state):
        time.sleep(0.01)
        return self.rng.choice(state.legal_actions())
"""


def test_a_tournament_killed_with_sigkill_resumes_exactly_and_leaves_no_worker(tmp_path, capsys):
    (tmp_path / "slow.py").write_text(SLOW_PACMAN)
    common = ["tournament", "--pacman", str(tmp_path / "slow.py"), "greedy", "--layout", "tinyGhostMaze",
              "--pairs", "6", "--seed", "11", "--no-sandbox", "-q", "-j", "2"]
    killed = tmp_path / "killed.sqlite"
    root = str(Path(__file__).resolve().parent.parent)
    process = subprocess.Popen([sys.executable, "-m", "pacsim", *common, "--store", str(killed)],
                               env={**os.environ, "PYTHONPATH": root}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (killed.exists() and _stored(killed) >= 2):
        time.sleep(0.05)
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    workers = [int(pid) for pid in children.read_text().split()] if children.exists() else []
    assert workers, "the run's worker processes were not found"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert _stored(killed) < 12, "the run finished before it was killed"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() and "Z" not in _state(pid) for pid in workers):
        time.sleep(0.1)
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists() and "Z" not in _state(pid)]
    assert main([*common, "--store", str(killed)]) == 0
    same_draws(killed, tmp_path / "whole.sqlite")
    assert main([*common, "--store", str(tmp_path / "whole.sqlite")]) == 0
    capsys.readouterr()
    resumed, whole = (_rows(path).drop(columns=["id", *TIMING_COLUMNS]) for path in (killed, tmp_path / "whole.sqlite"))
    assert resumed.equals(whole)


def same_draws(store, other):
    """``other``'s tournament as ``store``'s: the same drawn seeds and secret stream key (the
    games' dice), which a tournament draws afresh for each store even when its root seed is given."""
    drawn_path(other).write_bytes(drawn_path(store).read_bytes())


def _stored(store):
    try:
        with sqlite3.connect(store) as connection:
            return connection.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return 0


def _state(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


def test_a_tournament_file_names_entrants_and_mazes_from_its_folder(students, tmp_path, capsys):
    ghost = tmp_path / "ghosts" / "lurker.py"
    ghost.parent.mkdir()
    ghost.write_text("from pacsim.agents import Agent\n\nclass Base(Agent):\n    pass\n\n"
                     "class Lurker(Agent):\n    def get_action(self, state):\n        return state.legal_actions()[0]\n\n"
                     "GHOST = Lurker\n")
    (tmp_path / "contest.toml").write_text(
        'pacman = ["students/alice", "students/bob"]\nghosts = ["ghosts/lurker.py", "random"]\n'
        'layouts = ["tinyGhostMaze"]\npairs = 2\nseed = 4\nsandbox = false\nstore = "out/contest.sqlite"\n')
    assert main(["tournament", str(tmp_path / "contest.toml"), "-j", "1", "-q"]) == 0
    board = capsys.readouterr().out
    assert "lurker" in board and " alice " in board
    assert len(load_results(tmp_path / "out" / "contest.sqlite")) == 2 * 2 * 2
    (tmp_path / "typo.toml").write_text('pacmen = ["students"]\n')
    assert main(["tournament", str(tmp_path / "typo.toml"), "--no-sandbox"]) == 2
    assert "typo.toml: pacmen: unknown key" in capsys.readouterr().err
    (tmp_path / "pairs.toml").write_text('pacman = ["greedy"]\npairs = "many"\n')
    assert main(["tournament", str(tmp_path / "pairs.toml"), "--no-sandbox"]) == 2
    assert "pairs.toml: pairs: must be a whole number" in capsys.readouterr().err


def test_the_tournament_bench_group_at_toy_size():
    from pacsim.bench.report import Report
    from pacsim.bench.tournament import tournament_speed

    report = Report()
    tournament_speed(report, entrants=2, mazes=1, pairs=2, workers=1)
    figures = {figure.name: figure for figure in report.figures}
    assert figures["whole tournament"].note == "4 games" and figures["games"].value > 0


def test_a_folder_entrant_plays_a_snapshot_named_by_its_folder_and_hashed_over_its_files(students, tmp_path):
    snapshots = tmp_path / "store.sqlite.entrants"
    (alice,) = discover([str(students / "alice")], PACMAN, snapshots)
    path = Path(alice.spec.rpartition(":")[0])
    assert path.parent.parent == snapshots.resolve() and path.name == "agent.py"
    first = path.read_bytes()
    assert first.startswith((students / "alice" / "agent.py").read_bytes())
    (again,) = discover([str(students / "alice")], PACMAN, snapshots)
    assert again.spec == alice.spec and path.read_bytes() == first  # unchanged: the same copy
    (students / "alice" / "notes.txt").write_text("weights, say")
    (changed,) = discover([str(students / "alice")], PACMAN, snapshots)
    assert changed.spec == alice.spec  # the same place: the tournament's configuration stays
    assert path.read_bytes() != first and (path.parent / "notes.txt").read_text() == "weights, say"
    assert [child.name for child in snapshots.iterdir()] == [path.parent.name]  # no temporary left


def test_helper_modules_two_entrants_hold_by_the_same_name_are_pointed_out(students, tmp_path):
    (students / "alice" / "util.py").write_text("SIDE = 'alice'\n")
    (students / "bob" / "util.py").write_text("SIDE = 'bob'\n")
    tournament = build_tournament({"pacman": [str(students)], "layouts": ["tinyGhostMaze"], "pairs": 1,
                                   "store": str(tmp_path / "t.sqlite")}, sandboxed=False)
    (note,) = tournament.notes
    assert note.startswith("alice, bob each have their own util.py")


def test_a_tournament_without_scipy_says_so_before_any_game(students, tmp_path, capsys, monkeypatch):
    """The ratings need the contest extra: said up front, not after every game was played."""
    monkeypatch.setitem(sys.modules, "scipy", None)  # not installed, as find_spec sees it
    store = tmp_path / "t.sqlite"
    status, captured = run_tournament(capsys, students, store)
    assert status == 2 and captured.err.count("\n") == 1 and "pip install 'pacsim[contest]'" in captured.err
    assert not store.exists() and "game" not in captured.out


def test_the_start_says_what_it_does_and_ctrl_c_then_says_nothing_was_saved(students, tmp_path, capsys, monkeypatch):
    """The seconds of sandbox starts before the first game are said; a Ctrl-C in them says what is saved and what to do."""
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("pacsim.runner.tournament.build_tournament", interrupted)
    status = main(["tournament", "--pacman", str(students), "--layout", "tinyGhostMaze", "--store", str(tmp_path / "t.sqlite")])
    err = capsys.readouterr().err.splitlines()
    assert status == 130 and err[0].startswith("pacsim: loading the entrants and building each in its own sandbox")
    assert err[1] == ("pacsim: interrupted: while checking the entrants, before any game: nothing was saved; "
                      "the same command starts again")


IGNORING_INTERRUPTS = """import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)  # as a shell starts a background job: pacsim ... &
os.execv(sys.executable, [sys.executable, "-m", "pacsim", *sys.argv[1:]])
"""


@pytest.mark.parametrize("ignored", [False, True], ids=["foreground", "started ignoring ctrl-c"])
def test_a_ctrl_c_while_the_entrants_are_checked_stops_the_tournament_at_once(students, tmp_path, ignored):
    """A SIGINT sent during the sandboxed checks of the entrants stops the command there with its one line, whether
    or not the process started with SIGINT ignored (a run heard it once its games started: the same signal, the same
    meaning at every step)."""
    for name in ("carol", "dave"):  # two entrants that load
        (students / name / "agent.py").write_text(RANDOM_PACMAN.format(name=name.title(), tail=""))
    arguments = ["tournament", "--pacman", str(students), "--layout", "tinyGhostMaze", "--pairs", "50", "-j", "1",
                 "--allow-weak-sandbox", "--store", str(tmp_path / "t.sqlite")]
    command = [sys.executable, "-c", IGNORING_INTERRUPTS] if ignored else [sys.executable, "-m", "pacsim"]
    process = subprocess.Popen([*command, *arguments], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)})
    try:
        assert process.stderr is not None
        assert process.stderr.readline().startswith("pacsim: loading the entrants")  # printed just before the checks
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130 and time.monotonic() - sent < 5
    assert err.splitlines() == ["pacsim: interrupted: while checking the entrants, before any game: nothing was "
                                "saved; the same command starts again"]
    assert "game" not in out and not (tmp_path / "t.sqlite").exists()


def test_replays_on_the_leaderboard_page_are_titled_with_the_students_names(students, tmp_path, capsys):
    page = tmp_path / "board.html"
    status, _ = run_tournament(capsys, students, tmp_path / "t.sqlite", "--html", str(page))
    headings = re.findall(r": ([^ ,:<]*) vs [a-z]*, seed ", html.unescape(page.read_text(encoding="utf-8")))
    assert status == 0 and {"alice", "bob"} <= set(headings) and not any("agent.py" in name for name in headings)


def test_drawn_mazes_each_have_a_start_at_the_start_distance(tmp_path, monkeypatch):
    """A secret seed range whose mazes include one with no cell to start Pacman on (seed 381 of this spec:
    about one in 300 such mazes) is drawn again, where keeping it refused the whole tournament at random."""
    import pacsim.runner.tournament as tournament_module

    def drawing(*draws):
        drawn = iter(draws)
        monkeypatch.setattr(tournament_module.secrets, "randbelow", lambda bound: next(drawn))

    spec = "generated:w=9,h=7,food=6,ghosts=2,mazes=5"
    settings = {"pacman": ["greedy"], "ghosts": ["random"], "layouts": [spec], "pairs": 1}
    drawing(381 - 2, 10, 20)  # the first range holds seed 381; then the second range, then the root seed
    tournament = build_tournament({**settings, "store": str(tmp_path / "far.sqlite")}, sandboxed=False)
    assert tournament.drawn["mazes"] == {spec: "generated:w=9,h=7,food=6,ghosts=2,seed=10-14"}
    assert tournament.drawn["seed"] == 20
    drawing(381 - 2, 20)
    near = build_tournament({**settings, "start_distance": 2, "store": str(tmp_path / "near.sqlite")}, sandboxed=False)
    assert near.drawn["mazes"] == {spec: "generated:w=9,h=7,food=6,ghosts=2,seed=379-383"}  # 381 has a start 2 away
