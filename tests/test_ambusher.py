"""The ambusher (the arcade's Pinky): a ghost kind added through the kinds
table and the shared policies, the same in both backends."""

import pytest
from optional import needed

from pacsim.agents import make_ghost, make_pacman
from pacsim.agents.ghosts import AmbusherOptions, DirectionalOptions
from pacsim.engine import apply_move, initial_state, load_layout, parse_layout, play_game
from pacsim.errors import AgentError
from pacsim.fast.policies import DEFAULT_PARAMETERS, parameters_of

# Pacman runs East along the top corridor; the ghost below can close on him
# by the West loop (5 steps) or on the cell 4 ahead of him by the East one (5).
LOOP = """\
%%%%%%%%%
%P......%
%.%%%%%.%
%...G...%
%%%%%%%%%
"""


def ghost_to_move_after_pacman_heads_east():
    layout = parse_layout(LOOP)
    state = initial_state(layout)
    action, target = next(move for move in state.legal_moves() if move[0] == "East")
    return apply_move(state, action, target)


def test_the_ambusher_cuts_pacman_off_where_the_directional_ghost_chases_him():
    state = ghost_to_move_after_pacman_heads_east()
    ambusher = make_ghost("ambusher:attack=1")
    directional = make_ghost("directional:attack=1")
    assert dict(ambusher.distribution(state)) == {"West": 0.0, "East": 1.0}
    assert dict(directional.distribution(state)) == {"West": 1.0, "East": 0.0}


def test_aiming_no_cell_ahead_is_the_directional_ghost():
    state = ghost_to_move_after_pacman_heads_east()
    assert make_ghost("ambusher:ahead=0").distribution(state) == make_ghost("directional").distribution(state)


def test_the_ambushers_options_are_checked_and_its_defaults_are_the_kernels():
    with pytest.raises(AgentError, match="ahead"):
        make_ghost("ambusher:ahead=11")
    with pytest.raises(AgentError, match="attack"):
        make_ghost("ambusher:attack=2")
    assert parameters_of(AmbusherOptions()) == DEFAULT_PARAMETERS == parameters_of(DirectionalOptions())


@pytest.mark.parametrize(("maze", "pacman", "ghosts", "seed"), [
    ("smallClassic", "expectimax:depth=2,eval=careful", ("ambusher", "directional"), 3),
    ("wideClassic", "alphabeta:depth=2,ties=random", ("ambusher:ahead=2,attack=0.6", "ambusher"), 11),
])
def test_kernel_games_with_ambushers_are_the_python_loops_games(maze, pacman, ghosts, seed):
    needed("numba", "pip install -e '.[fast]'")
    from pacsim.agents.whole_game import play_in_kernel
    from pacsim.bench.agreement import untimed

    layout = load_layout(maze)

    def agents(backend):
        return [make_pacman(f"{pacman},backend={backend}")] + [make_ghost(ghost) for ghost in ghosts]

    kernel = play_in_kernel(layout, agents("auto"), seed, max_moves=80)
    python = play_game(layout, agents("python"), seed=seed, max_moves=80)
    assert kernel is not None and untimed(kernel) == untimed(python) and python.moves > 20


def test_kernel_searches_modelling_the_ambusher_are_pythons():
    needed("numba", "pip install -e '.[fast]'")
    from pacsim.bench.agreement import compare_searches
    from pacsim.bench.positions import game_positions

    specs = ("expectimax:depth={depth},eval=careful,model=ambusher,trust=0.7",
             "expectiminimax:depth={depth},algorithm=star1,kinds=MC,model=ambusher")
    report = compare_searches(game_positions(40), depth=2, specs=specs)
    assert report.searches == 80 and report.agrees, report.mismatches
