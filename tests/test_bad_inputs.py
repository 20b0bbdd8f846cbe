"""Bad input: each case is one line naming what is wrong, never a traceback."""

import pytest

from pacsim.agents import make_ghost, make_pacman
from pacsim.errors import AgentError

# -- agents: option values (issue 13, item 15) -----------------------------


@pytest.mark.parametrize("spec, message", [
    ("minimax:depth=1000000", "option depth=1000000 must be at most 50"),
    ("minimax:depth=0", "option depth=0 must be at least 1"),
    ("expectimax:table=-5", "option table=-5 must be in [0, 10000000]"),
    ("expectimax:time=-1", "option time=-1.0 must be in [0, 3600] seconds"),
    ("expectimax:time=nan", "option time='nan' for agent 'expectimax' must be a finite number"),
    ("expectimax:trust=inf", "option trust='inf' for agent 'expectimax' must be a finite number"),
    ("expectimax:algorithm=best", "option algorithm='best' is not one of minimax, alphabeta"),
    ("minimax:depth=2.5", "option depth='2.5' for agent 'minimax' must be int"),
])
def test_search_options_out_of_range_are_one_line_errors(spec, message):
    with pytest.raises(AgentError) as caught:
        make_pacman(spec)
    assert message in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("spec, message", [
    ("directional:attack=1.5", "option attack=1.5 must be a probability in [0, 1]"),
    ("adversarial:depth=99", "option depth=99 must be in [1, 10]"),
])
def test_ghost_options_out_of_range_are_one_line_errors(spec, message):
    with pytest.raises(AgentError, match=message.replace("[", r"\[").replace("]", r"\]")):
        make_ghost(spec)


def test_a_search_deeper_than_the_recursion_allows_is_refused_by_name():
    from pacsim.engine import ERROR, parse_layout, play_game

    layout = parse_layout("%%%%%%%%%%%%\n%P....GGGGG%\n%.%%%%%%%%.%\n%...GGG....%\n%%%%%%%%%%%%\n")
    record = play_game(layout, [make_pacman("minimax:depth=40")] + [make_ghost("random") for _ in range(8)], seed=1)
    assert record.outcome == ERROR
    assert "depth=40 with 8 ghosts is 360 tree levels; at most 250 can be searched" in record.error
