# A team written for UPF's snake_case framework (contest.capture_agents, create_team, choose_action): pacsim
# plays it with its own contest package. The raider eats, the keeper holds the middle; both read what UPF's
# API gives (agent states, food grids, noisy distances, maze distances) and draw with debug_draw.

import random

import contest.util as util
from contest.capture_agents import CaptureAgent
from contest.game import Directions
from contest.util import nearest_point


def create_team(first_index, second_index, is_red, first='Raider', second='Keeper', num_training=0):
    return [eval(first)(first_index), eval(second)(second_index)]


class SnakeAgent(CaptureAgent):
    def __init__(self, index, time_for_computing=.1):
        super().__init__(index, time_for_computing)
        self.start = None
        self.heard = []

    def register_initial_state(self, game_state):
        self.start = game_state.get_agent_position(self.index)
        CaptureAgent.register_initial_state(self, game_state)

    def get_successor(self, game_state, action):
        successor = game_state.generate_successor(self.index, action)
        position = successor.get_agent_state(self.index).get_position()
        assert position == nearest_point(position)
        return successor

    def choose_action(self, game_state):
        self.heard.append(game_state.get_agent_distances())
        actions = game_state.get_legal_actions(self.index)
        values = [self.evaluate(game_state, action) for action in actions]
        best = max(values)
        self.debug_draw([self.start], [0, 1, 0], clear=True)
        return random.choice([action for action, value in zip(actions, values) if value == best])

    def evaluate(self, game_state, action):
        return self.get_features(game_state, action) * self.get_weights()


class Raider(SnakeAgent):
    def get_features(self, game_state, action):
        features = util.Counter()
        successor = self.get_successor(game_state, action)
        food = self.get_food(successor).as_list()
        features['food_left'] = len(food)
        position = successor.get_agent_state(self.index).get_position()
        if food:
            features['food_distance'] = min(self.get_maze_distance(position, cell) for cell in food)
        features['score'] = self.get_score(successor)
        return features

    def get_weights(self):
        return {'food_left': -100, 'food_distance': -1, 'score': 10}


class Keeper(SnakeAgent):
    def get_features(self, game_state, action):
        features = util.Counter()
        successor = self.get_successor(game_state, action)
        state = successor.get_agent_state(self.index)
        enemies = [successor.get_agent_state(index) for index in self.get_opponents(successor)]
        invaders = [enemy for enemy in enemies if enemy.is_pacman and enemy.get_position() is not None]
        features['home'] = 0 if state.is_pacman else 1
        features['invaders'] = len(invaders)
        if invaders:
            features['invader_distance'] = min(self.get_maze_distance(state.get_position(), enemy.get_position())
                                               for enemy in invaders)
        if action == Directions.STOP:
            features['stop'] = 1
        if action == Directions.REVERSE[game_state.get_agent_state(self.index).configuration.direction]:
            features['reverse'] = 1
        return features

    def get_weights(self):
        return {'home': 100, 'invaders': -1000, 'invader_distance': -10, 'stop': -100, 'reverse': -2}
