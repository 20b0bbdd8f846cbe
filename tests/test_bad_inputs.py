"""Bad inputs: one line on stderr, exit status 2, never a traceback."""


# -- fast path (engine option) ----------------------------------------------

def test_unknown_engine_option_is_one_agent_error():
    import pytest

    from pacsim.agents import make_ghost, make_pacman
    from pacsim.errors import AgentError

    with pytest.raises(AgentError, match="engine='turbo'"):
        make_pacman("expectimax:engine=turbo")
    with pytest.raises(AgentError, match="engine='turbo'"):
        make_ghost("adversarial:engine=turbo")
