"""The catalogue of bad inputs: one line on stderr, exit status 2, no traceback.

Areas add their cases under a header of their own, at the end of the file.
"""


# -- mcts: the MCTS Pacman's options and the MCTS search's arguments -----------
# (self-contained: imports inside the tests, so the section moves as one block)

def test_mcts_bad_options_are_one_line_exit_2(capsys):
    from pacsim.cli import main

    for spec, quoted in (("mcts:ghosts=max", "ghosts='max'"), ("mcts:rollout=smart", "rollout='smart'"),
                         ("mcts:iterations=0", "budget"), ("mcts:c=-1", "c=-1"),
                         ("mcts:model=psychic", "model='psychic'"), ("mcts:eval=nosuch", "nosuch"),
                         ("mcts:rollout_depth=-2", "rollout_depth=-2"), ("mcts:iteratons=5", "iteratons"),
                         ("mcts:iterations=many", "iterations")):
        capsys.readouterr()
        status = main(["play", "-q", "-l", "tinyMaze", "-p", spec])
        error = capsys.readouterr().err
        assert status == 2, (spec, error)
        assert error.count("\n") == 1 and quoted in error, (spec, error)


def test_mcts_search_arguments_raise_search_error():
    import pytest

    from pacsim.errors import PacsimError, SearchError
    from pacsim.search import mcts

    class OneMove:
        def to_move(self, state):
            return "max"

        def actions(self, state):
            return ["go"]

        def result(self, state, action):
            return state + 1

        def outcomes(self, state):
            return []

        def is_terminal(self, state):
            return state > 0

        def utility(self, state):
            return 1

    for arguments in ({}, {"iterations": -3}, {"time": 0}, {"iterations": 5, "c": "wide"},
                      {"iterations": 5, "rollout_depth": 2}, {"iterations": 5, "bounds": (1, 0)}):
        with pytest.raises(SearchError) as raised:
            mcts(OneMove(), 0, **arguments)
        assert isinstance(raised.value, PacsimError)
