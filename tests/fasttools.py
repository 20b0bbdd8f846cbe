"""Games played twice, with the fast path off and on, for the kernel tests."""

from pacsim.agents import make_ghost, make_pacman
from pacsim.bench.agreement import untimed
from pacsim.engine import load_layout, play_game
from pacsim.engine.stats import FAST, PYTHON


def assert_same_games_on_and_off(pacman_spec, seeds, max_moves):
    """Play ``seeds`` on smallClassic against a random and a directional
    ghost with ``pacman_spec`` and ``backend=python``, then ``backend=fast``
    (one agent per backend plays every seed, so whatever it keeps between
    games is reset as in a run); the moves and every move's statistics but
    its time and backend must be equal, and each move must say which backend
    searched it.  Returns the fast Pacman."""
    layout = load_layout("smallClassic")
    records = {}
    for backend in (PYTHON, FAST):
        pacman = make_pacman(f"{pacman_spec},backend={backend}")
        agents = [pacman, make_ghost("random"), make_ghost("directional")]
        records[backend] = [play_game(layout, agents, seed=seed, max_moves=max_moves) for seed in seeds]
        assert {move.backend for record in records[backend] for move in record.search_stats} == {backend}
    for python, fast in zip(records[PYTHON], records[FAST]):
        assert untimed(fast) == untimed(python) and fast.moves > 10
    return pacman


def memos_set(monkeypatch, *, chase: bool, pacman: bool, subtree: bool) -> None:
    """Every memo of this process emptied (this thread's subtree memo too) and each memo's switch set as given:
    a memo test then depends neither on the tests its worker ran before nor on the environment it was started in."""
    from pacsim.fast.memo import PACMAN_SWITCH, SWITCH, forget_memos
    from pacsim.fast.subtree_memo import SWITCH as SUBTREE_SWITCH
    from pacsim.fast.subtree_memo import forget_this_threads_memos

    forget_memos()
    forget_this_threads_memos()
    for switch, on in ((SWITCH, chase), (PACMAN_SWITCH, pacman), (SUBTREE_SWITCH, subtree)):
        monkeypatch.setenv(switch, "1" if on else "0")
