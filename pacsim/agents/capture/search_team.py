"""pacsim's searching capture teams: alpha-beta and MCTS over pacsim's game-agnostic search.

Each move the team places its unseen opponents on their likeliest cells
(:class:`~pacsim.agents.capture.belief.TeamBeliefs`, kept from the noisy
distances) and searches the resulting position as a two-player zero-sum
game through :mod:`pacsim.search`'s ``Game`` protocol (:class:`CaptureGame`):
MAX is the team, MIN the opponents, every agent moving in turn.  Depth is
counted in agent moves (four: each agent once).  Positions where the search
stops are scored by :func:`evaluation`, from the team's side.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from pacsim.agents.capture.belief import TeamBeliefs
from pacsim.engine.capture.game import CaptureTeam
from pacsim.engine.capture.layout import is_red
from pacsim.engine.capture.observation import CaptureView
from pacsim.engine.capture.state import CaptureState, apply_move
from pacsim.engine.state import mask_cells
from pacsim.search import SearchSettings, mcts, search
from pacsim.search.base import MAX, MIN
from pacsim.search.trace import SearchTrace, trace_mcts, trace_search

SCORE = 100
"""A returned food, in evaluation points."""
CARRIED = 10
"""A carried food (worth less than returned: it can be lost)."""


class CaptureGame:
    """Capture as ``pacsim.search``'s ``Game``, seen from one team (MAX)."""

    def __init__(self, red: bool) -> None:
        self.red = red

    def to_move(self, state: Hashable) -> str:
        assert isinstance(state, CaptureState)
        return MAX if is_red(state.turn) == self.red else MIN

    def actions(self, state: Hashable) -> Sequence[Any]:
        assert isinstance(state, CaptureState)
        return state.legal_moves()

    def result(self, state: Hashable, action: Any) -> Hashable:
        assert isinstance(state, CaptureState)
        return apply_move(state, state.turn, action[0], action[1])

    def outcomes(self, state: Hashable) -> Sequence[tuple[Any, Hashable]]:
        return ()  # no chance nodes: the unseen opponents are placed before the search

    def is_terminal(self, state: Hashable) -> bool:
        assert isinstance(state, CaptureState)
        return state.over

    def utility(self, state: Hashable) -> float:
        assert isinstance(state, CaptureState)
        return SCORE * (state.score if self.red else -state.score)


def evaluation(red: bool) -> Any:
    """The team's score of a position: returned food, carried food, the attacker
    near food (and near home when it carries), the defender near invaders."""
    attacker, defender = (0, 2) if red else (1, 3)
    opponents = (1, 3) if red else (0, 2)

    def evaluate(state: Hashable) -> float:
        assert isinstance(state, CaptureState)
        layout = state.layout
        value = SCORE * (state.score if red else -state.score)
        value += CARRIED * (state.carrying[attacker] + state.carrying[defender])
        value -= CARRIED * sum(state.carrying[opponent] for opponent in opponents)
        distances = layout.maze.distances_from(state.positions[attacker])
        food = mask_cells(state.food_of(not red))
        value -= min(map(distances.__getitem__, food), default=0)
        value -= state.carrying[attacker] * min(map(distances.__getitem__, layout.home_edges[0 if red else 1]))
        invaders = [state.positions[opponent] for opponent in opponents if state.pacman[opponent]]
        if invaders:
            guard = layout.maze.distances_from(state.positions[defender])
            value -= 2 * min(map(guard.__getitem__, invaders)) + 20 * len(invaders)
        return value

    return evaluate


class PlacingTeam(CaptureTeam):
    """A team that searches the position with its unseen opponents placed by its beliefs."""

    def __init__(self, is_red_team: bool) -> None:
        self.red = is_red_team
        self.game = CaptureGame(is_red_team)
        self.evaluate = evaluation(is_red_team)
        self.beliefs: TeamBeliefs | None = None
        self.rng = random.Random(0)

    def prepare(self, rng: random.Random) -> None:
        self.rng = rng
        self.beliefs = None

    def start(self, index: int, view: CaptureView) -> None:
        if self.beliefs is None:
            self.beliefs = TeamBeliefs(view.state.layout, self.red)

    def placed(self, index: int, view: CaptureView) -> CaptureState:
        if self.beliefs is None:
            self.beliefs = TeamBeliefs(view.state.layout, self.red)
        return view.state._replace(positions=self.beliefs.placed(view), turn=index)

    def passed(self, index: int, view: CaptureView) -> None:
        """All :meth:`act` does at a move but its search (the look; MCTS: its draw), so that
        a team handed a recorded game's looks stands where it stood (``pacsim tree``)."""
        self.placed(index, view)

    def trace(self, index: int, view: CaptureView, depth: int | None = None) -> SearchTrace:
        """The search :meth:`act` makes of ``view``, traced node by node, in its place: it updates what
        :meth:`act` would (the beliefs, MCTS's draw), so the move it finds is the move :meth:`act` would play
        (``pacsim tree``, ``pacsim capture --tree``)."""
        raise NotImplementedError


class AlphaBetaTeam(PlacingTeam):
    """Alpha-beta to ``depth`` agent moves over the placed position."""

    name = "alphabeta"

    def __init__(self, is_red_team: bool, depth: int = 4) -> None:
        super().__init__(is_red_team)
        self.settings = SearchSettings(depth=depth, evaluate=self.evaluate)

    def act(self, index: int, view: CaptureView) -> str:
        result = search(self.game, self.placed(index, view), "alphabeta", self.settings)
        return result.action[0]

    def trace(self, index: int, view: CaptureView, depth: int | None = None) -> SearchTrace:
        """The search :meth:`act` makes of ``view`` (to ``depth`` agent moves, else the team's), traced."""
        return trace_search(self.game, self.placed(index, view), "alphabeta", depth or self.settings.depth,
                            evaluate=self.evaluate)


class MctsTeam(PlacingTeam):
    """Monte Carlo tree search over the placed position: ``iterations`` a move,
    rollouts cut at ``rollout_depth`` moves and scored by the evaluation."""

    name = "mcts"

    def __init__(self, is_red_team: bool, iterations: int = 200, rollout_depth: int = 8) -> None:
        super().__init__(is_red_team)
        self.iterations, self.rollout_depth = iterations, rollout_depth

    def act(self, index: int, view: CaptureView) -> str:
        result = mcts(self.game, self.placed(index, view), iterations=self.iterations,
                      rollout_depth=self.rollout_depth, evaluate=self.evaluate, seed=self.rng.getrandbits(32))
        return result.action[0]

    def passed(self, index: int, view: CaptureView) -> None:
        super().passed(index, view)
        self.rng.getrandbits(32)  # the seed act's search would have drawn

    def trace(self, index: int, view: CaptureView, depth: int | None = None) -> SearchTrace:
        """The tree :meth:`act`'s search grows from ``view`` (``depth`` has no meaning here)."""
        return trace_mcts(self.game, self.placed(index, view), iterations=self.iterations,
                          rollout_depth=self.rollout_depth, evaluate=self.evaluate, seed=self.rng.getrandbits(32))


class TreeAt(CaptureTeam):
    """A searching team that, from move ``from_move`` of the game (counted in ``moves`` by the caller), plays
    its next move by :meth:`PlacingTeam.trace` and keeps the tree (``pacsim capture --tree``)."""

    def __init__(self, team: PlacingTeam, from_move: int, moves: list[int]) -> None:
        self.team, self.from_move, self.moves = team, from_move, moves
        self.name = team.name
        self.tree: SearchTrace | None = None

    def prepare(self, rng: random.Random) -> None:
        self.team.prepare(rng)

    def start(self, index: int, view: CaptureView) -> None:
        self.team.start(index, view)

    def act(self, index: int, view: CaptureView) -> str:
        if self.tree is not None or self.moves[0] < self.from_move:
            return self.team.act(index, view)
        self.tree = self.team.trace(index, view)
        return str(self.tree.result.action[0])

    def finish(self, index: int, view: CaptureView) -> None:
        self.team.finish(index, view)
