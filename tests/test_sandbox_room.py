"""The isolation room, level by level (issue 47 item 1, issue 43 items 5 and 7).

Each level's tests go through tests/optional.py: the limits-only tests run
anywhere; the control-group tests need this machine's groups of their
version (v1 or v2) writable; the bubblewrap tests need bwrap able to create
namespaces.  Under CI a part that is missing fails instead of skipping.
"""

from __future__ import annotations

import dataclasses
import os
import random
import shutil
import signal
from pathlib import Path

import optional
import pytest
from test_sandbox import MAZE, TEST_LIMITS, entrant, play

from pacsim.agents.registry import GHOST, PACMAN
from pacsim.agents.sandboxed import HOST, built_kernel, entrant_folder, shareable
from pacsim.engine.state import apply_move, initial_state
from pacsim.fast.cache_folder import CACHE_ENVIRONMENT
from pacsim.runner import tournament
from pacsim.runner.tournament import build_tournament
from pacsim.sandbox import cgroups, processes
from pacsim.sandbox.cgroups import Budget, ChildGroup
from pacsim.sandbox.handin import MAX_DEPTH
from pacsim.sandbox.limits import BUBBLEWRAP, LIMITS
from pacsim.sandbox.room import Room, Seat, Tenant, idle_children

HONEST = """from pacsim.agents import Agent

class Honest(Agent):
    def get_action(self, state):
        return self.rng.choice(state.legal_actions())
"""


@pytest.fixture(autouse=True)
def no_idle_children():
    idle_children.end_all()
    yield
    idle_children.end_all()


@pytest.fixture
def signals_sent(monkeypatch):
    """Every signal the room sends, recorded instead of sent: (kind, id, signal)."""
    sent: list[tuple[str, int, int]] = []
    monkeypatch.setattr(os, "kill", lambda pid, number: sent.append(("kill", pid, number)))
    monkeypatch.setattr(os, "killpg", lambda group, number: sent.append(("killpg", group, number)))
    return sent


# -- limits only: anywhere -------------------------------------------------------

def test_no_signal_goes_to_a_process_id_of_zero_or_below(tmp_path, signals_sent):
    """A group's ``cgroup.procs`` lists a process of another pid namespace as 0: kill(0) would hit pacsim's own
    process group, kill(-1) every process it may signal."""
    (tmp_path / "cgroup.procs").write_text("0\n-1\n4242\n")
    group = ChildGroup({"pids": tmp_path}, 1)
    group.park(suspect=False)
    group.unpark()
    group.end(seconds=0.05)
    processes.signal_group(0, signal.SIGKILL)
    processes.signal_process(-1, signal.SIGKILL)
    (tmp_path / "pacsim-sandbox-0-abcd").mkdir()  # an orphan's folder naming process 0 as its owner
    cgroups.remove_orphans(tmp_path, "pids")
    assert ("kill", 4242, signal.SIGSTOP) in signals_sent and ("kill", 4242, signal.SIGKILL) in signals_sent
    assert all(target > 0 for _, target, _ in signals_sent), signals_sent


def deep_hand_in(folder: Path, depth: int) -> None:
    folder.mkdir(parents=True)
    (folder / "agent.py").write_text(HONEST)
    descriptor = os.open(folder, os.O_RDONLY)
    try:  # one level at a time, through descriptors: the path grows past what one call may name
        for _ in range(depth):
            os.mkdir("d", dir_fd=descriptor)
            inner = os.open("d", os.O_RDONLY, dir_fd=descriptor)
            os.close(descriptor)
            descriptor = inner
        os.close(os.open("deepest.txt", os.O_CREAT | os.O_WRONLY, dir_fd=descriptor))
    finally:
        os.close(descriptor)


def flatten(folder: Path) -> None:
    """Take a deep chain of ``d`` folders apart from the top, one level a step (pytest's clean-up, and
    :func:`shutil.rmtree`, recurse)."""
    while (folder / "d").is_dir():
        if (folder / "d" / "d").is_dir():
            os.rename(folder / "d" / "d", folder / "next")
        shutil.rmtree(folder / "d")
        if (folder / "next").exists():
            os.rename(folder / "next", folder / "d")


@pytest.fixture
def deep_folder(tmp_path):
    """A hand-in 1,100 folders deep, taken apart afterwards."""
    folder = tmp_path / "students" / "deep"
    deep_hand_in(folder, 1100)
    yield folder
    flatten(folder)


def test_a_hand_in_1100_folders_deep_is_not_played_and_the_others_are(tmp_path, deep_folder):
    students = deep_folder.parent
    (students / "alice").mkdir()
    (students / "alice" / "agent.py").write_text(HONEST)
    built = build_tournament({"pacman": [str(students)], "layouts": ["tinyGhostMaze"], "pairs": 1,
                              "store": str(tmp_path / "t.sqlite")}, sandboxed=False)
    refused = {entrant.name: entrant.error for entrant in built.refused}
    assert set(refused) == {"deep"} and f"nest over {MAX_DEPTH} deep" in refused["deep"]
    assert any("alice" in entrant.spec for entrant in built.pacmen)


def test_a_hand_in_at_the_depth_limit_is_copied_whole(tmp_path):
    deep_hand_in(tmp_path / "students" / "deep", MAX_DEPTH)
    (found,) = tournament.discover([str(tmp_path / "students" / "deep")], PACMAN, tmp_path / "t.sqlite.entrants")
    assert found.error is None
    copy = Path(found.spec.rpartition(":")[0]).parent
    assert [path.name for path in copy.rglob("deepest.txt")] == ["deepest.txt"]


def test_any_exception_preparing_one_entrant_is_its_own_not_played_line(tmp_path, monkeypatch):
    students = tmp_path / "students"
    for name in ("alice", "bob"):
        (students / name).mkdir(parents=True)
        (students / name / "agent.py").write_text(HONEST)
    copy = tournament.snapshot

    def snapshot(folder, *arguments, **keywords):
        if folder.name == "bob":
            raise KeyError("a bug met while copying bob")
        return copy(folder, *arguments, **keywords)
    monkeypatch.setattr(tournament, "snapshot", snapshot)
    found = {entrant.name: entrant for entrant in tournament.discover([str(students)], PACMAN, tmp_path / "s")}
    assert found["alice"].error is None
    assert "could not be prepared (KeyError" in found["bob"].error and "a bug met while copying bob" in found["bob"].error


def test_only_a_folder_of_the_users_own_that_no_one_else_can_write_is_shared(tmp_path):
    folder = tmp_path / "cache" / "kernel"
    folder.mkdir(parents=True)
    (folder / "signatures.json").write_text("{}")
    assert shareable(folder)
    (folder / "signatures.json").chmod(0o666)  # another user could have planted it
    assert not shareable(folder)
    (folder / "signatures.json").chmod(0o644)
    (tmp_path / "cache").chmod(0o777)  # a shared, world-writable cache folder
    assert not shareable(folder)
    (tmp_path / "cache").chmod(0o755)
    (folder / "link.so").symlink_to(tmp_path)
    assert not shareable(folder)


def test_a_built_kernel_someone_else_could_have_written_is_not_shown_to_a_child(tmp_path, monkeypatch):
    from pacsim.fast import aot

    kernel = tmp_path / "cache" / "kernel-0123"
    kernel.mkdir(parents=True)
    (kernel / aot.SIGNATURES).write_text("{}")
    monkeypatch.setattr(aot, "module_folder", lambda: kernel)
    monkeypatch.setattr(aot, "cache_root", lambda: kernel.parent)
    monkeypatch.delenv(aot.KERNEL_ENVIRONMENT, raising=False)
    assert built_kernel(BUBBLEWRAP)[0] == ((kernel, f"/tmp/pacsim-cache/{kernel.name}"),)
    assert built_kernel(LIMITS) == ((), ((CACHE_ENVIRONMENT, str(kernel.parent)),))
    (kernel / aot.SIGNATURES).chmod(0o666)
    assert built_kernel(BUBBLEWRAP) == built_kernel(LIMITS) == ((), ())


def test_a_folder_another_user_owns_is_not_shared(tmp_path):
    optional.root()
    folder = tmp_path / "kernel"
    folder.mkdir()
    (folder / "pacsim_kernel.so").write_bytes(b"")
    assert shareable(folder)
    os.chown(folder / "pacsim_kernel.so", 65534, 65534)
    assert not shareable(folder)


def test_one_child_hosts_a_team_of_agents_each_move_naming_its_seat(tmp_path):
    """The interface a capture team will use: two agents of one entrant in one child, each request naming
    the seat that moves (here a Pacman and a ghost of one file, at the limits level)."""
    spec = entrant(tmp_path, "team", """
        class Entrant(Agent):
            def get_action(self, state):
                return sorted(state.legal_actions())[-1]
        """)
    folder, child_spec = entrant_folder(spec)
    room = Room(Tenant(HOST, folder, "a team of two"), dataclasses.replace(TEST_LIMITS, isolation=LIMITS))
    first = initial_state(MAZE)
    action, target = sorted(first.legal_moves())[-1]
    states = [first, apply_move(first, action, target)]  # Pacman's turn, then the ghost's
    try:
        room.open([Seat(PACMAN, child_spec, {}, 0, random.Random(1)), Seat(GHOST, child_spec, {}, 1, random.Random(2))])
        assert room.started()["ready"] is True
        room.send(("layout", MAZE), 5.0)
        for index, state in enumerate(states):
            room.send(("move", index, tuple(state)[1:]), 5.0)
            assert room.receive(5.0, "move_timeout", "move")["action"] == sorted(state.legal_actions())[-1]
    finally:
        room.stop()


# -- control groups v1 and v2 -----------------------------------------------------

def fake_v2_tree(root: Path, busy: list[Path]) -> None:
    """A unified tree whose root and ``busy`` groups cannot hand controllers down (their ``cgroup.subtree_control``
    a folder: any write fails, as the kernel refuses a group holding processes, or a user the root)."""
    for folder in (root, *busy):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "cgroup.controllers").write_text("cpu memory pids\n")
        (folder / "cgroup.subtree_control").mkdir()


def test_v2_groups_are_made_in_the_users_delegated_subtree(tmp_path, monkeypatch):
    """Not only at the root: the nearest group of pacsim's own branch that can hand controllers down."""
    root = tmp_path / "cgroup"
    delegated = root / "user.slice" / "user@1000.service"
    leaf = delegated / "app.slice" / "pacsim.scope"
    fake_v2_tree(root, [leaf])
    (delegated / "app.slice").mkdir(exist_ok=True)
    (delegated / "app.slice" / "cgroup.subtree_control").mkdir()  # holds a process of its own too
    (delegated / "cgroup.controllers").write_text("cpu memory pids\n")
    (delegated / "cgroup.subtree_control").write_text("")
    (tmp_path / "self").write_text("0::/user.slice/user@1000.service/app.slice/pacsim.scope\n")
    monkeypatch.setattr(cgroups, "ROOT", root)
    monkeypatch.setattr(cgroups, "SELF", tmp_path / "self")
    group = cgroups.make_group(Budget(processes=7, memory_bytes=1 << 28))
    assert group is not None and group.version == 2
    (folder,) = set(group.folders.values())
    assert folder.parent == delegated and folder.name.startswith(cgroups.PREFIX)
    assert (delegated / "cgroup.subtree_control").read_text() == "+pids +memory +cpu"
    assert (folder / "pids.max").read_text() == "7" and (folder / "memory.max").read_text() == str(1 << 28)
    assert set(group.controllers()) == {"cpu", "freezer", "memory", "pids"}


def test_without_a_writable_group_in_its_branch_there_is_no_v2_group(tmp_path, monkeypatch):
    root = tmp_path / "cgroup"
    fake_v2_tree(root, [root / "user.slice" / "session.scope"])
    (tmp_path / "self").write_text("0::/user.slice/session.scope\n")
    monkeypatch.setattr(cgroups, "ROOT", root)
    monkeypatch.setattr(cgroups, "SELF", tmp_path / "self")
    monkeypatch.setattr(cgroups, "writable", lambda folder: folder != root / "user.slice")  # root's, not the user's
    assert cgroups.make_group(Budget(processes=7, memory_bytes=1 << 28)) is None


@pytest.mark.parametrize("version", [1, 2])
def test_a_childs_group_holds_every_controller_and_ends_with_it(version):
    optional.cgroup_version(version)
    group = cgroups.make_group(Budget(processes=5, memory_bytes=1 << 28))
    assert group is not None and group.version == version
    try:
        assert set(group.controllers()) >= set(cgroups.CONTROLLERS)
        folders = set(group.folders.values())
        assert all(folder.name.startswith(cgroups.PREFIX) and folder.is_dir() for folder in folders)
        if version == 2:
            assert any(folder.parent in cgroups.v2_parents() for folder in folders)
    finally:
        group.end()
    assert not any(folder.exists() for folder in folders)


# -- bubblewrap -------------------------------------------------------------------

FILLER = """
class Entrant(Agent):
    def get_action(self, state):
        written = 0
        try:
            for index in range(64):
                with open(f'/dev/shm/filler{index}', 'wb') as file:
                    file.write(b'x' * (1 << 19))
                written += 1 << 19
        except OSError:
            pass
        planted = []
        for path in ('/planted', '/dev/planted', '/usr/planted'):
            try:
                open(path, 'w').write('x' * 100)
                planted.append(path)
            except OSError:
                pass
        if written > 1 << 20 or planted:
            return f'Jump: {written} bytes in /dev/shm, wrote {planted}'
        return self.rng.choice(state.legal_actions())
"""


def test_without_a_memory_group_shm_is_sized_and_the_root_read_only(tmp_path, monkeypatch):
    """An ordinary user's run has no memory group: files in /dev/shm and / would be held in memory, unbounded."""
    optional.bubblewrap()
    monkeypatch.setattr(cgroups, "make_group", lambda budget: None)
    record, agent = play(entrant(tmp_path, "filler", FILLER), dataclasses.replace(TEST_LIMITS, isolation=BUBBLEWRAP))
    assert agent.level == BUBBLEWRAP
    assert (record.fault, record.error) == (None, None)


SUBCLASS = """
import os
from pathlib import Path

from pacsim.agents.search_agents import AlphaBetaPacman


class Entrant(AlphaBetaPacman):
    def get_action(self, state):
        cache = Path(os.environ["PACSIM_CACHE_DIR"])
        (cache / "users-code").mkdir(exist_ok=True)  # a user's compiled code is kept here: writable
        (kernel,) = cache.glob("kernel-*")
        try:
            (kernel / "planted.py").write_text("import os")
            return "Jump: the shared kernel is writable"
        except OSError:
            return super().get_action(state)
"""


def test_a_hand_in_subclassing_a_built_in_search_starts_within_the_startup_limit(tmp_path):
    """The child loads the user's built kernel, shown read-only, instead of building its own (a minute)."""
    optional.bubblewrap()
    from pacsim.fast import aot

    if not aot.available_exports():
        optional.missing("needs the ahead-of-time kernel built (a C compiler): the suite's warm-up builds it")
    ((outside, inside),), environment = built_kernel(BUBBLEWRAP)
    assert outside == aot.module_folder() and Path(inside).parent == Path(dict(environment)[CACHE_ENVIRONMENT])
    spec = entrant(tmp_path, "subclass", SUBCLASS)
    record, _ = play(spec, dataclasses.replace(TEST_LIMITS, isolation=BUBBLEWRAP, startup_seconds=10.0))
    assert (record.fault, record.error) == (None, None) and record.moves > 0
