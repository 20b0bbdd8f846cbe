"""Games played twice, with the fast path off and on, for the kernel tests."""

from pacsim.agents import make_ghost, make_pacman
from pacsim.engine import load_layout, play_game


def assert_same_games_on_and_off(pacman_spec, seeds, max_moves):
    """Play ``seeds`` on smallClassic against a random and a directional
    ghost with ``pacman_spec`` and ``engine=python``, then ``engine=fast``
    (one agent per engine plays every seed, so whatever it keeps between
    games is reset as in a run); the moves and every move's statistics but
    its time must be equal.  Returns the fast Pacman."""
    layout = load_layout("smallClassic")
    records = []
    for engine in ("python", "fast"):
        pacman = make_pacman(f"{pacman_spec},engine={engine}")
        agents = [pacman, make_ghost("random"), make_ghost("directional")]
        records.append([play_game(layout, agents, seed=seed, max_moves=max_moves) for seed in seeds])
    for python, fast in zip(*records):
        untimed = [[{key: value for key, value in stats.items() if key != "seconds"} for stats in record.search_stats]
                   for record in (python, fast)]
        assert fast.actions == python.actions and untimed[0] == untimed[1] and fast.moves > 10
    return pacman
