"""Property tests on random small mazes, against a naive model of the rules.

The reference below works on (row, column) grids with dicts and lists, the
way one would write the rules from the reference text; the engine under test
works on cell numbers, bitmasks and precomputed tables.  They must agree on
every step of random games.
"""

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pacsim.engine import SCARED_TIME, parse_layout
from pacsim.engine.layout import ACTIONS
from pacsim.engine.state import initial_state

DELTA = {"North": (-1, 0), "South": (1, 0), "East": (0, 1), "West": (0, -1), "Stop": (0, 0)}
REVERSE = {"North": "South", "South": "North", "East": "West", "West": "East", "Stop": "Stop"}


class Reference:
    def __init__(self, rows, ghost_order):
        self.open = {(r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch != "%"}
        self.food = {(r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "."}
        self.capsules = {(r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "o"}
        self.pacman = next((r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "P")
        self.starts = list(ghost_order)
        self.ghosts = list(ghost_order)
        self.direction = ["Stop"] * len(self.ghosts)
        self.scared = [0] * len(self.ghosts)
        self.score, self.over, self.turn = 0, None, 0

    def step(self, position, action):
        return (position[0] + DELTA[action][0], position[1] + DELTA[action][1])

    def legal(self):
        if self.turn == 0:
            return [a for a in ACTIONS if self.step(self.pacman, a) in self.open]
        index = self.turn - 1
        if self.scared[index] % 2 == 1:
            return ["Stop"]
        moves = [a for a in ACTIONS[:4] if self.step(self.ghosts[index], a) in self.open]
        if not moves:
            return ["Stop"]
        forward = [a for a in moves if a != REVERSE[self.direction[index]]]
        return forward or moves

    def play(self, action):
        if self.turn == 0:
            self.pacman = self.step(self.pacman, action)
            self.score -= 1
            if self.pacman in self.food:
                self.food.remove(self.pacman)
                self.score += 10
                if not self.food:
                    self.score += 500
                    self.over = "win"
            if self.pacman in self.capsules:
                self.capsules.remove(self.pacman)
                self.scared = [SCARED_TIME] * len(self.ghosts)
            for index in range(len(self.ghosts)):
                self.collide(index)
        else:
            index = self.turn - 1
            self.ghosts[index] = self.step(self.ghosts[index], action)
            if action != "Stop":
                self.direction[index] = action
            self.scared[index] = max(0, self.scared[index] - 1)
            self.collide(index)
        self.turn = (self.turn + 1) % (len(self.ghosts) + 1) if self.over is None else self.turn

    def collide(self, index):
        if self.ghosts[index] != self.pacman:
            return
        if self.scared[index]:
            self.score += 200
            self.ghosts[index] = self.starts[index]
            self.direction[index] = "Stop"
            self.scared[index] = 0
        elif self.over != "win":
            self.score -= 500
            self.over = "loss"


@st.composite
def mazes(draw):
    height, width = draw(st.integers(3, 6)), draw(st.integers(3, 7))
    cells = [(r, c) for r in range(1, height + 1) for c in range(1, width + 1)]
    chars = {cell: draw(st.sampled_from("%% ...o ")) for cell in cells}
    pacman, *ghosts = draw(st.lists(st.sampled_from(cells), min_size=2, max_size=4, unique=True))
    food_cell = draw(st.sampled_from([cell for cell in cells if cell != pacman and cell not in ghosts]))
    chars[pacman], chars[food_cell] = "P", "."
    for ghost in ghosts:
        chars[ghost] = "G"
    rows = ["%" * (width + 2)]
    rows += ["%" + "".join(chars[(r, c)] for c in range(1, width + 1)) + "%" for r in range(1, height + 1)]
    rows.append("%" * (width + 2))
    return rows


@settings(max_examples=150, deadline=None)
@given(mazes(), st.integers(0, 2**32 - 1))
def test_engine_agrees_with_the_reference_rules(rows, seed):
    layout = parse_layout("\n".join(rows))
    state = initial_state(layout)
    model = Reference(rows, [layout.cells[cell] for cell in layout.ghost_starts])
    rng = random.Random(seed)
    food_before = state.food_count
    for _ in range(400):
        if state.is_terminal:
            break
        legal = state.legal_actions()
        assert legal == model.legal()
        action = rng.choice(legal)
        state = state.successor(action)
        model.play(action)
        assert layout.cells[state.pacman] == model.pacman
        assert [layout.cells[cell] for cell in state.ghosts] == model.ghosts
        assert state.score == model.score
        assert state.food_count <= food_before  # food only decreases
        food_before = state.food_count
        assert {layout.cells[c] for c in state.food_cells()} == model.food
        assert state.status == {None: 0, "win": 1, "loss": -1}[model.over]


@settings(max_examples=60, deadline=None)
@given(mazes(), st.integers(0, 1000), st.integers(1, 60))
def test_games_always_end_by_the_cap_with_consistent_accounting(rows, seed, cap):
    from pacsim.agents import make_ghost, make_pacman
    from pacsim.engine import play_game, replay

    layout = parse_layout("\n".join(rows))
    agents = [make_pacman("random")] + [make_ghost("random") for _ in layout.ghost_starts]
    record = play_game(layout, agents, seed=seed, max_moves=cap)
    assert record.moves <= cap and record.outcome in ("win", "loss", "timeout")
    states = replay(layout, layout.num_ghosts, record.actions)
    eaten = layout.food_count - states[-1].food_count
    rest = record.score - (10 * eaten - record.moves + 500 * (record.outcome == "win"))
    # What is left is +200 per scared ghost eaten and, as in CS188, -500 per
    # non-scared ghost on Pacman's cell when he dies (at least one iff a loss).
    killers = range(1, layout.num_ghosts + 1) if record.outcome == "loss" else [0]
    assert any((rest + 500 * count) % 200 == 0 and rest + 500 * count >= 0 for count in killers)
    for before, after in itertools.pairwise(states):  # nobody walks through a wall
        mover = before.turn
        step = layout.distance(before.agent_cell(mover), after.agent_cell(mover))
        eaten_on_its_move = mover > 0 and after.score - before.score == 200
        assert step <= 1 or (eaten_on_its_move and after.agent_cell(mover) == layout.ghost_starts[mover - 1])
