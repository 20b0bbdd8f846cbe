"""The sandbox: hostile entrants are each contained and scored, and a well-behaved one plays as it would unsandboxed."""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import sqlite3
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import optional
import pytest

from pacsim.agents import make_ghost, make_pacman
from pacsim.agents.registry import GHOST, PACMAN
from pacsim.agents.sandboxed import SandboxedAgent, needs_sandbox, sandboxed
from pacsim.bench.report import Report
from pacsim.bench.sandbox import sandbox_figures
from pacsim.cli import main
from pacsim.cli.replay import summary
from pacsim.engine import parse_layout
from pacsim.engine.game import GameRecord, play_game
from pacsim.engine.recording import game_from_dict, save_game
from pacsim.errors import ConfigError
from pacsim.report.format import readable_summary
from pacsim.report.summary import summarize
from pacsim.runner import load_experiment, load_results, run_experiment
from pacsim.runner.store import load_saved_game
from pacsim.sandbox import room
from pacsim.sandbox.bubblewrap import bubblewrap_works
from pacsim.sandbox.limits import BUBBLEWRAP, LIMITS, Limits
from pacsim.sandbox.room import idle_children

MAZE = parse_layout(textwrap.dedent("""\
    %%%%%%%%%
    %P.  . G%
    % %%% % %
    %.  o  .%
    %%%%%%%%%"""), "tiny")
TEST_LIMITS = Limits(move_seconds=2.0, startup_seconds=10.0, cpu_seconds=20, memory_mb=256, file_mb=1)
"""Generous moves (a loaded machine), small memory; the timeout tests shorten the moves."""
SHORT_MOVES = dataclasses.replace(TEST_LIMITS, move_seconds=0.3)
SEED = 7


def require(isolation: str) -> None:
    """Skip a test of the bubblewrap level where it cannot run (fail under CI, which installs it)."""
    if isolation == BUBBLEWRAP:
        optional.bubblewrap()


WELL_BEHAVED = """
class Entrant(Agent):
    def get_action(self, state):
        return self.rng.choice(state.legal_actions())
"""


def entrant(tmp_path: Path, name: str, source: str) -> str:
    """The spec of an entrant written into its own folder under ``tmp_path``."""
    folder = tmp_path / name
    folder.mkdir()
    header = "import os, socket, sys, time\nfrom pacsim.agents import Agent\n"
    (folder / "entrant.py").write_text(header + textwrap.dedent(source))
    return f"{folder / 'entrant.py'}:Entrant"


def imported_here(spec: str) -> bool:
    """Whether the entrant's file is a module of this process."""
    path = spec.rpartition(":")[0]
    return any(getattr(module, "__file__", None) == path for module in list(sys.modules.values()))


def play(spec: str, limits: Limits = TEST_LIMITS, ghost: str = "random") -> tuple[GameRecord, SandboxedAgent]:
    agent = sandboxed(PACMAN, spec, {}, limits)
    assert agent is not None
    try:
        return play_game(MAZE, [agent, make_ghost(ghost)], seed=SEED, max_moves=20), agent
    finally:
        agent.stop()


def hostile(source: str) -> str:
    """An entrant that misbehaves on its first move (``{action}`` is a legal move, for those that survive)."""
    return "class Entrant(Agent):\n    def get_action(self, state):\n" + textwrap.indent(textwrap.dedent(source), " " * 8)


ISOLATIONS = [LIMITS, BUBBLEWRAP]


@pytest.fixture(autouse=True)
def no_idle_children():
    """Each test starts and ends without idle children (they are kept for the next game of the same entrant)."""
    idle_children.end_all()
    yield
    idle_children.end_all()


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_a_well_behaved_entrant_plays_the_same_game_sandboxed(tmp_path, isolation):
    require(isolation)
    spec = entrant(tmp_path, "good", WELL_BEHAVED)
    plain = play_game(MAZE, [make_pacman(spec), make_ghost("random")], seed=SEED, max_moves=20)
    record, agent = play(spec, dataclasses.replace(TEST_LIMITS, isolation=isolation))
    assert record.fault is None and record.error is None
    assert (record.outcome, record.score, record.moves, record.actions) == \
        (plain.outcome, plain.score, plain.moves, plain.actions)
    assert agent.level == isolation


@pytest.mark.parametrize(("name", "source", "fault", "said"), [
    ("raiser", "raise ValueError('no idea')", "crash", "ValueError"),
    ("exiter", "os._exit(3)", "crash", "status 3"),
    ("jumper", "return 'Jump'", "illegal", "'Jump'"),
    ("non_string", "return 42", "illegal", "int"),
    ("spinner", "while True:\n    pass", "move_timeout", "0.3s move limit"),
    ("sleeper", "time.sleep(100)", "move_timeout", "0.3s move limit"),
    ("cpu_burner", "while True:\n    pass", "cpu", "1s of CPU time"),
    ("hog", "hoard = []\nwhile True:\n    hoard.append(bytearray(1 << 24))", "memory", "MemoryError"),
    # It changes the rules in its own process: the parent's rules judge its move.
    ("rule_changer", """
        import pacsim.engine.state as rules
        rules.GameState.legal_actions = lambda self: ['North', 'South', 'East', 'West', 'Stop']
        return 'North'  # a wall above the start
        """, "illegal", "'North'"),
])
def test_a_failing_entrant_loses_with_its_fault(tmp_path, name, source, fault, said):
    limits = {"move_timeout": SHORT_MOVES, "cpu": dataclasses.replace(TEST_LIMITS, cpu_seconds=1, move_seconds=30.0)}.get(fault, TEST_LIMITS)
    record, _ = play(entrant(tmp_path, name, hostile(source)), limits)
    assert (record.outcome, record.fault) == ("loss", fault)
    assert said in (record.error or "") and record.moves == 0


def test_an_entrant_too_slow_to_start_is_a_startup_timeout(tmp_path):
    spec = entrant(tmp_path, "slow", "time.sleep(100)\n" + WELL_BEHAVED)
    record, _ = play(spec, dataclasses.replace(SHORT_MOVES, startup_seconds=0.5))
    assert (record.outcome, record.fault) == ("loss", "startup_timeout")


def test_the_time_bank_pays_for_slow_moves_until_it_runs_out(tmp_path):
    spec = entrant(tmp_path, "banker", hostile("time.sleep(0.6)\nreturn self.rng.choice(state.legal_actions())"))
    record, _ = play(spec, dataclasses.replace(TEST_LIMITS, move_seconds=0.2, time_bank=1.0))
    assert (record.fault, record.moves) == ("move_timeout", 2)  # 0.4 s over each move: the third overdraws


def test_a_ghost_entrants_fault_is_pacmans_win(tmp_path):
    spec = entrant(tmp_path, "ghost", hostile("raise RuntimeError('boo')"))
    ghost = sandboxed(GHOST, spec, {}, TEST_LIMITS)
    assert ghost is not None
    record = play_game(MAZE, [make_pacman("greedy"), ghost], seed=SEED, max_moves=20)
    assert (record.outcome, record.fault) == ("win", "crash") and record.error.startswith("agent 1 ")


def test_printing_megabytes_and_mutating_the_state_change_nothing(tmp_path):
    pristine = parse_layout(MAZE.text, "tiny")
    printer = entrant(tmp_path, "printer", hostile("""
        print('x' * (4 << 20))
        sys.stderr.write('y' * (4 << 20))
        return self.rng.choice(state.legal_actions())
        """))
    mutator = entrant(tmp_path, "mutator", hostile("""
        action = self.rng.choice(state.legal_actions())
        object.__setattr__(state.layout, 'walls', frozenset())
        object.__setattr__(state.layout, 'food', 0)
        return action
        """))
    good = play(entrant(tmp_path, "good", WELL_BEHAVED))[0]
    for spec in (printer, mutator):
        record, _ = play(spec)
        assert (record.fault, record.error) == (None, None)
        assert record.actions == good.actions
    assert (MAZE.walls, MAZE.food) == (pristine.walls, pristine.food)


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_forked_processes_die_with_the_game(tmp_path, isolation):
    require(isolation)
    marker = f"pacsim-sandbox-test-{uuid.uuid4()}"
    spec = entrant(tmp_path, "forker", hostile(f"""
        for _ in range(0 if hasattr(self, 'forked') else 8):  # on its first move: all it starts shares its memory
            self.forked = True
            try:
                if os.fork() == 0:
                    os.execv(sys.executable, [sys.executable, '-c', 'import time; time.sleep(60)', {marker!r}])
            except OSError:
                break
        return self.rng.choice(state.legal_actions())
        """))
    record, _ = play(spec, dataclasses.replace(TEST_LIMITS, isolation=isolation))
    assert record.fault is None and record.moves > 0  # it played on, its processes killed when the game ended
    assert not marked_processes_after(marker, seconds=5.0)


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_a_fork_bomb_is_stopped_by_count_even_for_root(tmp_path, isolation):
    require(isolation)
    optional.control_groups("pids")  # without it the count is RLIMIT_NPROC's, which exempts root
    marker = f"pacsim-sandbox-test-{uuid.uuid4()}"
    spec = entrant(tmp_path, "bomb", hostile(f"""
        started = 0
        for _ in range(20):
            try:
                if os.fork() == 0:
                    os.execv(sys.executable, [sys.executable, '-c', 'import time; time.sleep(60)', {marker!r}])
                started += 1
            except OSError:
                break
        return state.legal_actions()[0] if started < 6 else 'Jump'  # an illegal move says the count was not held
        """))
    record, _ = play(spec, dataclasses.replace(TEST_LIMITS, isolation=isolation, processes=6))
    assert record.fault is None and record.moves > 0, record.error
    assert not marked_processes_after(marker, seconds=5.0)


def marked_processes_after(marker: str, seconds: float) -> list[str]:
    """The processes whose command line holds ``marker``, once none is left or ``seconds`` have passed
    (the kernel tears a killed process tree down in moments, not at once)."""
    deadline = time.monotonic() + seconds
    while True:
        marked = [pid for pid in os.listdir("/proc") if pid.isdigit() and marker.encode() in command_line(pid)]
        if not marked or time.monotonic() > deadline:
            return marked
        time.sleep(0.05)


def command_line(pid: str) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def test_under_bubblewrap_an_entrant_sees_neither_other_entrants_nor_the_store_nor_the_network(tmp_path):
    require(BUBBLEWRAP)
    other = Path(entrant(tmp_path, "other", WELL_BEHAVED).rpartition(":")[0])
    store = tmp_path / "results" / "store.sqlite"
    store.parent.mkdir()
    sqlite3.connect(store).close()
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    port = listener.getsockname()[1]
    attempts = {
        "reader": f"open({str(other)!r}).read()",
        "store_opener": f"open({str(store)!r}, 'rb').read()",
        "caller": f"socket.create_connection(('127.0.0.1', {port}), timeout=0.2)",
    }
    for name, attempt in attempts.items():
        record, agent = play(entrant(tmp_path, name, hostile(attempt)), dataclasses.replace(TEST_LIMITS, isolation=BUBBLEWRAP))
        assert agent.level == BUBBLEWRAP
        assert (record.outcome, record.fault) == ("loss", "crash") and "Error" in (record.error or "")
    with pytest.raises(BlockingIOError):
        listener.accept()
    listener.close()


def test_only_code_from_outside_pacsim_needs_a_sandbox(tmp_path):
    assert not needs_sandbox("minimax:depth=2") and not needs_sandbox("random")
    assert needs_sandbox("my.py:Cautious") and needs_sandbox("package.module:Agent") and needs_sandbox("installed_name")
    assert needs_sandbox("expectimax:model=ghosts.py:Ambusher")
    assert sandboxed(PACMAN, "greedy", {}, TEST_LIMITS) is None


@pytest.mark.parametrize("given", [{"move_seconds": 0}, {"memory_mb": -1}, {"time_bank": -1.0}, {"isolation": "chroot"}])
def test_bad_limits_are_one_line_errors(given):
    with pytest.raises(ConfigError, match="sandbox"):
        Limits(**given)


def test_a_sandboxed_run_stores_each_fault_as_a_result_and_reports_it(tmp_path):
    good = entrant(tmp_path, "good", WELL_BEHAVED)
    raiser = entrant(tmp_path, "raiser", hostile("raise ValueError('no idea')"))
    experiment = tmp_path / "exp.toml"
    experiment.write_text(textwrap.dedent(f"""\
        name = "sandboxed"
        games = 2
        max_moves = 20
        store = "{tmp_path / 'results.sqlite'}"
        sandbox = {{ move_seconds = 2.0, memory_mb = 256 }}
        [grid]
        pacman = ["{good}", "{raiser}", "greedy"]
        ghosts = ["random"]
        layout = ["smallClassic"]
        """))
    first = run_experiment(load_experiment(experiment), workers=1, quiet=True)
    rows = load_results(first.store)
    by_pacman = {pacman: games for pacman, games in rows.groupby("pacman")}
    assert set(by_pacman[raiser]["fault"]) == {"crash"} and set(by_pacman[raiser]["outcome"]) == {"loss"}
    assert by_pacman[good]["fault"].isna().all() and by_pacman["greedy"]["sandbox"].isna().all()
    assert set(by_pacman[good]["sandbox"]) == {BUBBLEWRAP if bubblewrap_works() else LIMITS}
    assert list(summarize(rows, by=["pacman"]).set_index("pacman")["faults"][[good, raiser, "greedy"]]) == [0, 2, 0]
    assert "faults" in readable_summary(summarize(rows, by=["pacman"])).columns
    assert "faults" not in readable_summary(summarize(rows[rows["pacman"] == good], by=["pacman"])).columns
    again = run_experiment(load_experiment(experiment), workers=1, quiet=True)
    assert again.played == 0  # a fault is a result: a resumed run does not play it again
    faulted = load_saved_game(first.store, int(by_pacman[raiser]["id"].iloc[0]))
    assert summary(faulted, faulted.states()[-1], 0)[1]  # its replay agrees with the stored loss


def test_a_recorded_faulted_game_replays_as_recorded(tmp_path):
    record, _ = play(entrant(tmp_path, "jumper", hostile("return 'Jump'")))
    save_game(tmp_path / "game.json", record, MAZE, "jumper", ["random"])
    saved = game_from_dict(json.loads((tmp_path / "game.json").read_text()))
    assert (saved.fault, saved.outcome) == ("illegal", "loss")
    assert summary(saved, saved.states()[-1], record.moves)[1]


def test_the_sandbox_key_takes_true_or_limits(tmp_path):
    base = 'games = 1\n[grid]\npacman = ["greedy"]\nghosts = ["random"]\nlayout = ["smallClassic"]\n'
    for given, expected in (("true", Limits()), ("{ memory_mb = 512 }", Limits(memory_mb=512)), ("false", None)):
        (tmp_path / "exp.toml").write_text(f"sandbox = {given}\n" + base)
        assert load_experiment(tmp_path / "exp.toml").sandbox == expected
    for given, said in (("{ memroy_mb = 1 }", "sandbox.memroy_mb: unknown limit"), ("3", "must be true, false"),
                        ("{ move_seconds = -1 }", "move_seconds must be above 0")):
        (tmp_path / "exp.toml").write_text(f"sandbox = {given}\n" + base)
        with pytest.raises(ConfigError, match=said):
            load_experiment(tmp_path / "exp.toml")


def test_run_and_play_take_sandbox_on_the_command_line(tmp_path, capsys):
    good = entrant(tmp_path, "good", WELL_BEHAVED)
    experiment = tmp_path / "exp.toml"
    experiment.write_text(f'games = 1\nmax_moves = 10\nstore = "{tmp_path / "r.sqlite"}"\n'
                          f'[grid]\npacman = ["{good}"]\nghosts = ["random"]\nlayout = ["smallClassic"]\n')
    assert main(["run", str(experiment), "--sandbox", "--workers", "1", "--quiet"]) == 0
    level = BUBBLEWRAP if bubblewrap_works() else LIMITS
    assert f"isolated by {level}" in capsys.readouterr().out
    assert list(load_results(tmp_path / "r.sqlite")["sandbox"]) == [level]
    witness = tmp_path / "imported_by.txt"
    spinner = entrant(tmp_path, "spinner", f"open({str(witness)!r}, 'a').write(f'{{os.getpid()}}\\n')\n" +
                      hostile("while True:\n    pass"))
    assert main(["play", "-p", spinner, "-l", "smallClassic", "--sandbox", "-q", "--seed", "1", "--max-moves", "5"]) == 0
    assert "overran the 1.0s move limit" in capsys.readouterr().out
    assert not witness.exists() or str(os.getpid()) not in witness.read_text().split()  # (bubblewrap: it wrote its own /tmp)


def test_the_bench_measures_the_sandbox_against_the_plain_plugin():
    report = Report(machine={})
    sandbox_figures(report, games=1, max_moves=5)
    figures = {figure.name: figure.value for figure in report.figures if figure.group == "sandbox"}
    assert figures["plain plugin game"] > 0 and figures["sandboxed / plain (limits)"] > 0
    assert figures["fresh child / reused (limits)"] > 0
    assert ("sandboxed / plain (bubblewrap)" in figures) == bubblewrap_works()


def test_a_sandboxed_run_never_imports_an_entrant_in_pacsims_own_process(tmp_path):
    witness = tmp_path / "imported_by.txt"
    spec = entrant(tmp_path, "importer", f"open({str(witness)!r}, 'a').write(f'{{os.getpid()}}\\n')\n" + WELL_BEHAVED)
    text = (f'games = 1\nmax_moves = 5\nstore = "{tmp_path / "r.sqlite"}"\n'
            f'[grid]\npacman = ["{spec}"]\nghosts = ["random"]\nlayout = ["smallClassic"]\n')
    (tmp_path / "plain.toml").write_text(text)
    (tmp_path / "sandboxed.toml").write_text("sandbox = { isolation = 'limits', move_seconds = 2.0 }\n" + text)
    sandboxed_run = load_experiment(tmp_path / "sandboxed.toml")
    run_experiment(sandboxed_run, workers=1, quiet=True)
    importers = set(witness.read_text().split())
    assert importers and str(os.getpid()) not in importers  # only its sandboxes imported it
    plain_code = load_experiment(tmp_path / "plain.toml").conditions[0].code
    assert sandboxed_run.conditions[0].code == plain_code and list(plain_code) == [spec.rpartition(":")[0]]


def test_a_sandboxed_entrants_bad_option_fails_the_experiment_in_one_line(tmp_path):
    spec = entrant(tmp_path, "good", WELL_BEHAVED)
    (tmp_path / "exp.toml").write_text(f'sandbox = true\ngames = 1\n[grid]\npacman = ["{spec}:depth=2"]\n'
                                       'ghosts = ["random"]\nlayout = ["smallClassic"]\n')
    with pytest.raises(ConfigError, match=r"exp.toml: grid.pacman: agent .* in its sandbox: .*depth") as caught:
        load_experiment(tmp_path / "exp.toml")
    assert "\n" not in str(caught.value)


def test_a_sandboxed_grid_varies_the_options_an_entrant_declares_in_its_sandbox(tmp_path):
    spec = entrant(tmp_path, "optioned", """
        from dataclasses import dataclass

        @dataclass(frozen=True)
        class Options:
            margin: int = 2

        class Entrant(Agent):
            Options = Options

            def get_action(self, state):
                return state.legal_actions()[self.options.margin % len(state.legal_actions())]
        """)
    base = f'sandbox = true\ngames = 1\n[grid]\npacman = ["{spec}"]\nghosts = ["random"]\nlayout = ["smallClassic"]\n'
    (tmp_path / "exp.toml").write_text(base + "margin = [1, 3]\n")
    assert [condition.pacman_options for condition in load_experiment(tmp_path / "exp.toml").conditions] == \
        [{"margin": 1}, {"margin": 3}]
    (tmp_path / "exp.toml").write_text(base + "margn = [1, 3]\n")
    with pytest.raises(ConfigError, match=r"grid.margn: no Pacman of the grid takes option 'margn' \(their options: margin\)"):
        load_experiment(tmp_path / "exp.toml")


STATEFUL = """
GAMES = []


class Entrant(Agent):
    def reset(self, index, rng):
        super().reset(index, rng)
        self.moves = 0
        GAMES.append(index)

    def get_action(self, state):
        self.moves += 1  # state kept between moves: the choice depends on how many moves came before
        legal = state.legal_actions()
        return legal[(self.moves * 7 + self.rng.randrange(5) + len(GAMES) % 1) % len(legal)]
"""


def play_games(spec: str, limits: Limits, seeds: range, reuse: bool) -> tuple[list[GameRecord], list[int]]:
    """Games of the entrant ``spec`` one after another (each child kept for the next unless not ``reuse``),
    and the process each game ran in."""
    records, processes = [], []
    for seed in seeds:
        if not reuse:
            idle_children.end_all()
        agent = sandboxed(PACMAN, spec, {}, limits)
        assert agent is not None
        records.append(play_game(MAZE, [agent, make_ghost("random")], seed=seed, max_moves=20))
        processes.append(agent.process_id)
    return records, processes


def outcome(record: GameRecord) -> tuple:
    return record.outcome, record.score, record.moves, record.actions, record.fault, record.error


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_a_reused_child_plays_the_same_games_as_a_fresh_child_each_game(tmp_path, isolation):
    require(isolation)
    limits = dataclasses.replace(TEST_LIMITS, isolation=isolation)
    spec = entrant(tmp_path, "stateful", STATEFUL)
    plain = [play_game(MAZE, [make_pacman(spec), make_ghost("random")], seed=seed, max_moves=20) for seed in range(3)]
    reused, reused_processes = play_games(spec, limits, range(3), reuse=True)
    fresh, fresh_processes = play_games(spec, limits, range(3), reuse=False)
    assert [outcome(record) for record in reused] == [outcome(record) for record in fresh] == \
        [outcome(record) for record in plain]
    assert len(set(reused_processes)) == 1 and len(set(fresh_processes)) == 3


@pytest.mark.parametrize(("source", "fault"), [
    ("raise ValueError('second game')", "crash"),
    ("time.sleep(100)", "move_timeout"),
    ("hoard = [bytearray(1 << 24) for _ in range(1 << 20)]", "memory"),
])
def test_a_child_that_faulted_is_never_reused(tmp_path, source, fault):
    spec = entrant(tmp_path, "second_game", f"""
        GAMES = []


        class Entrant(Agent):
            def reset(self, index, rng):
                super().reset(index, rng)
                GAMES.append(index)

            def get_action(self, state):
                if len(GAMES) == 2:  # its second game in this process
                    {source}
                return self.rng.choice(state.legal_actions())
        """)
    limits = SHORT_MOVES if fault == "move_timeout" else TEST_LIMITS  # a loaded machine may take 0.3 s to allocate
    records, processes = play_games(spec, limits, range(3), reuse=True)
    assert [record.fault for record in records] == [None, fault, None]
    assert processes[0] == processes[1] != processes[2]
    assert not Path(f"/proc/{processes[1]}").exists()


def test_idle_children_are_kept_only_within_their_memory_budget(tmp_path, monkeypatch):
    spec = entrant(tmp_path, "good", WELL_BEHAVED)
    monkeypatch.setattr(room, "IDLE_MEMORY_MB", 1)  # less than any Python process holds
    assert len(set(play_games(spec, TEST_LIMITS, range(2), reuse=True)[1])) == 2
    assert not idle_children.children.get(sandboxed(PACMAN, spec, {}, TEST_LIMITS).room.key)


def test_a_reused_child_gets_its_cpu_time_afresh_each_game(tmp_path):
    spec = entrant(tmp_path, "burner", """
        class Entrant(Agent):
            def reset(self, index, rng):
                super().reset(index, rng)
                self.burnt = False

            def get_action(self, state):
                if not self.burnt:  # 1.2 s of CPU time a game: two games overrun a budget of 2 s for the process
                    started = time.process_time()
                    while time.process_time() - started < 1.2:
                        pass
                    self.burnt = True
                return self.rng.choice(state.legal_actions())
        """)
    limits = dataclasses.replace(TEST_LIMITS, cpu_seconds=2, move_seconds=30.0)
    records, processes = play_games(spec, limits, range(2), reuse=True)
    assert [record.fault for record in records] == [None, None] and processes[0] == processes[1]


WORKER = """
import os, sys
from pacsim.agents import make_ghost
from pacsim.agents.registry import PACMAN
from pacsim.agents.sandboxed import sandboxed
from pacsim.sandbox.limits import Limits
from pacsim.sandbox.processes import process_tree
from pacsim.sandbox.room import idle_children
from pacsim.engine import parse_layout
from pacsim.engine.game import play_game

maze = parse_layout(sys.argv[3], "tiny")
agent = sandboxed(PACMAN, sys.argv[1], {}, Limits(isolation=sys.argv[2]))
record = play_game(maze, [agent, make_ghost("random")], seed=1, max_moves=5)
(children,) = idle_children.children.values()
print(" ".join(str(pid) for process, _ in children for pid in process_tree(process.pid)), flush=True)
os._exit(0)  # no clean-up: the kernel must take the idle child with the worker
"""


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_an_idle_child_dies_with_its_worker(tmp_path, isolation):
    require(isolation)
    spec = entrant(tmp_path, "idle", WELL_BEHAVED)
    printed = subprocess.run([sys.executable, "-c", WORKER, spec, isolation, MAZE.text], capture_output=True, text=True,
                             check=True, timeout=60).stdout
    children = printed.split()
    assert children  # the worker kept its child for a next game
    deadline = time.monotonic() + 5.0
    while any(command_line(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(command_line(pid) for pid in children)


def test_compare_takes_sandbox_and_scores_a_faulting_entrant(tmp_path, capsys):
    good = entrant(tmp_path, "good", WELL_BEHAVED)
    raiser = entrant(tmp_path, "raiser", hostile("raise ValueError('no idea')"))
    store = tmp_path / "compare.sqlite"
    arguments = ["compare", good, raiser, "-l", "tinyGhostMaze", "-j", "1", "--pairs", "2", "--max-moves", "10"]
    assert main([*arguments, "--store", str(store), "--sandbox"]) == 0  # sandboxed, it is the raiser's loss
    assert not imported_here(good) and not imported_here(raiser)  # the comparing process never ran their code
    assert main([*arguments, "--store", str(tmp_path / "plain.sqlite")]) == 2  # in-process, the raise is an error
    assert imported_here(good)  # unsandboxed, it was (the check above can fail)
    rows = load_results(store)
    by_pacman = {pacman: games for pacman, games in rows.groupby("pacman")}
    assert set(by_pacman[raiser]["fault"]) == {"crash"} and by_pacman[good]["fault"].isna().all()
    assert set(rows["sandbox"]) == {BUBBLEWRAP if bubblewrap_works() else LIMITS}
