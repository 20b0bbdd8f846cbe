"""Where an unseen opponent may be: a team's belief from the noisy distances it was given.

Exact inference over cells, the course's own model: between two looks an
opponent may have moved to a neighbouring cell (or stayed), each equally
likely; a look weighs each cell by the chance of the noisy distance read
(uniform within :data:`~pacsim.engine.capture.observation.NOISE` of the true
Manhattan distance), rules out the cells the team would have seen it on,
and the half its Pacman flag excludes.  Seen, it is where it is seen.  An
opponent may also have been caught and sent home since the last look (by
the team, but out of the looking agent's sight), so its start cell always
keeps a little weight: the true cell is never ruled out.
"""

from __future__ import annotations

from pacsim.engine.capture.layout import CaptureLayout, is_red, team_of
from pacsim.engine.capture.observation import NOISE, SIGHT_RANGE, CaptureView
from pacsim.engine.capture.state import UNSEEN

SENT_HOME = 1e-3
"""The weight the start cell keeps after every move (the opponent may have been caught)."""


class Belief:
    """A distribution over the cells of one opponent."""

    def __init__(self, layout: CaptureLayout, opponent: int) -> None:
        self.layout, self.opponent = layout, opponent
        self.weights: dict[int, float] = {layout.starts[opponent]: 1.0}

    def update(self, view: CaptureView) -> None:
        """Take one look: the opponent's cell when seen, else its noisy distance."""
        state = view.state
        cell = state.positions[self.opponent]
        if cell != UNSEEN:
            self.weights = {cell: 1.0}
            return
        moved = self._moved()
        looked = self._weighed(moved, view)
        if not looked:
            looked = self._weighed({self.layout.starts[self.opponent]: 1.0}, view) or {self.layout.starts[self.opponent]: 1.0}
        total = sum(looked.values())
        self.weights = {place: weight / total for place, weight in looked.items()}

    def most_likely(self) -> int:
        """The likeliest cell (the lowest-numbered of equals)."""
        return max(sorted(self.weights), key=self.weights.__getitem__)

    def _moved(self) -> dict[int, float]:
        moves = self.layout.maze.pacman_moves
        spread: dict[int, float] = {self.layout.starts[self.opponent]: SENT_HOME}
        for cell, weight in self.weights.items():
            share = weight / len(moves[cell])
            for _, target in moves[cell]:
                spread[target] = spread.get(target, 0.0) + share
        return spread

    def _weighed(self, weights: dict[int, float], view: CaptureView) -> dict[int, float]:
        state, coordinates = view.state, self.layout.coordinates
        reading = view.noisy_distances[self.opponent]
        here = coordinates[state.positions[view.agent]]
        watchers = [coordinates[state.positions[member]] for member in team_of(view.agent)]
        pacman = state.pacman[self.opponent]
        kept = {}
        for cell, weight in weights.items():
            x, y = coordinates[cell]
            if abs(abs(x - here[0]) + abs(y - here[1]) - reading) > NOISE:
                continue
            if any(abs(x - wx) + abs(y - wy) <= SIGHT_RANGE for wx, wy in watchers):
                continue  # it would have been seen there
            if self.layout.is_home(self.opponent, cell) == pacman:
                continue  # a Pacman is across the middle, a ghost at home
            kept[cell] = weight
        return kept


class TeamBeliefs:
    """A team's beliefs about both opponents, updated from each of its agents' views."""

    def __init__(self, layout: CaptureLayout, red: bool) -> None:
        self.beliefs = {opponent: Belief(layout, opponent) for opponent in range(4) if is_red(opponent) != red}

    def placed(self, view: CaptureView) -> tuple[int, ...]:
        """Every agent's cell: the seen as seen, the unseen on their likeliest cells, after this look."""
        for belief in self.beliefs.values():
            belief.update(view)
        return tuple(cell if cell != UNSEEN else self.beliefs[agent].most_likely()
                     for agent, cell in enumerate(view.state.positions))
