"""A team written in the style of UPF's Python 3 pacman-contest (snake_case names, the
``contest`` package): pacsim's own test file, exercising the names such teams use."""

import random

import contest.util as util
from contest.capture_agents import CaptureAgent
from contest.game import Actions, Directions
from contest.util import nearest_point


def create_team(first_index, second_index, is_red, first='RaiderAgent', second='KeeperAgent', num_training=0):
    return [eval(first)(first_index), eval(second)(second_index)]


class ScoringAgent(CaptureAgent):
    """Picks the move whose features, weighted, score best."""

    def __init__(self, index, time_for_computing=.1):
        super().__init__(index, time_for_computing)
        self.start = None
        self.readings = []
        self.checks = []

    def register_initial_state(self, game_state):
        self.start = game_state.get_agent_position(self.index)
        CaptureAgent.register_initial_state(self, game_state)
        walls = game_state.get_walls()
        self.checks.append(len(walls.as_list()) > 0 and game_state.data.layout.width == walls.width)
        self.checks.append(self.agentsOnTeam == self.get_team(game_state))
        self.checks.append(game_state.is_on_red_team(self.index) == (self.index in game_state.get_red_team_indices()))

    def choose_action(self, game_state):
        self.readings.append(list(self.get_current_observation().get_agent_distances()))
        assert self.get_current_observation() is self.observation_history[-1]
        previous = self.get_previous_observation()
        assert previous is None or previous is self.observation_history[-2]
        actions = game_state.get_legal_actions(self.index)
        values = [self.evaluate(game_state, action) for action in actions]
        best = max(values)
        choices = [action for action, value in zip(actions, values) if value == best]
        if len(self.get_food(game_state).as_list()) <= 2:
            return min(actions, key=lambda action: self.get_maze_distance(
                self.start, self.get_successor(game_state, action).get_agent_position(self.index)))
        return random.choice(choices)

    def get_successor(self, game_state, action):
        successor = game_state.generate_successor(self.index, action)
        position = successor.get_agent_state(self.index).get_position()
        if position != nearest_point(position):
            return successor.generate_successor(self.index, action)
        return successor

    def evaluate(self, game_state, action):
        return self.get_features(game_state, action) * self.get_weights(game_state, action)


class RaiderAgent(ScoringAgent):
    def get_features(self, game_state, action):
        features = util.Counter()
        successor = self.get_successor(game_state, action)
        food = self.get_food(successor).as_list()
        features['successor_score'] = -len(food)
        here = successor.get_agent_state(self.index).get_position()
        if food:
            features['distance_to_food'] = min(self.get_maze_distance(here, spot) for spot in food)
        me = successor.get_agent_state(self.index)
        features['carrying'] = me.num_carrying if me.is_pacman else 0
        dx, dy = Actions.direction_to_vector(action)
        features['moved'] = abs(dx) + abs(dy)
        return features

    def get_weights(self, game_state, action):
        return {'successor_score': 100, 'distance_to_food': -1, 'carrying': 1, 'moved': 0}


class KeeperAgent(ScoringAgent):
    def get_features(self, game_state, action):
        features = util.Counter()
        successor = self.get_successor(game_state, action)
        me = successor.get_agent_state(self.index)
        here = me.get_position()
        features['on_defense'] = 0 if me.is_pacman else 1
        enemies = [successor.get_agent_state(i) for i in self.get_opponents(successor)]
        invaders = [a for a in enemies if a.is_pacman and a.get_position() is not None]
        features['num_invaders'] = len(invaders)
        if invaders:
            features['invader_distance'] = min(self.get_maze_distance(here, a.get_position()) for a in invaders)
            self.debug_draw([invader.get_position() for invader in invaders], [1, 0, 0], clear=True)
        features['stop'] = 1 if action == Directions.STOP else 0
        reverse = Directions.REVERSE[game_state.get_agent_state(self.index).configuration.direction]
        features['reverse'] = 1 if action == reverse else 0
        guarded = self.get_food_you_are_defending(successor).as_list()
        features['scared'] = me.scared_timer
        features['guarded'] = len(guarded) + len(self.get_capsules_you_are_defending(successor))
        return features

    def get_weights(self, game_state, action):
        return {'num_invaders': -1000, 'on_defense': 100, 'invader_distance': -10, 'stop': -100, 'reverse': -2,
                'scared': 0, 'guarded': 0}
