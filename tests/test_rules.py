"""The classic rules, event by event, on small hand-made mazes."""

import pytest

from pacsim.engine import LOST, PLAYING, SCARED_TIME, WON, parse_layout
from pacsim.engine.state import initial_state
from pacsim.errors import IllegalActionError


def start(text, ghosts=None):
    return initial_state(parse_layout(text), ghosts)


CORRIDOR = """
%%%%%%%
%P..  %
%%%%%%%
"""


def test_food_scores_ten_minus_the_move():
    state = start(CORRIDOR).successor("East")
    assert state.score == 9 and state.food_count == 1 and state.status == PLAYING


def test_stop_costs_a_point_and_pacman_may_stop():
    state = start(CORRIDOR)
    assert state.legal_actions() == ["East", "Stop"]
    assert state.successor("Stop").score == -1


def test_last_food_wins_with_five_hundred():
    state = start(CORRIDOR).successor("East").successor("East")
    assert state.status == WON and state.score == 9 + 10 - 1 + 500
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError):
        state.successor("East")


def test_illegal_action_names_the_legal_ones():
    with pytest.raises(IllegalActionError, match=r"'North' is not legal for Pacman .* legal: \['East', 'Stop'\]"):
        start(CORRIDOR).successor("North")


GHOST_CORRIDOR = """
%%%%%%%
%P. G.%
%%%%%%%
"""


def test_pacman_walking_into_a_ghost_loses():
    state = start(GHOST_CORRIDOR)
    state = state.successor("East")  # eats, score 9
    state = state.successor("West")  # ghost steps toward Pacman (it may go either way at first)
    state = state.successor("East")  # Pacman steps onto the ghost's cell
    assert state.status == LOST and state.score == 9 - 1 - 500


def test_ghost_walking_into_pacman_loses_after_its_move():
    state = start(GHOST_CORRIDOR).successor("East").successor("West").successor("Stop")
    assert state.turn == 1
    assert state.successor("West").status == LOST
    assert state.successor("West").score == 8 - 500


def test_eating_the_last_food_beats_a_ghost_on_it():
    # The ghost stands on the last food; CS188 checks the win before the collision.
    state = start("%%%%%%\n%P. G%\n%%%%%%\n")
    state = state.successor("Stop").successor("West")  # ghost moves next to the food
    state = state.successor("Stop").successor("West")  # ghost onto the food cell
    assert state.ghosts[0] == state.layout.cell_of[(1, 2)] and state.status == PLAYING
    won = state.successor("East")
    assert won.status == WON and won.score == -2 + 10 - 1 + 500


def test_ghosts_never_stop_and_never_reverse_unless_forced():
    state = start("%%%%%%%\n%P. G %\n%%%%%%%\n")
    state = state.successor("Stop")
    assert state.legal_actions() == ["East", "West"]  # a ghost cannot Stop
    state = state.successor("East").successor("Stop")
    assert state.legal_actions() == ["West"]  # dead end: reversing is its only move
    state = state.successor("West").successor("Stop")
    assert state.legal_actions() == ["West"]  # having turned, it may not reverse East


def test_ghost_at_a_junction_keeps_off_the_reverse():
    text = "%%%%%\n% % %\n%   %\n% G %\n%P.%%\n%%%%%\n"
    state = start(text).successor("Stop")
    assert sorted(state.legal_actions()) == ["East", "North", "South", "West"]
    after = state.successor("North").successor("Stop")
    assert "South" not in after.legal_actions()


CAPSULE = """
%%%%%%%%%
%Po  . G%
%%%%%%%%%
"""


def test_capsule_scares_every_ghost_for_forty_moves_and_scores_nothing_extra():
    state = start(CAPSULE).successor("East")
    assert state.scared == (SCARED_TIME,) and state.score == -1 and state.capsules == 0


def test_scared_ghost_moves_every_other_turn_and_timer_counts_its_moves():
    state = start(CAPSULE).successor("East")
    ghost_start = state.ghosts[0]
    state = state.successor("West")  # timer 40: moves
    assert state.scared == (SCARED_TIME - 1,) and state.ghosts[0] != ghost_start
    moved_to = state.ghosts[0]
    state = state.successor("Stop")
    assert state.legal_actions() == ["Stop"]  # timer 39: waits
    state = state.successor("Stop")
    assert state.ghosts[0] == moved_to and state.scared == (SCARED_TIME - 2,)


def test_eating_a_scared_ghost_scores_two_hundred_and_sends_it_home():
    state = start("%%%%%%\n%PoG.%\n%%%%%%\n").successor("East")
    home = state.layout.ghost_starts[0]
    state = state.successor("West")  # the scared ghost walks into Pacman
    assert state.score == -1 + 200 and state.ghosts[0] == home and state.scared == (0,)
    assert state.status == PLAYING


def test_pacman_eating_a_scared_ghost_on_his_move():
    state = start("%%%%%%%\n%Po G.%\n%%%%%%%\n").successor("East")
    state = state.successor("West")  # ghost (timer 40) moves next to Pacman... onto the empty cell
    assert state.layout.cells[state.ghosts[0]] == (1, 3)
    state = state.successor("East")
    assert state.score == -2 + 200 and state.ghosts[0] == state.layout.ghost_starts[0]


def test_scare_ends_and_the_ghost_kills_again():
    state = start("%%%%%%%%\n%Po  G.%\n%%%%%%%%\n").successor("East")
    state = state._replace(scared=(1,))
    assert state.legal_actions() == ["Stop"]  # odd timer: waits, timer runs out
    state = state.successor("Stop")
    assert state.scared == (0,)
    state = state.successor("East").successor("West")  # Pacman and the ghost close in: (1, 3) and (1, 4)
    assert state.layout.cells[state.ghosts[0]] == (1, 4) and state.status == PLAYING
    still_scared = state._replace(scared=(2,)).successor("East")
    assert still_scared.status == PLAYING and still_scared.score == state.score - 1 + 200  # eaten while scared
    caught = state.successor("East")
    assert caught.status == LOST and caught.score == state.score - 1 - 500  # the same move now kills Pacman


def test_move_order_pacman_then_each_ghost():
    state = start("%%%%%%%\n%G.P.G%\n%%%%%%%\n")
    assert state.turn == 0
    state = state.successor("Stop")
    assert state.turn == 1
    state = state.successor(state.legal_actions()[0])
    assert state.turn == 2
    state = state.successor(state.legal_actions()[0])
    assert state.turn == 0


def test_states_are_hashable_values():
    a = start(CORRIDOR).successor("East")
    b = start(CORRIDOR).successor("East")
    assert a != b  # different layout objects
    layout_state = start(CORRIDOR)
    assert layout_state.successor("East") == layout_state.successor("East")
    assert len({layout_state.successor("East"), layout_state.successor("East")}) == 1
