"""A search Pacman's move: its tree levels in one request, searched by one iterative-deepening loop."""

import pytest
from optional import needed

from pacsim.agents import backend, make_pacman
from pacsim.engine import initial_state, load_layout

STATE = initial_state(load_layout("tinyGhostMaze"))


@pytest.mark.parametrize("where", ["python", "fast"])
def test_both_backends_deepen_in_the_one_loop_with_the_requests_levels(where, monkeypatch):
    if where == "fast":
        needed("numba", 'pip install -e ".[fast]"')
    asked = []
    original = backend.search_requested

    def recording(request, search_at):
        asked.append((request.levels, request.step, request.time))
        return original(request, search_at)

    monkeypatch.setattr(backend, "search_requested", recording)
    pacman = make_pacman(f"expectimax:depth=2,time=5,backend={where}")
    pacman.get_action(STATE)
    ghosts = len(STATE.ghosts)
    assert asked == [(2 * (ghosts + 1), ghosts + 1, 5.0)]
    assert pacman.last_stats.depth == 2 * (ghosts + 1) and pacman.last_stats.backend == where
