"""Search-based Pacmen: CS188 depth convention, hand-computed root values,
pruned == plain, ghost models, evaluations and their bounds."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pacsim.agents import MoveStats, make_ghost, make_pacman
from pacsim.agents.evaluation import careful, careful_bounds, score_bounds
from pacsim.agents.pacman_game import PacmanGame, SlipperyPacmanGame
from pacsim.engine import agent_rng, apply_move, load_layout, parse_layout, play_game, replay
from pacsim.engine.state import initial_state
from pacsim.errors import AgentError
from pacsim.search import CHANCE, MAX, MIN

KILL_CORRIDOR = "%%%%%%%\n%P. .G%\n%%%%%%%\n"


def analyze(spec, state):
    agent = make_pacman(spec)
    agent.reset(0, agent_rng(0, 0))
    return agent, agent.analyze(state)


def test_hand_computed_root_values_with_the_score_evaluation():
    # Depth 2 (4 levels). East eats (9); the ghost must come West; stepping
    # East again meets it (8 - 500), so Pacman backs off: 8.  Stop: -1, then
    # East eats (8).  Both 8; ties go to the first action, East.
    state = initial_state(parse_layout(KILL_CORRIDOR))
    for spec in ("minimax:depth=2", "alphabeta:depth=2", "expectimax:depth=2"):
        _agent, result = analyze(spec, state)
        assert result.value == 8 and result.action[0] == "East"
        assert result.depth == 4
        assert [(move[0], value) for move, value in result.action_values] == [("East", 8), ("Stop", 8)]
    # Depth 1: East is worth its food (9), Stop costs a point (-1).
    _, result = analyze("minimax:depth=1", state)
    assert result.value == 9 and [value for _, value in result.action_values] == [9, -1]


def test_depth_counts_every_agent_once_per_round():
    state = initial_state(load_layout("wideClassic"))
    _agent, result = analyze("minimax:depth=2", state)
    assert result.depth == 2 * 3 and result.stats.max_depth == 6


POSITIONS = [("pincerMaze", 0), ("wideClassic", 7)]


def _positions():
    for name, steps in POSITIONS:
        state = initial_state(load_layout(name))
        rng = agent_rng(steps, 0)
        for _ in range(steps):
            moves = state.legal_moves()
            state = apply_move(state, *moves[rng.randrange(len(moves))])
        while state.turn != 0:
            state = apply_move(state, *state.legal_moves()[0])
        yield state


@pytest.mark.parametrize("state", list(_positions()))
def test_pruned_searches_return_the_plain_value_and_action_with_fewer_nodes(state):
    for plain, pruned, depth in (("minimax", "alphabeta", 2), ("expectimax", "star2", 2), ("expectimax", "star1", 1)):
        for evaluation in ("score", "careful"):
            _, reference = analyze(f"{plain}:depth={depth},eval={evaluation}", state)
            spec = f"{'minimax' if plain == 'minimax' else 'expectimax'}:depth={depth},eval={evaluation},algorithm={pruned}"
            _, result = analyze(spec, state)
            assert result.value == pytest.approx(reference.value)
            assert result.action == reference.action
            assert result.stats.generated <= reference.stats.generated


def test_expectimax_uses_the_ghost_model_probabilities():
    state = initial_state(load_layout("pincerMaze")).successor("Stop")  # the ghost has two moves
    uniform = PacmanGame((CHANCE,))
    directional = make_pacman("expectimax:model=directional").game_for(state)
    probabilities = [p for p, _ in uniform.outcomes(state)]
    assert probabilities == pytest.approx([1 / len(probabilities)] * len(probabilities))
    modelled = [p for p, _ in directional.outcomes(state)]
    assert sum(modelled) == pytest.approx(1.0) and max(modelled) > max(probabilities)
    mixed = make_pacman("expectimax:model=directional,trust=0.5").game_for(state)
    halfway = [p for p, _ in mixed.outcomes(state)]
    assert halfway == pytest.approx([(a + b) / 2 for a, b in zip(probabilities, modelled)])


def test_expectiminimax_mixes_ghost_kinds_and_slips():
    state = initial_state(load_layout("wideClassic"))
    agent = make_pacman("expectiminimax:kinds=MC,slip=0.2,depth=1")
    game = agent.game_for(state)
    assert isinstance(game, SlipperyPacmanGame) and game.kinds == (MAX, MIN, CHANCE)
    intent = game.result(state, "East")
    assert game.to_move(intent) == CHANCE
    outcomes = game.outcomes(intent)
    assert sum(p for p, _ in outcomes) == pytest.approx(1.0) and outcomes[0][0] == pytest.approx(0.8)
    result = agent.analyze(state)
    assert result.depth == 4 and result.action in state.legal_actions()


def test_bad_agent_options_are_one_line_errors():
    with pytest.raises(AgentError, match="unknown option 'deph' for agent 'minimax'"):
        make_pacman("minimax:deph=3")
    with pytest.raises(AgentError, match="depth='x' for agent 'minimax' must be int"):
        make_pacman("minimax", {"depth": "x"})
    with pytest.raises(AgentError, match="unknown evaluation 'nice'"):
        make_pacman("expectimax:eval=nice")
    with pytest.raises(AgentError, match="model='psychic'"):
        make_pacman("expectimax:model=psychic")


# Ghosts two steps from Pacman, a capsule one step away: deaths, a scare and
# ghosts eaten all happen within a few levels.
CROWDED = "%%%%%%%%\n%G.o.P.%\n%%.%%%.%\n%G.....%\n%%%%%%%%\n"


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 8), st.sampled_from(("smallClassic", "crowded")))
def test_evaluation_bounds_hold_at_every_node_below(seed, levels, maze):
    """Local bounds, as the Star searches use them: every position a search
    of ``levels`` levels below ``root`` reaches, whoever is to move at the
    root, is valued within them.  Checked exhaustively."""
    import random

    rng = random.Random(seed)
    layout = parse_layout(CROWDED) if maze == "crowded" else load_layout(maze)
    root = initial_state(layout)
    for _ in range(rng.randrange(12 if maze == "crowded" else 40)):
        if root.is_terminal:
            return
        root = apply_move(root, *rng.choice(root.legal_moves()))
    if root.is_terminal:
        return
    low, high = careful_bounds(root, levels)
    score_low, score_high = score_bounds(root, levels)

    def check(state, left):
        value = state.score if state.is_terminal else careful(state)
        assert low <= value <= high
        assert score_low <= state.score <= score_high
        if left and not state.is_terminal:
            for move in state.legal_moves():
                check(apply_move(state, *move), left - 1)

    check(root, levels)


def test_bounds_are_local():
    """Tight near the root: with no capsule in reach, one Pacman move can gain
    at most a food less a point; a capsule within reach adds every ghost."""
    state = initial_state(parse_layout(CROWDED))
    assert score_bounds(state, 1) == (state.score - 1 - 1000, state.score + 9)
    assert score_bounds(state, 0) == (state.score - 1000, state.score)
    # Two Pacman moves reach the capsule: both ghosts may then be eaten.
    assert score_bounds(state, 4)[1] == state.score + 18 + 2 * 200
    assert careful_bounds(state, 4)[1] == state.score + 18 + 2 * 200 + 2 * 100


@pytest.mark.parametrize("spec", ["expectimax:depth=2,eval=careful", "expectiminimax:depth=2,eval=careful,slip=0.1"])
def test_pruning_and_a_table_play_the_same_game_as_plain_search(spec):
    layout = load_layout("smallClassic")  # capsules: scared ghosts, eaten ghosts

    def game(pacman_spec):
        ghosts = [make_ghost("directional") for _ in range(layout.num_ghosts)]
        return play_game(layout, [make_pacman(pacman_spec)] + ghosts, seed=3, max_moves=80)

    plain = game(spec)  # seed 3: a long game for both specs, a capsule eaten (seed 1 was one before the hashed streams)
    assert len(plain.actions) > 200  # 80 rounds of Pacman and two ghosts, or nearly
    assert any(any(state.scared) for state in replay(layout, plain.num_ghosts, plain.actions))
    for pruned in (game(f"{spec},algorithm=star2"), game(f"{spec},algorithm=star2,table=10000")):
        assert pruned.actions == plain.actions and pruned.score == plain.score


def test_a_time_budget_keeps_the_transposition_table():
    """Iterative deepening shares the table across its depths (it once dropped it)."""
    state = initial_state(load_layout("smallClassic"))
    agent = make_pacman("expectimax:depth=2,eval=careful,table=10000,time=0.5")
    agent.reset(0, agent_rng(0, 0))
    agent.get_action(state)
    searched_by = agent.last_stats.backend
    used = agent.kernel_table.table if searched_by == "fast" else agent.table  # the kernel keeps its own
    assert used is not None and len(used) > 0
    assert agent.last_stats is not None and agent.last_stats.depth == 2 * 3


def test_move_stats_are_a_typed_record_and_reach_the_game_record():
    layout = load_layout("pincerMaze")
    pacman = make_pacman("alphabeta:depth=1")
    record = play_game(layout, [pacman, make_ghost("random")], seed=2, max_moves=5)
    assert isinstance(pacman.last_stats, MoveStats)
    assert len(record.search_stats) == record.moves
    assert record.search_stats[0].generated > 0 and record.search_stats[0].depth == 2
    assert record.nodes == sum(stats.generated for stats in record.search_stats)
