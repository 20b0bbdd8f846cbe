"""Capture contests: teams in sandboxes, paired with colours swapped, stored, resumed, re-run, rated and graded;
faulty teams lose only their own games; a spinning team cannot slow an honest one."""

import contextlib
import csv
import hashlib
import hmac
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy
import pytest
from optional import bubblewrap, control_groups

from pacsim.agents.capture import build_team
from pacsim.agents.capture.sandboxed import SandboxedTeam
from pacsim.cli import main
from pacsim.engine.capture import find_capture_layout
from pacsim.engine.capture.game import TimeRules, play_capture_game
from pacsim.report.ratings import rate, rate_games
from pacsim.runner.contest import find_teams, pair_by_rating, scaled_rules, separated
from pacsim.sandbox.handin import HandInLimits
from pacsim.sandbox.limits import Limits
from pacsim.sandbox.room import idle_children

COURSE_TEAM = (Path(__file__).parent / "capture_course" / "teams" / "myTeam.py").read_text()
CRASHING = """
from captureAgents import CaptureAgent


def createTeam(firstIndex, secondIndex, isRed):
    return [Crasher(firstIndex), Crasher(secondIndex)]


class Crasher(CaptureAgent):
    def chooseAction(self, gameState):
        return {}['no such move']
"""
BAD_CREATE_TEAM = """
def createTeam(firstIndex, secondIndex, isRed):
    raise ValueError('a student forgot something')
"""
SLEEPER = """
import time
from captureAgents import CaptureAgent


def createTeam(firstIndex, secondIndex, isRed):
    return [Sleeper(firstIndex), Sleeper(secondIndex)]


class Sleeper(CaptureAgent):
    def chooseAction(self, gameState):
        time.sleep({seconds})
        return gameState.getLegalActions(self.index)[0]
"""
HONEST = """
import time
from captureAgents import CaptureAgent


def createTeam(firstIndex, secondIndex, isRed):
    return [Honest(firstIndex), Honest(secondIndex)]


class Honest(CaptureAgent):
    def chooseAction(self, gameState):
        wall, cpu = time.monotonic(), time.process_time()
        while time.process_time() - cpu < {cpu} and time.monotonic() - wall < {cap}:  # fixed CPU work, never a forfeit
            pass
        return gameState.getLegalActions(self.index)[0]
"""
SPINNER = """
import mmap
import os
import threading
import time
from captureAgents import CaptureAgent

SPINNERS = 30
OTHER_MOVE = None  # the least time the other team's move takes (its CPU time): the test's to fill in
longest = memoryview(mmap.mmap(-1, 8 * (SPINNERS + 1))).cast('d')  # shared with the forked spinners
last = memoryview(mmap.mmap(-1, 8 * (SPINNERS + 1))).cast('d')


def spin(slot):
    while True:  # spins, noting the longest time it was kept from running (since its start was noted)
        now = time.monotonic()
        if now - last[slot] > longest[slot]:
            longest[slot] = now - last[slot]
        last[slot] = now


def stopped():
    # the shortest of the spinners' longest stops (one not run since is stopped still)
    now = time.monotonic()
    return min(max(longest[slot], now - last[slot]) for slot in range(SPINNERS + 1))


def createTeam(firstIndex, secondIndex, isRed):
    return [Spinner(firstIndex), Spinner(secondIndex)]


class Spinner(CaptureAgent):
    left = None

    def chooseAction(self, gameState):
        if Spinner.left is None:
            for slot in range(SPINNERS):  # processes each in a session of its own, and a thread
                last[slot] = time.monotonic()  # noted before it exists: one first run after a pause was paused
                if os.fork() == 0:
                    os.setsid()
                    spin(slot)
            last[SPINNERS] = time.monotonic()
            threading.Thread(target=spin, args=(SPINNERS,), daemon=True).start()
        elif stopped() < 0.5 * OTHER_MOVE:  # one ran on while the other team moved
            raise RuntimeError(f'a spinner ran while the other team moved: stopped {stopped():.2f} s at most, '
                               f'{time.monotonic() - Spinner.left:.2f} s since its last move')
        for slot in range(SPINNERS + 1):
            longest[slot] = 0.0
        Spinner.left = time.monotonic()
        return gameState.getLegalActions(self.index)[0]
"""
TINY = "tinyCapture"


@pytest.fixture(autouse=True)
def no_idle_children():
    idle_children.end_all()
    yield
    idle_children.end_all()


def team_folder(root: Path, name: str, source: str) -> Path:
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "myTeam.py").write_text(source)
    return folder


# -- pairing, separation, ratings ---------------------------------------------------------------------------------------


def test_swiss_pairs_avoid_rematches_and_the_bye_moves_on():
    order = ["a", "b", "c", "d", "e"]
    first = pair_by_rating(order, set(), set())
    assert first == [("a", "b"), ("c", "d")]  # e, the lowest, sits out
    met = {frozenset(pair) for pair in first}
    second = pair_by_rating(order, met, {"e"})
    assert ("a", "b") not in second and "e" in {name for pair in second for name in pair}
    assert len({name for pair in second for name in pair}) == 4


def test_separated_means_every_rank_range_is_narrow():
    assert separated([(1, 1), (2, 3), (2, 3)], teams=3)
    assert not separated([(1, 1), (2, 20), (3, 20)], teams=20)


def test_rating_from_games_matches_the_rating_from_positions():
    """rate_games (a contest's games, memory per game) fits the same model as rate (positions x entrants x entrants)."""
    rng = numpy.random.default_rng(3)
    first, second = rng.integers(0, 4, 60), rng.integers(0, 4, 60)
    keep = first != second
    first, second = first[keep], second[keep]
    points = rng.choice([0.0, 0.5, 1.0], size=len(first), p=[0.2, 0.2, 0.6]) * (first < 2) + 0.3 * (first >= 2)
    points = numpy.round(points * 2) / 2
    per_position = numpy.zeros((len(first), 4, 4))
    per_position[numpy.arange(len(first)), first, second] = points
    per_position[numpy.arange(len(first)), second, first] = 1 - points
    names = ["w", "x", "y", "z"]
    by_games = {r.entrant: r.rating for r in rate_games(names, first, second, points, samples=0)}
    by_positions = {r.entrant: r.rating for r in rate(names, per_position, samples=0)}
    assert by_games == pytest.approx(by_positions, abs=1e-3)


def test_time_rules_scale_with_the_machine():
    rules = scaled_rules(2.5)
    assert (rules.startup, rules.move_warning, rules.move_timeout, rules.max_warnings) == (37.5, 2.5, 7.5, 2)


def test_the_reference_workload_is_the_mazes_all_pairs_distances():
    """The speed factor's workload does the work it says (the engine's distances agree) and does not depend on
    pacsim's own teams: a faster baseline team must not make every later contest's limits stricter."""
    from pacsim.runner import machine_speed

    layout = find_capture_layout("defaultCapture")
    cells = machine_speed.open_cells(layout.text)
    assert len(cells) == len(layout.maze.cells) > 200
    engine_total = sum(sum(layout.maze.distances_from(cell)) for cell in range(len(layout.maze.cells)))
    assert machine_speed.total_maze_distance(cells) == engine_total
    source = Path(machine_speed.__file__).read_text(encoding="utf-8")
    assert "import pacsim.agents" not in source and "build_team" not in source


# -- a contest run as an instructor would -------------------------------------------------------------------------------


def contest(tmp_path: Path, *extra: str) -> int:
    return main(["tournament", "--game", "capture", "--teams", str(tmp_path / "students"), "--staff", "baseline",
                 "--layout", TINY, "--store", str(tmp_path / "contest.sqlite"), "--max-moves", "40",
                 "--speed-factor", "1", "-j", "1", "--allow-weak-sandbox", "-q", *extra])


def stored(tmp_path: Path) -> list[tuple]:
    with sqlite3.connect(tmp_path / "contest.sqlite") as connection:
        return connection.execute("SELECT key, red, blue, seed, winner, reason, culprit, played_at, layout, speed_factor "
                                  "FROM games ORDER BY key").fetchall()


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    root = tmp_path_factory.mktemp("contest")
    team_folder(root / "students", "alice", COURSE_TEAM)
    team_folder(root / "students", "crash", CRASHING)
    team_folder(root / "students", "badcreate", BAD_CREATE_TEAM)
    team_folder(root / "students", "none", "x = 1\n")
    assert contest(root, "--grades", str(root / "grades.csv")) == 0
    return root


def test_a_contest_pairs_every_team_on_each_maze_with_colours_swapped(played, capsys):
    games = stored(played)
    teams = {"alice", "crash", "badcreate", "baseline"}  # "none" defines no createTeam: listed, no games
    assert len(games) == len(teams) * (len(teams) - 1)  # every pair, both colours, one maze
    assert {(red, blue) for _, red, blue, *_ in games} == {(a, b) for a in teams for b in teams if a != b}
    assert len({row[3] for row in games}) == 1  # one maze, one round: every pairing plays the same seed
    assert {row[9] for row in games} == {1.0}  # the speed factor, stored with every game


def test_a_fault_loses_the_faulting_teams_games_only(played):
    for _, red, blue, _, winner, reason, culprit, *_ in stored(played):
        faulty = {"crash", "badcreate"} & {red, blue}
        if not faulty:
            assert reason in ("food", "time") and culprit is None
            continue
        assert reason == "crash"
        loser = red if culprit % 2 == 0 else blue
        assert loser in faulty
        assert winner == ("blue" if loser == red else "red")


def test_the_grade_table_holds_each_student_against_the_staff(played):
    rows = list(csv.DictReader((played / "grades.csv").open()))
    by_team = {row["team"]: row for row in rows if row["opponent"] == "baseline"}
    assert set(by_team) == {"alice", "crash", "badcreate"}
    assert by_team["crash"]["games"] == "2" and by_team["crash"]["losses"] == "2" and by_team["crash"]["own_faults"] == "2"
    assert by_team["alice"]["own_faults"] == "0" and float(by_team["alice"]["win_rate"]) >= 0


def test_seeds_are_a_keyed_hash_under_the_stores_secret(played):
    with sqlite3.connect(played / "contest.sqlite") as connection:
        secret, = connection.execute("SELECT secret FROM contest").fetchone()
    expected = int.from_bytes(hmac.new(bytes.fromhex(secret), f"seed:{TINY}:0".encode(), hashlib.sha256).digest()[:8],
                              "big") >> 1
    assert {row[3] for row in stored(played)} == {expected}


def test_running_again_plays_nothing_and_a_changed_team_only_its_games(played):
    before = stored(played)
    assert contest(played) == 0
    assert stored(played) == before  # nothing played again, nothing added
    with (played / "students" / "alice" / "myTeam.py").open("a") as file:
        file.write("# alice's second hand-in\n")
    assert contest(played) == 0
    after = stored(played)
    new = [row for row in after if row not in before]
    assert len(new) == 6 and all("alice" in (row[1], row[2]) for row in new)  # alice against the 3 others, both colours


def test_a_stored_game_becomes_a_replay_record(played, monkeypatch, capsys):
    monkeypatch.chdir(played)
    key = next(row[0] for row in stored(played) if row[5] == "crash")
    assert main(["tournament", "--game", "capture", "--store", str(played / "contest.sqlite"), "--replay", key[:12]]) == 0
    assert main(["capture", "--replay", str(played / "replays" / f"capture-{key[:12]}.json"), "-q"]) == 0


def test_a_replay_where_its_folder_is_a_file_is_one_line(played, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "replays").write_text("mine")
    key = stored(played)[0][0]
    assert main(["tournament", "--game", "capture", "--store", str(played / "contest.sqlite"), "--replay", key[:12]]) == 2
    assert capsys.readouterr().err.strip().count("\n") == 0 and (tmp_path / "replays").read_text() == "mine"


def test_bad_contest_input_is_one_line(tmp_path, capsys):
    assert main(["tournament", "--game", "capture", "--teams", str(tmp_path / "nowhere")]) == 2
    assert main(["tournament", "--game", "capture", "--teams", "baseline", "--pacman", "greedy"]) == 2
    assert main(["tournament", "--teams", "baseline"]) == 2
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE games (id INTEGER, pacman TEXT)")
    assert main(["tournament", "--game", "capture", "--teams", "baseline", "--store", str(other), "-q"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 4 and all("Traceback" not in line for line in lines)


def test_a_contest_killed_hard_resumes_with_nothing_lost_or_doubled(tmp_path):
    """kill -9 of the contest's process while its workers play; the same command finishes it."""
    for name in ("a", "b"):
        team_folder(tmp_path / "students", name, SLEEPER.format(seconds=0.01))
    command = [sys.executable, "-m", "pacsim", "tournament", "--game", "capture", "--teams", str(tmp_path / "students"),
               "--staff", "baseline", "--layout", TINY, "--store", str(tmp_path / "contest.sqlite"), "--max-moves", "30",
               "--speed-factor", "1", "-j", "2", "--allow-weak-sandbox", "-q"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        with contextlib.suppress(sqlite3.OperationalError):  # the store made, its tables not yet
            if (tmp_path / "contest.sqlite").exists() and len(stored(tmp_path)) >= 2:
                break
        time.sleep(0.05)
    workers = [int(pid) for pid in subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True,
                                                  text=True).stdout.split()]
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in workers):
        time.sleep(0.05)
    assert workers and not [pid for pid in workers if Path(f"/proc/{pid}").exists()]  # its workers died with it
    before = stored(tmp_path)
    assert 2 <= len(before) < 6
    assert subprocess.run(command, stdout=subprocess.DEVNULL).returncode == 0
    after = stored(tmp_path)
    assert len(after) == len({row[0] for row in after}) == 6  # 3 teams: 3 pairs, both colours
    assert set(before) <= set(after)  # the games stored before the kill, unchanged


# -- faults and starvation, team by team ---------------------------------------------------------------------------------


LIMITS = Limits(move_seconds=3.0, startup_seconds=15.0)


def sandboxed(tmp_path: Path, name: str, source: str, is_red: bool, limits: Limits = LIMITS) -> SandboxedTeam:
    folder = team_folder(tmp_path, name, source)
    empty = tmp_path / "empty"
    empty.mkdir(exist_ok=True)
    return SandboxedTeam(str(folder / "myTeam.py"), is_red, limits, empty)


@pytest.mark.parametrize(("source", "reason", "fault"), [
    (CRASHING, "crash", "crash"),
    (BAD_CREATE_TEAM, "crash", "crash"),
    (SLEEPER.format(seconds=1.0), "forfeit", "move_timeout"),
])
def test_a_faulty_team_loses_its_own_game(tmp_path, source, reason, fault):
    rules = TimeRules(startup=15.0, move_warning=0.2, move_timeout=0.5)
    limits = Limits(move_seconds=rules.move_timeout, startup_seconds=rules.startup)
    faulty, honest = sandboxed(tmp_path, "faulty", source, False, limits), sandboxed(tmp_path, "honest", COURSE_TEAM, True, limits)
    try:
        result = play_capture_game(find_capture_layout(TINY), honest, faulty, seed=2, max_moves=40, time_rules=rules)
    finally:
        faulty.stop(), honest.stop()
    assert (result.winner, result.reason, result.fault) == ("red", reason, fault)
    assert result.culprit is not None and result.culprit % 2 == 1


def test_a_sandboxed_team_plays_the_same_game_as_in_process(tmp_path):
    layout = find_capture_layout(TINY)
    red, blue = sandboxed(tmp_path, "red", COURSE_TEAM, True), SandboxedTeam("baseline", False, LIMITS, tmp_path)
    try:
        boxed = play_capture_game(layout, red, blue, seed=7, max_moves=60)
        in_process = play_capture_game(layout, build_team(str(tmp_path / "red" / "myTeam.py"), True),
                                       build_team("baseline", False), seed=7, max_moves=60)
    finally:
        red.stop(), blue.stop()
    assert boxed.moves == in_process.moves and boxed.score == in_process.score
    assert len(boxed.moves) == 60 or boxed.reason == "food"


def test_a_spinning_team_cannot_slow_an_honest_teams_moves(tmp_path):
    """The honest team spends a fixed 0.6 s of CPU a move (its move over in 2.5 s at most, under the 6 s forfeit:
    the spinner's first move, which forks its 30 processes, took over 3 s on a loaded machine);
    its moves' wall time against a team that starts 30 spinning processes and a thread is compared with its
    wall time against a calm team, in the same minute of the same machine.  The spinner's child is paused
    (its control group frozen) whenever it is not moving: each spinner notes the longest time it was kept from
    running, and the team crashes (a fault of its own, which the game reports) unless every spinner was
    stopped at one stretch for at least half the honest move's CPU time.  Without the pause it crashes
    (tried by hand: the pause taken out, it failed that check 6 runs in 6, idle and beside three busy
    processes, the longest stops 0.13-0.20 s; with the pause it passed 4 in 4 beside them).  Not
    half the time between the spinner's moves: that includes its own turn, when its spinners run and
    slow its reply, more so on a loaded machine (a run of CI's failed with 0.3 s of CPU a move)."""
    control_groups("freezer", "cpu")
    honest_cpu = 0.6
    honest_source = HONEST.format(cpu=honest_cpu, cap=2.5)
    spinner_source = SPINNER.replace("OTHER_MOVE = None", f"OTHER_MOVE = {honest_cpu}")

    def honest_seconds(opponent: str) -> float:
        honest = sandboxed(tmp_path, "honest", honest_source, True)
        other = sandboxed(tmp_path, opponent, spinner_source if opponent == "spinner" else COURSE_TEAM, False)
        try:
            result = play_capture_game(find_capture_layout(TINY), honest, other, seed=1, max_moves=4,
                                       time_rules=TimeRules(startup=15, move_warning=6, move_timeout=6))
        finally:
            honest.stop(), other.stop()
        assert result.culprit is None, (result.culprit, result.error, result.seconds, result.moves)
        assert len(result.seconds) == 4  # the honest moves measured, and the spinner's check after the second
        return result.seconds[0] + result.seconds[2]

    calm = honest_seconds("calm")
    spun = honest_seconds("spinner")
    assert spun <= 2 * calm + 0.2, (spun, calm)


def test_a_team_sees_nothing_of_the_store_or_other_teams(tmp_path):
    """Under bubblewrap a team's child sees only its own hand-in's copy: a team that finds the store, the
    contest's folder or another team's file crashes (and would lose); it does not."""
    bubblewrap()
    store, other = tmp_path / "contest.sqlite", team_folder(tmp_path, "other", COURSE_TEAM) / "myTeam.py"
    store.write_text("secret")
    spy = COURSE_TEAM.replace("def createTeam(", f"""import os
for _path in ({str(store)!r}, {str(other)!r}):
    if os.path.exists(_path):
        raise RuntimeError('found ' + _path)


def createTeam(""", 1)
    red, blue = sandboxed(tmp_path / "spies", "spy", spy, True), SandboxedTeam("baseline", False, LIMITS, tmp_path / "spies")
    try:
        result = play_capture_game(find_capture_layout(TINY), red, blue, seed=3, max_moves=8)
    finally:
        red.stop(), blue.stop()
    assert result.culprit is None, result.error


def test_a_swiss_contest_plays_staff_games_then_rating_paired_rounds(tmp_path, capsys):
    for name in "abcde":
        team_folder(tmp_path / "students", name, COURSE_TEAM + f"\n# team {name}\n")
    command = ["tournament", "--game", "capture", "--teams", str(tmp_path / "students"), "--staff", "baseline",
               "--layout", TINY, "fastCapture", "--store", str(tmp_path / "contest.sqlite"), "--max-moves", "20",
               "--speed-factor", "1", "-j", "1", "--no-sandbox", "-q", "--format", "swiss", "--rounds", "2",
               "--mazes-per-round", "1"]
    assert main(command) == 0
    with sqlite3.connect(tmp_path / "contest.sqlite") as connection:
        stages = dict(connection.execute("SELECT stage, count(*) FROM games GROUP BY stage").fetchall())
        rounds = [json.loads(pairs) for _, pairs in connection.execute("SELECT round, pairs FROM rounds ORDER BY round")]
    assert stages == {"staff": 5 * 2 * 2, "swiss": 2 * 2 * 2}  # 5 students x 2 mazes x 2 colours; 2 rounds of 2 pairs
    rested = [set("abcde") - {name for pair in pairs for name in pair} for pairs in rounds]
    assert all(len(names) == 1 for names in rested) and rested[0] != rested[1]  # the bye moves on
    assert not {frozenset(pair) for pair in rounds[0]} & {frozenset(pair) for pair in rounds[1]}  # no rematch
    before = stored(tmp_path)
    assert main(command) == 0 and stored(tmp_path) == before
    assert "baseline (staff)" in capsys.readouterr().out


def test_the_machine_is_measured_once_and_its_factor_kept(tmp_path, capsys):
    team_folder(tmp_path / "students", "a", COURSE_TEAM)
    command = ["tournament", "--game", "capture", "--teams", str(tmp_path / "students"), "--layout", TINY,
               "--store", str(tmp_path / "contest.sqlite"), "--max-moves", "8", "-j", "1", "--no-sandbox", "-q"]
    assert main(command) == 0
    with sqlite3.connect(tmp_path / "contest.sqlite") as connection:
        factor, = connection.execute("SELECT speed_factor FROM contest").fetchone()
        rows = connection.execute("SELECT speed_factor, move_warning, move_timeout FROM games").fetchall()
    assert 0.25 <= factor <= 20 and rows
    assert all(row == pytest.approx((factor, factor * 1.0, factor * 3.0)) for row in rows)
    assert main([*command, "--speed-factor", str(factor * 2)]) == 2  # a started contest keeps its limits


def test_the_contest_bench_reports_its_figures(monkeypatch):
    """pacsim bench --contest, on the smallest maze: the sandbox's cost, and a 150-team estimate from a contest's
    rate (the contest itself, run_contest, is played by the tests above)."""
    from pacsim.bench import contest as bench
    from pacsim.bench.report import Report

    monkeypatch.setattr(bench, "LAYOUT", TINY)
    monkeypatch.setattr(bench, "_contest_rate", lambda teams, team: (2.0, 10))
    report = Report()
    bench.contest_figures(report, games=1, teams=2)
    figures = {figure.name.split(",")[0]: figure.value for figure in report.figures}
    assert len(report.figures) == 5 and all(figure.value > 0 for figure in report.figures)
    assert report.figures[-1].value == pytest.approx(bench.contest_games(150) / 2.0 / 60)  # minutes at 2 games/s
    assert bench.contest_games(150) < 150 * 149 * 4 / 10  # the Swiss format: a tenth of a round robin at most
    assert figures["baseline vs itself"] > figures["the same"]  # the sandbox costs something


def test_a_team_whose_names_hold_control_characters_is_refused_before_anything_is_copied(tmp_path, capsys):
    """A folder or team file named with a terminal's escape codes or a newline would clear the instructor's screen,
    forge a board's line and reach the store and the pages: such a team gets one "not played" line, escaped."""
    students = tmp_path / "students"
    for folder, file in (("honest", "myTeam.py"), ("evil\x1b[2J\nhonest  1.000", "myTeam.py"), ("sly", "my\x1b]0;Team.py")):
        (students / folder).mkdir(parents=True)
        (students / folder / file).write_text(COURSE_TEAM, encoding="utf-8")
    teams = {team.name: team for team in find_teams([str(students)], tmp_path / "copies", HandInLimits())}
    assert teams["honest"].error is None
    refused = [team for name, team in teams.items() if name != "honest"]
    assert len(refused) == 2 and all(team.error and "a name holds control characters" in team.error for team in refused)
    assert not any("\x1b" in team.name + team.error or "\n" in team.name + team.error for team in refused)
    assert [path.name for path in (tmp_path / "copies").iterdir()] == [next(iter((tmp_path / "copies").iterdir())).name]
    assert contest(tmp_path) == 0
    shown = capsys.readouterr()
    assert "\\x1b[2J" in shown.out + shown.err and "\x1b" not in shown.out + shown.err


def test_a_upf_team_folder_with_helper_modules_plays_its_my_team_file(tmp_path):
    """UPF's hand-in is ``my_team.py``, often with helper modules beside it: that file is the team."""
    folder = tmp_path / "students" / "upf"
    folder.mkdir(parents=True)
    (folder / "my_team.py").write_text(COURSE_TEAM, encoding="utf-8")
    (folder / "utils.py").write_text("HELPER = 1\n", encoding="utf-8")
    (team,) = find_teams([str(tmp_path / "students")], tmp_path / "copies", HandInLimits())
    assert team.error is None and Path(team.spec).name == "my_team.py" and (Path(team.spec).parent / "utils.py").is_file()


def test_the_board_shows_why_a_hand_in_failed_to_load_not_where_its_copy_lies():
    """A sandboxed import error names the copy's deep path and pacsim's own line first; the board's line
    (160 characters of the message) must reach the cause."""
    from pacsim.report.contest_board import build_board, format_board

    copy = "/srv/contests/fall/results/contest.sqlite.entrants/alice-team-65e5a0e0c1d2e3f4/myTeam.py"
    error = (f"start: raised AgentError at plugins.py:176: {copy}: importing myTeam.py raised ModuleNotFoundError: "
             f"No module named 'myHelpers' ({copy}:3)")
    game = {"key": "ab" * 32, "red": "alice", "blue": "baseline", "winner": "blue", "score": -1, "culprit": 0,
            "reason": "crash", "fault": None, "error": error}
    board = format_board(build_board(["alice", "baseline"], {"baseline"}, [game], samples=10))
    (note,) = [line for line in board.splitlines() if line.startswith("  abab")]
    assert "ModuleNotFoundError: No module named 'myHelpers' (myTeam.py:3)" in note
    assert "entrants" not in note and "plugins.py" not in note


def test_the_board_lists_each_teams_fault_once_with_its_games():
    """A hand-in that fails to load fails the same way in all its games: 98 faulted games of 8 teams once filled
    the board's 20 lines with the same few teams; each team's fault is one line, with its count and a key."""
    from pacsim.report.contest_board import build_board, format_board

    def faulted(number: int, team: str, error: str) -> dict:
        return {"key": f"{number:02d}" * 32, "red": team, "blue": "baseline", "winner": "blue", "score": -1,
                "culprit": 0, "reason": "crash", "fault": None, "error": error}

    games = [faulted(number, "py2", "start: importing myTeam.py raised SyntaxError") for number in range(3)]
    games.append(faulted(7, "north", "illegal move 'North'"))
    board = build_board(["py2", "north", "baseline"], {"baseline"}, games, samples=10)
    assert board.faulted_games == 4
    shown = format_board(board)
    assert "faulted games (4," in shown
    notes = [line for line in shown.splitlines() if line.startswith("  0")]
    assert notes == ["  070707070707: north (crash) illegal move 'North'",
                     "  000000000000: py2 (crash) start: importing myTeam.py raised SyntaxError [3 games]"]


def test_the_board_shows_long_team_names_whole_and_in_line():
    """Folders named after repositories (``owner__course-contest-project``) differ at their ends: the board's team
    column widens to the longest name (up to 64 characters), and every row keeps its columns in line."""
    from pacsim.report.contest_board import build_board, format_board

    long_names = ["owner__RMIT-COSC1125-1127-AI-22-Pacman-Contest-Project", "owner__RMIT-COSC1125-1127-AI-22-Pacman-Contest-Project2"]
    games = [{"key": f"{number:02d}" * 32, "red": long_names[number % 2], "blue": long_names[1 - number % 2],
              "winner": "red", "score": 1, "culprit": None, "reason": "food", "fault": None, "error": ""}
             for number in range(4)]
    shown = format_board(build_board(long_names, set(), games, samples=10)).splitlines()
    assert all(any(line.split()[1] == name for line in shown[1:]) for name in long_names)
    assert all(line.index("2-0-2") == shown[0].index("W-T-L") for line in shown[1:])


def test_every_pairing_plays_the_rounds_seed_with_noise_of_its_own(tmp_path):
    """A team kept between games (its child is reused) could note the noise of its readings where it saw an
    opponent and subtract it in a later game of the same seed, reading unseen opponents' distances exactly: each
    pairing's noise is keyed by the pair (both colours share it), while the seed, and so the start, stays the round's."""
    from pacsim.engine.capture.game import CaptureTeam
    from pacsim.runner.contest import Contest, Team, draw
    from pacsim.runner.contest_store import ContestStore

    contest = Contest("noise", ContestStore(tmp_path / "contest.sqlite"), [], draw([TINY], 1, lambda: 1.0))
    alice, bob, carol = (Team(name, "baseline", name) for name in ("alice", "bob", "carol"))
    maze = contest.drawn.mazes[0]
    tasks = [contest.task("staff", 0, *pair, maze) for pair in ((alice, bob), (bob, alice), (alice, carol))]
    assert len({task.seed for task in tasks}) == 1
    assert tasks[0].noise_seed == tasks[1].noise_seed != tasks[2].noise_seed

    class Listener(CaptureTeam):
        def __init__(self) -> None:
            self.heard: list[tuple[int, ...]] = []

        def act(self, index, view):
            self.heard.append(view.noisy_distances)
            return view.state.legal_actions(index)[0]

    heard = []
    for noise_seed in (tasks[0].noise_seed, tasks[2].noise_seed):
        red = Listener()
        result = play_capture_game(find_capture_layout(TINY), red, build_team("baseline", False), tasks[0].seed,
                                   max_moves=20, noise_seed=noise_seed)
        assert result.error == ""
        heard.append(red.heard)
    assert heard[0] != heard[1]


def test_a_faults_message_cannot_clear_the_screen_or_forge_a_row():
    """An entrant's exception message is its own to choose: the board shows its escapes and newlines as text."""
    from pacsim.report.contest_board import build_board, format_board

    error = "move: raised RuntimeError at myTeam.py:3: \x1b[2J\n   1  mallory                      999"
    game = {"key": "cd" * 32, "red": "mallory", "blue": "baseline", "winner": "blue", "score": -1, "culprit": 0,
            "reason": "crash", "fault": None, "error": error}
    shown = format_board(build_board(["mallory", "baseline"], {"baseline"}, [game], samples=10))
    assert "\x1b" not in shown and "\\x1b[2J\\n" in shown
    assert sum("mallory" in line for line in shown.splitlines()) == 2  # its row and its fault's line, no forged row


def test_the_contest_store_holding_its_secret_is_its_owners_alone(tmp_path):
    from pacsim.runner.contest_store import ContestStore

    store = ContestStore(tmp_path / "contest.sqlite")
    store.close()
    assert (tmp_path / "contest.sqlite").stat().st_mode & 0o777 == 0o600


def test_a_team_folder_that_is_a_link_is_listed_with_why_not_left_off(tmp_path):
    """A link among the team folders may lead to another student's hand-in: it is not copied, and the team is
    listed with the reason (it was left off the board and the grade table without a word)."""
    students = tmp_path / "students"
    team_folder(students, "honest", COURSE_TEAM)
    team_folder(tmp_path / "elsewhere", "target", COURSE_TEAM)
    (students / "linked").symlink_to(tmp_path / "elsewhere" / "target")
    teams = {team.name: team for team in find_teams([str(students)], tmp_path / "copies", HandInLimits())}
    assert teams["honest"].error is None
    assert teams["linked"].error is not None and "a link, not a folder" in teams["linked"].error
    assert len(list((tmp_path / "copies").iterdir())) == 1
