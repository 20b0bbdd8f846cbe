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


@pytest.mark.parametrize("spec", ["expectimax:depth=1,model=adversarial", "minimax:depth=1", "expectimax:depth=1,algorithm=star2,table=16"])
def test_a_short_request_is_the_one_a_pacman_makes(spec):
    """``round_request`` (warm-up's, the build's and bench's form) writes the request a built-in Pacman makes,
    the adversarial ghost's defaults included."""
    from pacsim.fast.request import round_request
    from pacsim.search import CHANCE, MAX, MIN

    pacman = make_pacman(spec)
    made = pacman.search_request(1, 2, 30, timed=False)
    settings = {"model": "adversarial"} if "adversarial" in spec else {}
    kinds = (MAX, MIN) if spec.startswith("minimax") else (MAX, CHANCE)
    written = round_request(kinds, made.evaluation, 2, 30, pacman.algorithm, table=made.table, **settings)
    assert written == made


def test_the_kernel_searches_the_levels_of_its_request(monkeypatch):
    """``run_request`` takes no levels of its own: a deeper request is a deeper search."""
    needed("numba", 'pip install -e ".[fast]"')
    from pacsim.fast.request import round_request
    from pacsim.fast.search import run_request
    from pacsim.search import CHANCE, MAX

    shallow, deep = (run_request(STATE, round_request((MAX, CHANCE), "careful", levels, STATE.layout.num_cells))
                     for levels in (2, 4))
    assert (shallow.depth, deep.depth) == (2, 4) and deep.stats.generated > shallow.stats.generated
