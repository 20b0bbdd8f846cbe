"""Hostile entrants against a tournament's coordinator and its ranking (issue 35).

Each test is one way a student's hand-in could read what it must not, stop
the run, or bend the board: links and special files in a hand-in, oversized
and sparse hand-ins, parser bombs, numbers the store cannot hold, faults
that would rank above honest losses, a compiled function that never returns,
and a tournament quietly played at the weak isolation level.
"""

import dataclasses
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import optional
import pandas
import pytest

from pacsim.agents.registry import PACMAN
from pacsim.cli import main
from pacsim.report.leaderboard import build_leaderboard
from pacsim.runner import load_results
from pacsim.runner.row import GameRow
from pacsim.runner.store import ResultStore
from pacsim.runner.tournament import build_tournament, discover
from pacsim.sandbox import isolation as sandbox
from pacsim.sandbox.handin import HandInLimits

ROOT = str(Path(__file__).resolve().parent.parent)
HONEST = """from pacsim.agents import Agent

class Honest(Agent):
    def get_action(self, state):
        return self.rng.choice(state.legal_actions())
"""
STILL = """from pacsim.agents import Agent

class Still(Agent):
    def get_action(self, state):
        return "Stop" if "Stop" in state.legal_actions() else state.legal_actions()[0]
"""
FAULTERS = {
    "spinner": "while True:\n            pass",
    "crasher": "raise ValueError('no')",
    "sleeper": "import time\n        time.sleep(30)",
    "illegal": "return 'Up'",
}
"""A body of ``get_action`` per way of ending a game by a fault, each before any move (a score of 0)."""


def faulter(body):
    return f"from pacsim.agents import Agent\n\nclass Faulter(Agent):\n    def get_action(self, state):\n        {body}\n"


def hand_in(folder, text=HONEST):
    folder.mkdir(parents=True)
    (folder / "agent.py").write_text(text)
    return folder


# -- what enters a snapshot ----------------------------------------------------

def test_links_and_special_files_never_enter_a_snapshot(tmp_path):
    secret = tmp_path / "instructor" / "key.txt"
    secret.parent.mkdir()
    secret.write_text("the instructor's key")
    other = hand_in(tmp_path / "students" / "bob")
    mallory = hand_in(tmp_path / "students" / "mallory")
    (mallory / "notes.txt").write_text("mine")
    (mallory / "key.txt").symlink_to(secret)
    (mallory / "bob").symlink_to(other)  # a whole folder of another student's
    os.link(secret, mallory / "hard.txt")  # a hard link: its content is the instructor's
    os.mkfifo(mallory / "fifo")
    listening = socket.socket(socket.AF_UNIX)
    listening.bind(str(mallory / "socket"))
    try:
        (entrant,) = discover([str(mallory)], PACMAN, tmp_path / "t.sqlite.entrants")
    finally:
        listening.close()
    assert entrant.error is None
    copy = Path(entrant.spec.rpartition(":")[0]).parent
    assert sorted(path.name for path in copy.rglob("*")) == ["agent.py", "notes.txt"]
    assert not any(path.is_symlink() for path in copy.rglob("*"))
    assert "the instructor's key" not in "".join(path.read_text() for path in copy.rglob("*") if path.is_file())
    left_out = " ".join(entrant.left_out)
    for said in ("key.txt (a symbolic link)", "bob (a symbolic link)", "hard.txt (a hard link", "fifo (a FIFO)",
                 "socket (a socket)"):
        assert said in left_out


def test_an_agent_file_or_a_student_folder_that_is_a_link_is_not_played(tmp_path):
    students = tmp_path / "students"
    mallory = students / "mallory"
    mallory.mkdir(parents=True)
    (tmp_path / "elsewhere.py").write_text("x = " + "-" * 100_000 + "1\n" + HONEST)  # never read: not the hand-in's
    (mallory / "agent.py").symlink_to(tmp_path / "elsewhere.py")
    (students / "trudy").symlink_to(hand_in(tmp_path / "bob"))
    entrants = {entrant.name: entrant for entrant in discover([str(students)], PACMAN, tmp_path / "t.sqlite.entrants")}
    assert "its agent.py is not a regular file of its own" in entrants["mallory"].error
    assert "a symbolic link, not a folder of its own" in entrants["trudy"].error


def test_an_oversized_or_sparse_hand_in_is_refused_before_anything_is_copied(tmp_path):
    students = tmp_path / "students"
    hand_in(students / "alice")
    sparse = hand_in(students / "sparse")
    for index in range(3):  # 3 x 1 GB of holes: nothing on disk, but a copy would write it all
        with open(sparse / f"weights{index}.bin", "wb") as file:
            file.truncate(1 << 30)
    many = hand_in(students / "many")
    for index in range(30):
        (many / f"file{index}.txt").write_text("x")
    store = tmp_path / "t.sqlite"
    started = time.monotonic()
    tournament = build_tournament({"pacman": [str(students)], "layouts": ["tinyGhostMaze"], "pairs": 1,
                                   "store": str(store), "hand_in_mb": 1, "hand_in_files": 20}, sandboxed=False)
    assert time.monotonic() - started < 20  # not gigabytes copied
    refused = {entrant.name: entrant.error for entrant in tournament.refused}
    assert set(refused) == {"sparse", "many"}
    assert "3,072.0 MB, over the limit of 1 MB" in refused["sparse"] and "31 files, over the limit of 20" in refused["many"]
    copies = [path.name for path in (tmp_path / "t.sqlite.entrants").iterdir()]
    assert len(copies) == 1 and copies[0].startswith("alice-")  # nothing of the refused ones, no temporary
    with pytest.raises(Exception, match="hand-in limits"):
        HandInLimits(megabytes=0)


# -- the coordinator reads no byte it cannot bound --------------------------------

@pytest.mark.parametrize("bomb", ["x = " + "-" * 100_000 + "1\n", "x = 1" + " + 1" * 60_000 + "\n",
                                  "x = " + "(" * 300 + ")" * 300 + "\n", "x = 1\0\n", "#" * (300 << 10) + "\n"],
                         ids=["unary", "chain", "parentheses", "null", "oversized"])
def test_a_parser_bomb_is_not_played_and_says_why_in_one_line(tmp_path, bomb):
    folder = tmp_path / "students"
    hand_in(folder / "bomber", bomb + HONEST)
    hand_in(folder / "alice")
    entrants = {entrant.name: entrant for entrant in discover([str(folder)], PACMAN)}
    assert entrants["alice"].error is None
    error = entrants["bomber"].error
    assert error is not None and "bomber" in error and "\n" not in error


def _row(**changed):
    row = GameRow(experiment="t", config_hash="c", condition_key='{"code": {}}', condition="a", pacman="p.py:P",
                  ghosts="random", layout="tinyGhostMaze", num_ghosts=1, depth=None, options="{}", game_index=0,
                  seed=1, outcome="loss", score=-440, moves=3, seconds=0.1, move_seconds_mean=0.01,
                  move_seconds_max=0.02, nodes=10, levels_reached=2, error=None, pacsim_version="x", hostname="h",
                  os="linux", arch=None, cores=None, python_version=None, numba_version=None, git_commit=None,
                  searched_by=None, started_at="2026-01-01T00:00:00+00:00", actions="NS", start=None)
    return dataclasses.replace(row, **changed)


def test_a_row_the_store_cannot_hold_is_its_entrants_protocol_fault_and_keeps_its_batch(tmp_path):
    path = tmp_path / "t.sqlite"
    honest = _row(condition_key='{"code": {}, "n": 0}')
    huge = _row(condition_key='{"code": {}, "n": 1}', nodes=1 << 70, levels_reached=-(1 << 80), outcome="win")
    wrong = _row(condition_key='{"code": {}, "n": 2}', depth="deep", seconds=float("nan"))
    surrogate = _row(condition_key='{"code": {}, "n": 3}', outcome="error", error="agent 0 raised ValueError: \udcff")
    with ResultStore(path) as store:
        assert store.add_games([honest, huge, wrong, surrogate]) == 4  # the batch is whole
    stored = load_results(path).set_index("condition_key")
    assert stored.loc[honest.condition_key, "outcome"] == "loss" and pandas.isna(stored.loc[honest.condition_key, "fault"])
    row = stored.loc[huge.condition_key]
    assert (row["outcome"], row["fault"]) == ("loss", "protocol") and row["nodes"] == (1 << 63) - 1
    assert row["error"].startswith("agent 0 reported nodes = ")
    assert stored.loc[wrong.condition_key, "fault"] == "protocol" and pandas.isna(stored.loc[wrong.condition_key, "depth"])
    assert "\\udcff" in stored.loc[surrogate.condition_key, "error"]
    with ResultStore(path) as store:  # a resume replays no protocol fault as pacsim's own error
        assert store.add_games([dataclasses.replace(huge, nodes=1, outcome="win")]) == 0


BIG_NUMBERS = """from pacsim.agents import Agent
from pacsim.engine.stats import MoveStats

class Boaster(Agent):
    depth = 1 << 70

    def get_action(self, state):
        self.last_stats = MoveStats(generated=1 << 70, depth=1 << 70)
        return self.rng.choice(state.legal_actions())
"""


def test_numbers_an_unsandboxed_agent_reports_cannot_stop_the_tournament(tmp_path, capsys):
    hand_in(tmp_path / "students" / "boaster", BIG_NUMBERS)
    hand_in(tmp_path / "students" / "alice")
    arguments = ["tournament", "--pacman", str(tmp_path / "students"), "--layout", "tinyGhostMaze", "--pairs", "2",
                 "--seed", "3", "--max-moves", "20", "--store", str(tmp_path / "t.sqlite"), "--no-sandbox", "-j", "1", "-q"]
    assert main(arguments) == 0, capsys.readouterr().err
    rows = load_results(tmp_path / "t.sqlite")
    assert len(rows) == 4 and set(rows["fault"].dropna()) == {"protocol"}
    board = capsys.readouterr().out
    assert re.search(r"2\s+boaster .* 2$", board, re.M)  # last, two protocol faults (the last column)
    ids = list(rows["id"])
    assert main(arguments) == 0  # a resume plays nothing again
    assert list(load_results(tmp_path / "t.sqlite")["id"]) == ids


# -- faults rank last, in both modes -------------------------------------------------

def _fault_board(tmp_path, capsys, sandboxed):
    students = tmp_path / ("sandboxed" if sandboxed else "workers")
    hand_in(students / "honest")
    hand_in(students / "still", STILL)
    for name, body in FAULTERS.items():
        hand_in(students / name, faulter(body))
    store = tmp_path / f"{students.name}.sqlite"
    status = main(["tournament", "--pacman", str(students), "--layout", "tinyGhostMaze", "--pairs", "1", "--seed", "5",
                   "--max-moves", "30", "--time-limit", "0.3", "--store", str(store), "-j", "2", "-q",
                   *([] if sandboxed else ["--no-sandbox"])])
    assert status == 0, capsys.readouterr().err
    capsys.readouterr()
    games = load_results(store)
    pacmen = {spec: Path(spec.rpartition(":")[0]).parent.name.rpartition("-")[0] for spec in games["pacman"].unique()}
    return build_leaderboard(games, pacmen, {"random": "random"}), games


@pytest.mark.parametrize("sandboxed", [False, True], ids=["workers", "sandbox"])
def test_faults_rank_below_every_honest_entrant_whatever_the_mode(tmp_path, capsys, sandboxed):
    if sandboxed:
        optional.bubblewrap()
    board, games = _fault_board(tmp_path, capsys, sandboxed)
    ranks = {standing.rating.entrant: standing.rating.rank for standing in board.pacmen}
    assert max(ranks["honest"], ranks["still"]) < min(ranks[name] for name in FAULTERS), ranks
    # The ranking is not by score: the one that stands still loses every game below 0, where a faulter's 0 would
    # have beaten it (the honest one may win: its games follow the tournament's own secret stream key).
    still = games["pacman"].map(lambda spec: Path(spec.rpartition(":")[0]).parent.name.startswith("still"))
    assert still.any() and (games.loc[still, "score"] < 0).all()
    faults = {standing.rating.entrant: {kind: count for kind, count in standing.faults.items() if count}
              for standing in board.pacmen}
    assert faults == {"honest": {}, "still": {}, "spinner": {"time": 1}, "crasher": {"exception": 1},
                      "sleeper": {"time": 1}, "illegal": {"illegal": 1}}  # the same kinds in both modes
    assert all(pandas.isna(standing.mean_score) for standing in board.pacmen if standing.rating.entrant in FAULTERS)


SLOW_STARTER = """import os, time
from pacsim.agents import Agent

class Slow(Agent):
    def __init__(self, *arguments, **options):
        super().__init__(*arguments, **options)
        if WHERE != str(os.getpid()):
            time.sleep(1000)

    def get_action(self, state):
        return state.legal_actions()[0]
"""


def test_without_the_sandbox_the_start_up_limit_holds_as_in_it(tmp_path, capsys, monkeypatch):
    """A constructor that never returns is stopped at the start-up limit (a fork-started worker inherits the
    test's shorter one): in the planning, the entrant is refused, as the sandbox's check refuses it; in a worker,
    it loses its games as a ``time`` fault (not pacsim's ``error``) and a resume plays nothing again."""
    from pacsim.runner import agent_factory

    monkeypatch.setattr(agent_factory, "STARTUP_SECONDS", 0.5)
    students = tmp_path / "students"
    hand_in(students / "honest")
    hand_in(students / "slow", SLOW_STARTER.replace("WHERE", "''"))  # slow everywhere
    hand_in(students / "late", SLOW_STARTER.replace("WHERE", repr(str(os.getpid()))))  # slow in the workers only
    store = tmp_path / "t.sqlite"
    arguments = ["tournament", "--pacman", str(students), "--layout", "tinyGhostMaze", "--pairs", "1", "--seed", "5",
                 "--max-moves", "20", "--store", str(store), "-j", "2", "--no-sandbox"]
    started = time.monotonic()
    assert main(arguments) == 0, capsys.readouterr().err
    assert time.monotonic() - started < 30
    out = capsys.readouterr().out
    assert "slow gets no games: " in out and "overran the 0.5s start-up limit (building the agent)" in out, out
    games = load_results(store)
    late = games[games["pacman"].str.contains("late")]
    assert len(late) == len(games) // 2 and set(late["outcome"]) == {"loss"} and set(late["fault"]) == {"startup_timeout"}
    assert all(error.startswith("agent 0 overran the 0.5s start-up limit") for error in late["error"])
    ids = list(games["id"])
    assert main([*arguments, "-q"]) == 0 and list(load_results(store)["id"]) == ids


def test_compare_counts_a_fault_worse_than_a_loss(tmp_path, capsys):
    optional.bubblewrap()
    (tmp_path / "crasher.py").write_text(faulter(FAULTERS["crasher"]).replace("Faulter", "Crasher"))
    (tmp_path / "still.py").write_text(STILL)
    status = main(["compare", f"{tmp_path / 'crasher.py'}:Crasher", f"{tmp_path / 'still.py'}:Still", "--layout",
                   "tinyGhostMaze", "--pairs", "2", "--max-moves", "30", "--sandbox", "-j", "1",
                   "--store", str(tmp_path / "c.sqlite")])
    output = capsys.readouterr().out
    assert status == 0 and "pairs 2: A better 0, equal 0, B better 2" in output, output


# -- Ctrl-C and the move limit win over compiled code -------------------------------------

STUCK = """
import ctypes, signal, sys
import pacsim.engine.deadline
from pacsim.engine.deadline import call_with_deadline, compiled_code

pacsim.engine.deadline.COMPILED_GRACE = 0.2  # the mechanism, not the length of a user's grace (a second)

# Ctrl-C as a terminal's foreground command has it, whatever the suite was started with (a background job
# inherits SIGINT ignored, and pacsim rightly leaves an ignored Ctrl-C ignored).
signal.signal(signal.SIGINT, signal.default_int_handler)

libc = ctypes.CDLL(None)
lock = ctypes.create_string_buffer(64)  # a pthread mutex, locked twice: C code that never returns, whatever the signal
libc.pthread_mutex_lock(lock)

def stuck():
    with compiled_code():
        print("stuck", flush=True)
        libc.pthread_mutex_lock(lock)

if sys.argv[2] == "said":
    from pacsim.fast.last_words import prepare
    prepare()
call_with_deadline(stuck, float(sys.argv[1]) or None)
"""


@pytest.mark.parametrize("said", ["said", "silent"])
@pytest.mark.parametrize("limit", [0.3, 0], ids=["move limit", "ctrl-c"])
def test_compiled_code_that_never_returns_ends_at_the_move_limit_or_at_ctrl_c(limit, said):
    """The process ends by the signal's default action; with the kernels' C handler prepared, one line says why first."""
    process = subprocess.Popen([sys.executable, "-c", STUCK, str(limit), said], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": ROOT})
    try:
        assert process.stdout is not None and process.stdout.readline() == "stuck\n"
        started = time.monotonic()
        if not limit:
            process.send_signal(signal.SIGINT)
        status = process.wait(timeout=20)
        assert process.stderr is not None
        err = process.stderr.read()
    finally:
        process.kill()
    assert status == -(signal.SIGALRM if limit else signal.SIGINT)
    assert time.monotonic() - started < 10
    if said == "silent":
        assert err == ""
    else:
        from pacsim.fast.last_words import INTERRUPTED, OVERRAN

        assert err == (OVERRAN if limit else INTERRUPTED).tobytes().decode()
        assert err.count("\n") == 1 and ("move limit" in err) == bool(limit)


def test_the_kernels_slices_run_as_compiled_code(ctrl_c_delivered):
    from pacsim.fast.slices import in_slices

    seen = []

    def search_slice(budget):
        seen.append(signal.getsignal(signal.SIGINT))
        return True

    before = signal.getsignal(signal.SIGINT)
    in_slices(search_slice, (), 1, 1, 0.0, users_code=True)
    in_slices(search_slice, (), 1, 1, 0.0)  # pacsim's own kernels return within a slice: nothing changed for them
    assert seen == [signal.SIG_DFL, before] and signal.getsignal(signal.SIGINT) is before


# -- the weak level is never silent -----------------------------------------------------

def test_the_weak_level_is_refused_unless_asked_and_then_said_first(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sandbox, "bubblewrap_works", lambda: False)  # a machine where bwrap cannot run
    hand_in(tmp_path / "students" / "alice")
    page = tmp_path / "board.html"
    arguments = ["tournament", "--pacman", str(tmp_path / "students"), "greedy", "--layout", "tinyGhostMaze",
                 "--pairs", "1", "--seed", "2", "--max-moves", "20", "--store", str(tmp_path / "t.sqlite"), "-j", "1", "-q"]
    assert main(arguments) == 2
    error = capsys.readouterr().err
    assert "weak 'limits' level" in error and "--allow-weak-sandbox" in error and not (tmp_path / "t.sqlite").exists()
    assert main([*arguments, "--allow-weak-sandbox", "--html", str(page)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("pacsim: WARNING: weak isolation")
    assert sum("WARNING: weak isolation" in line for line in lines) == 2  # first, and atop the board
    assert "WARNING: weak isolation" in page.read_text()
    assert set(load_results(tmp_path / "t.sqlite")["sandbox"].dropna()) == {"limits"}


def test_no_sandboxed_entrant_can_name_the_store_or_the_other_entrants(tmp_path, capsys):
    optional.bubblewrap()
    store = tmp_path / "t.sqlite"
    looker = textwrap.dedent(f"""
        import os
        from pacsim.agents import Agent

        COPIES = {str(store) + '.entrants'!r}
        SEEN = [path for path in ({str(store)!r}, {str(store) + '.tournament.json'!r}, {str(tmp_path / 'alice.py')!r})
                if os.path.exists(path)]
        SEEN += [name for name in os.listdir(COPIES) if not name.startswith("looker-")]  # its own copy only

        class Looker(Agent):
            def get_action(self, state):
                return "Up" if SEEN else state.legal_actions()[0]  # an illegal move: what it found shows on the board
        """)
    (tmp_path / "looker.py").write_text(looker)  # a single file beside the store, as a careless instructor may put it
    (tmp_path / "alice.py").write_text(HONEST)
    assert main(["tournament", "--pacman", str(tmp_path / "looker.py"), str(tmp_path / "alice.py"), "--layout",
                 "tinyGhostMaze", "--pairs", "1", "--max-moves", "10", "--store", str(store), "-j", "1", "-q"]) == 0
    rows = load_results(store)
    assert len(rows) == 2 and rows["fault"].isna().all(), rows[["pacman", "fault", "error"]]
    (tmp_path / "spec.py").write_text(HONEST)  # named as a spec: its sandbox would show its folder, the store's
    tournament = build_tournament({"pacman": [f"{tmp_path / 'spec.py'}:Honest", "greedy"], "layouts": ["tinyGhostMaze"],
                                   "pairs": 1, "store": str(store)})
    (refused,) = tournament.refused
    assert "holds the store" in refused.error and not any("spec.py" in spec for spec in tournament.names(PACMAN))
