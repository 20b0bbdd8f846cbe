"""Hostile entrants against the sandbox's operating-system side: privileges, forged messages, starvation, idle work
and memory no address-space limit sees. Each is contained and scored (docs/sandbox.md, issue 35)."""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import optional
import pytest
from test_sandbox import MAZE, SEED, TEST_LIMITS, WELL_BEHAVED, entrant, play, play_games, require

from pacsim.agents.registry import GHOST, PACMAN
from pacsim.agents.sandboxed import SandboxedAgent, sandboxed
from pacsim.engine.game import AgentFault, play_game
from pacsim.sandbox.bubblewrap import bubblewrap_command, bubblewrap_works
from pacsim.sandbox.isolation import FULL, WEAK, control_groups, isolation, isolation_summary
from pacsim.sandbox.limits import BUBBLEWRAP, LIMITS
from pacsim.sandbox.processes import cpu_seconds_used, process_tree
from pacsim.sandbox.protocol import PROTOCOL, nesting
from pacsim.sandbox.room import idle_children


@pytest.fixture
def memory_and_freezer_groups():
    """Control groups with memory and freezer controllers (:func:`optional.control_groups`)."""
    optional.control_groups("memory", "freezer")


@pytest.fixture(autouse=True)
def no_idle_children():
    idle_children.end_all()
    yield
    idle_children.end_all()


# -- privileges ---------------------------------------------------------------

BREACHES = """
import ctypes, os, site, sysconfig


def breaches():
    found = [line for line in open('/proc/self/status') if line.startswith('Cap') and int(line.split()[1], 16)]
    libc = ctypes.CDLL(None, use_errno=True)
    for line in open('/proc/self/mountinfo'):
        target = line.split()[4]
        if libc.mount(None, target.encode(), None, 32 | 4096 | 1 << 5, None) == 0:  # MS_REMOUNT | MS_BIND, rw
            found.append('remounted ' + target)
    for folder in {sysconfig.get_paths()['purelib'], *site.getsitepackages()}:
        try:
            open(os.path.join(folder, 'pacsim-escape.pth'), 'w').write('import os')
            found.append('wrote into ' + folder)
        except OSError:
            pass
    return found
"""
PRIVILEGE_PROBE = BREACHES + """

class Entrant(Agent):
    def get_action(self, state):
        found = breaches()
        if found:
            raise RuntimeError('; '.join(found)[:400])
        return self.rng.choice(state.legal_actions())
"""

def test_inside_bubblewrap_an_entrant_has_no_capability_and_can_neither_remount_nor_write_python(tmp_path):
    require(BUBBLEWRAP)
    record, agent = play(entrant(tmp_path, "escaper", PRIVILEGE_PROBE), dataclasses.replace(TEST_LIMITS, isolation=BUBBLEWRAP))
    assert agent.level == BUBBLEWRAP
    assert (record.fault, record.error) == (None, None)


def others_can_read(path: Path) -> bool:
    """Whether a user of no group of its owner's can reach ``path`` and read it (every folder above it searchable)."""
    folders = [path, *path.parents] if path.is_dir() else list(path.parents)
    return all(os.stat(folder).st_mode & 0o001 for folder in folders) and bool(os.stat(path).st_mode & 0o004)


def test_as_an_ordinary_user_too():
    """The same probe as nobody, in the sandbox's own bwrap command (the system's Python: nobody cannot read root's)."""
    require(BUBBLEWRAP)
    python = "/usr/bin/python3"
    optional.root()
    if shutil.which("setpriv") is None or not os.access(python, os.X_OK):
        optional.missing("needs setpriv (util-linux, to become nobody) and a system Python nobody can run")
    folder = Path(tempfile.mkdtemp(prefix="pacsim-nobody-"))
    try:
        folder.chmod(0o755)
        jail = bubblewrap_command(folder, dataclasses.replace(TEST_LIMITS, memory_mb=64))
        for index in reversed(range(len(jail) - 2)):  # binds of root's own folders (its Python, a venv) nobody cannot make
            if jail[index] == "--ro-bind" and not others_can_read(Path(jail[index + 1])):
                del jail[index:index + 3]
        command = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups", *jail, python, "-c",
                   BREACHES + "print(breaches())"]
        finished = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd="/", env={"PATH": os.defpath})
        assert (finished.returncode, finished.stdout.strip()) == (0, "[]"), finished.stderr
    finally:
        shutil.rmtree(folder)


def test_the_isolation_says_how_strong_it_is():
    weak = isolation_summary(dataclasses.replace(TEST_LIMITS, isolation=LIMITS))
    assert weak.startswith(f"{WEAK} isolation: resource limits") and "read what pacsim's user can" in weak
    if bubblewrap_works() and set(control_groups()) == {"cpu", "freezer", "memory", "pids"}:
        assert isolation(TEST_LIMITS).strength == FULL
        assert isolation_summary(TEST_LIMITS).startswith(f"{FULL} isolation: bubblewrap (own user")


# -- forged messages and numbers no row can hold --------------------------------

FORGE = """
def forge(line):
    for descriptor in map(int, os.listdir('/proc/self/fd')):
        if descriptor > 2:
            try:
                os.write(descriptor, line.encode() + b'\\n')  # only the reply pipe takes it
            except OSError:
                pass

"""
FORGER = FORGE + """
class Entrant(Agent):
    def get_action(self, state):
        forge({line!r}.replace('ACTION', state.legal_actions()[0]))
        return state.legal_actions()[0]
"""
PLANTER = FORGE + """
class Entrant(Agent):
    def reset(self, index, rng):
        super().reset(index, rng)
        forge({line!r})  # before the child's own ready reply

    def get_action(self, state):
        return state.legal_actions()[0]
"""
MOVE = '"action": "ACTION", "type": "str"'


@pytest.mark.parametrize(("line", "said"), [
    ("[" * 100_000, "nested over 3 deep"),
    ("{" + MOVE + ', "stats": {"generated": ' + "9" * 30 + "}}", "generated=999"),
    ("{" + MOVE + ', "stats": {"value": NaN}}', "NaN"),
    ("{" + MOVE + ', "stats": {"value": 1e999}}', "is no finite number"),
    ("{" + MOVE + ', "stats": {"seconds": "soon"}}', "seconds=soon"),
    ("{" + MOVE + ', "root_seed": 12}', "keys"),
    ('{"ready": true, "depth": 1, "options": [], "used": []}', "keys"),
    ("x" * 200_000, "bytes without an answer"),  # its end unread: refused at 64 KB
], ids=["nested", "huge_count", "nan", "infinite", "text_seconds", "extra_key", "wrong_reply", "flood"])
def test_a_forged_reply_is_the_forgers_protocol_fault(tmp_path, line, said):
    record, _ = play(entrant(tmp_path, "forger", FORGER.format(line=line)))
    assert (record.outcome, record.fault) == ("loss", PROTOCOL), record.error
    assert said in (record.error or "")


def test_a_forged_start_reply_cannot_plant_a_depth_no_row_holds(tmp_path):
    line = '{"ready": true, "depth": ' + "9" * 25 + ', "options": [], "used": []}'
    spec = entrant(tmp_path, "planter", PLANTER.format(line=line))
    with pytest.raises(AgentFault) as caught:
        SandboxedAgent(PACMAN, spec, {}, TEST_LIMITS).check()
    assert caught.value.kind == PROTOCOL and "depth=" in str(caught.value)


def test_honest_statistics_too_large_for_a_row_are_a_protocol_fault_and_an_odd_depth_is_dropped(tmp_path):
    spec = entrant(tmp_path, "boaster", """
        from pacsim.agents.api import MoveStats

        class Entrant(Agent):
            depth = 1 << 70

            def get_action(self, state):
                self.last_stats = MoveStats(generated=1 << 70)
                return state.legal_actions()[0]
        """)
    assert SandboxedAgent(PACMAN, spec, {}, TEST_LIMITS).check().depth is None
    record, _ = play(spec)
    assert record.fault == PROTOCOL and "generated=" in (record.error or "")


def test_nesting_counts_brackets_outside_strings_only():
    assert nesting(b'{"a": "[[[[\\"{{", "b": [[1]]}') == 3
    assert nesting(b"[" * 50 + b"]" * 50) == 50


# -- fair time --------------------------------------------------------------------

STARVER = """
import threading


def spin():
    while True:
        pass


class Entrant(Agent):
    def get_action(self, state):
        if not hasattr(self, 'started'):
            self.started = True
            for _ in range(30):  # processes each in a session (and a scheduler group) of its own
                if os.fork() == 0:
                    os.setsid()
                    spin()
            threading.Thread(target=spin, daemon=True).start()
        return self.rng.choice(state.legal_actions())
"""
HONEST = """
from pacsim.agents.api import MoveStats


class Entrant(Agent):
    def get_action(self, state):
        wall, cpu = time.monotonic(), time.process_time()
        while time.process_time() - cpu < {cpu} and time.monotonic() - wall < {wall}:  # fixed CPU work, capped in wall time
            pass
        self.last_stats = MoveStats(value=(time.process_time() - cpu) / (time.monotonic() - wall))  # its CPU share
        return self.rng.choice(state.legal_actions())
"""


@pytest.mark.usefixtures("memory_and_freezer_groups")
def test_a_starving_entrant_cannot_take_the_cpu_from_an_honest_one(tmp_path):
    """The honest Pacman spends 0.3 s of CPU time a move, stopping after 0.5 s of wall time (half its move
    limit, so a loaded machine cannot make it overrun: at 0.8 of a 0.6 s limit, one did); its share of the CPU
    against a starving ghost is compared with its share against a calm one, in the same minute of the same
    machine."""
    limits = dataclasses.replace(TEST_LIMITS, move_seconds=1.0)
    honest = entrant(tmp_path, "honest", HONEST.format(cpu=0.3, wall=0.5))

    def shares(ghost_spec: str) -> tuple[str | None, float]:
        ghost_limits = dataclasses.replace(limits, move_seconds=10.0)  # time to start its 30 spinners
        agents = [sandboxed(PACMAN, honest, {}, limits), sandboxed(GHOST, ghost_spec, {}, ghost_limits)]
        try:
            record = play_game(MAZE, agents, seed=SEED, max_moves=3)
        finally:
            for agent in agents:
                agent.stop()
        later = [stats.value or 0.0 for stats in record.search_stats[1:]]  # the starver starts on its first move
        return record.fault, sum(later) / max(1, len(later))

    calm_fault, calm = shares(entrant(tmp_path, "calm", WELL_BEHAVED))
    starved_fault, starved = shares(entrant(tmp_path, "starver", STARVER))
    assert (calm_fault, starved_fault) == (None, None) and calm > 0
    assert starved >= calm / 2, (starved, calm)


IDLE_SPINNER = """
import threading


def spin():
    while True:
        pass


threading.Thread(target=spin, daemon=True).start()  # at import: part of the child as its agent was built
""" + WELL_BEHAVED


@pytest.mark.usefixtures("memory_and_freezer_groups")
def test_nothing_of_an_idle_child_runs_between_games(tmp_path):
    spec = entrant(tmp_path, "idler", IDLE_SPINNER)
    records, _ = play_games(spec, TEST_LIMITS, range(1), reuse=True)
    assert records[0].fault is None
    (waiting,) = idle_children.children.values()
    tree = process_tree(waiting[0][0].pid)
    before = sum(cpu_seconds_used(pid) for pid in tree)
    time.sleep(0.5)
    assert sum(cpu_seconds_used(pid) for pid in tree) - before < 0.05


def test_a_child_whose_threads_grew_is_not_reused(tmp_path):
    spec = entrant(tmp_path, "threader", """
        import threading

        class Entrant(Agent):
            def get_action(self, state):
                if threading.active_count() == 1:  # one thread more, that outlives its game
                    threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
                return self.rng.choice(state.legal_actions())
        """)
    records, processes = play_games(spec, TEST_LIMITS, range(2), reuse=True)
    assert [record.fault for record in records] == [None, None] and processes[0] != processes[1]


# -- memory no address-space limit sees ---------------------------------------------

PINNER = """
class Entrant(Agent):
    def get_action(self, state):
        chunk = b'x' * (1 << 20)
        {pin}
        return state.legal_actions()[0]
"""
MEMFD = "pinned = os.memfd_create('pin')\nfor _ in range(400):\n    os.write(pinned, chunk)"
TMPFS = "for number in range(400):\n    open(f'/tmp/pin{number}', 'wb').write(chunk)"


@pytest.mark.usefixtures("memory_and_freezer_groups")
@pytest.mark.parametrize(("isolation_wanted", "pin"), [(LIMITS, MEMFD), (BUBBLEWRAP, MEMFD), (BUBBLEWRAP, TMPFS)],
                         ids=["memfd_limits", "memfd_bubblewrap", "tmpfs_bubblewrap"])
def test_memory_pinned_outside_the_address_space_is_a_memory_fault(tmp_path, isolation_wanted, pin):
    require(isolation_wanted)
    limits = dataclasses.replace(TEST_LIMITS, isolation=isolation_wanted, memory_mb=256, file_mb=512, move_seconds=20.0)
    pinned = PINNER.format(pin=pin.replace("\n", "\n        "))
    record, _ = play(entrant(tmp_path, "pinner", pinned), limits)
    assert (record.outcome, record.fault) == ("loss", "memory"), record.error

