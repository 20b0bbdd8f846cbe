"""A team in the style of UPF's team template: bare snake_case module names (``capture_agents``,
``util``, ``game``, ``distance_calculator``); pacsim's own test file."""

import distance_calculator
import util
from capture_agents import CaptureAgent
from game import Directions


def create_team(first_index, second_index, is_red, first='WalkerAgent', second='WalkerAgent', num_training=0):
    return [eval(first)(first_index), eval(second)(second_index)]


class WalkerAgent(CaptureAgent):
    """Heads for the nearest food it may eat, never stopping; keeps a little of what it measured."""

    def register_initial_state(self, game_state):
        CaptureAgent.register_initial_state(self, game_state)
        self.queue = util.PriorityQueue()
        self.manhattan = distance_calculator.manhattan_distance((0, 0), (3, 4))

    def choose_action(self, game_state):
        here = game_state.get_agent_position(self.index)
        food = self.get_food(game_state).as_list()
        actions = [a for a in game_state.get_legal_actions(self.index) if a != Directions.STOP]
        for action in actions:
            there = game_state.generate_successor(self.index, action).get_agent_position(self.index)
            self.queue.push(action, min((self.distancer.get_distance(there, spot) for spot in food), default=0))
        best = self.queue.pop()
        while not self.queue.is_empty():
            self.queue.pop()
        assert util.manhattan_distance(here, here) == 0
        return best
