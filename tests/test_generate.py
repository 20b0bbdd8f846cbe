"""Generated mazes: valid, connected, placed apart, deterministic, and usable in experiments."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pacsim.cli import main
from pacsim.engine import parse_layout
from pacsim.engine.generate import (
    MIN_GHOST_DISTANCE,
    MazeSpec,
    generate_layout,
    maze_features,
    parse_maze_specs,
)
from pacsim.engine.layout import UNREACHABLE
from pacsim.errors import ConfigError
from pacsim.runner import build_experiment

specs = st.builds(
    MazeSpec,
    width=st.integers(7, 15), height=st.integers(7, 13), food=st.integers(1, 6), capsules=st.integers(0, 2),
    ghosts=st.integers(0, 3), loops=st.sampled_from([0.0, 0.3, 1.0, 0.1234567]), rooms=st.sampled_from([0.0, 0.5]),
    seed=st.integers(0, 10**6),
)


@settings(max_examples=60, deadline=None)
@given(specs)
def test_generated_mazes_are_valid_connected_and_placed_apart(spec):
    layout = parse_layout(generate_layout(spec))
    assert (layout.width, layout.height) == (spec.width, spec.height)
    assert (layout.food_count, layout.capsule_count, layout.num_ghosts) == (spec.food, spec.capsules, spec.ghosts)
    from_pacman = layout.distances_from(layout.pacman_start)
    assert all(distance < UNREACHABLE for distance in from_pacman)  # every square, so every pellet, reachable
    assert not layout.warnings
    assert all(from_pacman[ghost] >= MIN_GHOST_DISTANCE for ghost in layout.ghost_starts)
    assert len(set(layout.ghost_starts)) == spec.ghosts


@settings(max_examples=30, deadline=None)
@given(specs)
def test_same_spec_same_maze_and_the_name_round_trips(spec):
    assert generate_layout(spec) == generate_layout(spec)
    assert parse_maze_specs(spec.name()) == [spec]
    text = generate_layout(spec)
    assert parse_layout(text).text == text  # already normalised: what is stored is what was generated


def test_different_seeds_give_different_mazes():
    assert len({generate_layout(MazeSpec(seed=seed)) for seed in range(20)}) == 20


def test_the_loop_knob_removes_dead_ends():
    def dead_ends(loops):
        return sum(maze_features(parse_layout(generate_layout(MazeSpec(width=15, height=11, loops=loops, seed=seed))))
                   .dead_ends for seed in range(10))

    perfect, braided = dead_ends(0.0), dead_ends(1.0)
    assert perfect > 20 and braided == 0
    perfect_maze = maze_features(parse_layout(generate_layout(MazeSpec(width=15, height=11, seed=1))))
    assert perfect_maze.loops == 0  # a perfect maze is a tree


def test_maze_features_of_a_hand_drawn_maze():
    layout = parse_layout("%%%%%%%\n%P  .G%\n% %%% %\n%     %\n%.%%%%%\n%%%%%%%\n")
    features = maze_features(layout)
    assert features.dead_ends == 1 and features.loops == 1  # the pocket at the bottom; the ring
    assert features.ghost_to_food == 1 and features.pacman_to_food == 3


def test_seed_ranges_expand_and_bad_specs_say_why():
    assert [spec.seed for spec in parse_maze_specs("generated:w=9,h=7,seed=3-5")] == [3, 4, 5]
    assert parse_maze_specs("generated:width=11,loops=0.5")[0] == MazeSpec(width=11, loops=0.5)
    for text, message in (("generated:w=9,colour=3", "'colour=3' is not key=value"),
                          ("generated:seed=5-2", "runs backwards"), ("generated:w=nine", "w='nine' is not an integer"),
                          ("generated:loops=2", "loops=2.0 must be between 0 and 1")):
        with pytest.raises(ConfigError, match=message):
            parse_maze_specs(text)


def test_experiments_expand_generated_layouts_one_per_seed():
    experiment = build_experiment({
        "games": 2, "grid": {"pacman": ["greedy"], "ghosts": ["random"],
                             "layout": ["generated:w=9,h=7,food=3,ghosts=1,seed=0-3", "openRoom"]}})
    layouts = [condition.layout for condition in experiment.conditions]
    assert len(layouts) == 5 and layouts[-1] == "openRoom"
    assert layouts[2] == "generated:w=9,h=7,food=3,ghosts=1,seed=2"
    assert experiment.conditions[2].layout_text == generate_layout(MazeSpec(food=3, seed=2))
    assert "generator_version" in experiment.config


def test_layouts_command_generates(tmp_path, capsys):
    assert main(["layouts", "--generate", "--width", "11", "--ghosts", "2", "--seed", "7"]) == 0
    assert capsys.readouterr().out == generate_layout(MazeSpec(width=11, ghosts=2, seed=7))
    path = tmp_path / "maze.lay"
    assert main(["layouts", "--generate", "--seed", "7", "--out", str(path)]) == 0
    assert path.read_text() == generate_layout(MazeSpec(seed=7))
    assert main(["layouts", "--check", str(path)]) == 0


def test_stored_games_on_generated_mazes_keep_the_exact_text_and_replay(tmp_path):
    from pacsim.engine import replay
    from pacsim.runner import load_saved_game, run_experiment

    experiment = build_experiment({
        "games": 1, "max_moves": 30, "store": str(tmp_path / "g.sqlite"),
        "grid": {"pacman": ["greedy"], "ghosts": ["random"], "layout": ["generated:w=9,h=7,food=2,seed=4-5"]}})
    run_experiment(experiment, workers=1, quiet=True)
    texts = set()
    for game_id in (1, 2):
        saved = load_saved_game(experiment.store, game_id)
        (spec,) = parse_maze_specs(saved.layout.name)
        assert saved.layout.text == generate_layout(spec) and spec.food == 2
        texts.add(saved.layout.text)
        final = replay(saved.layout, saved.num_ghosts, saved.actions)[-1]
        assert final.score == saved.score
    assert len(texts) == 2
