from dataclasses import dataclass

from pacsim.agents import Agent


@dataclass(frozen=True)
class CautiousOptions:
    margin: int = 2
    """Maze distance to a ghost that is too close."""


class CautiousPacman(Agent[CautiousOptions]):
    """Eats the nearest food, never stepping too close to a ghost that is not scared."""

    Options = CautiousOptions

    def get_action(self, state):
        hunters = [cell for cell, timer in zip(state.ghosts, state.scared) if not timer]

        def badness(move):  # (too close to a ghost, steps to the nearest food, stopping)
            action, cell = move
            near = any(state.distance(cell, ghost) <= self.options.margin for ghost in hunters)
            food = min((state.distance(cell, food) for food in state.food_cells()), default=0)
            return (near, food, action == "Stop")

        return min(state.legal_moves(), key=badness)[0]
