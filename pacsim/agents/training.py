"""Training the learning Pacmen of :mod:`pacsim.agents.learning` (``pacsim train``).

Q-learning as in CS188: after each Pacman move and the ghosts' replies,
``Q(s, a) += alpha * (r + gamma * max_a' Q(s', a') - Q(s, a))``, with ``r``
the score change and ``s'`` the next state where Pacman is to move (0 for
the max once the game is over); exploration is epsilon-greedy.  Episode
*i* is a pure function of the seed and *i* (its ghosts' and its
exploration's random streams), so a run resumed from its weights file,
saved every ``save_every`` episodes, ends with the file an uninterrupted
run would have written.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from pacsim import arguments
from pacsim.agents.api import Agent
from pacsim.agents.learning import LEARNING_PACMEN, QPacman, Weights, load_weights
from pacsim.agents.registry import make_ghost, parse_options
from pacsim.engine import DEFAULT_MAX_MOVES, GameState, Layout, agent_rng, apply_move, initial_state, load_layout
from pacsim.engine.game import describe_failure, start_agents
from pacsim.errors import AgentError, ConfigError

KINDS = ("approxq", "qlearn")


@dataclass(frozen=True)
class TrainingSettings:
    """Everything a training run depends on; a weights file records them, and
    is resumed only by a run with the same ones (the episode count aside)."""

    kind: str = "approxq"
    """``approxq`` (feature weights) or ``qlearn`` (a Q-table)."""
    layout: str = "smallClassic"
    ghosts: str = "random"
    """A ghost spec, every ghost the same."""
    ghost_args: str = ""
    num_ghosts: int | None = None
    epsilon: float = 0.05
    """Chance of a random legal move while training (CS188's default)."""
    alpha: float = 0.2
    """Learning rate (CS188's default)."""
    gamma: float = 0.8
    """Discount (CS188's default)."""
    seed: int = 0
    max_moves: int = DEFAULT_MAX_MOVES

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ConfigError(f"-p {self.kind}: trainable Pacmen are {', '.join(KINDS)}")
        for name in ("epsilon", "alpha", "gamma"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:  # also refuses NaN
                raise ConfigError(f"--{name} {value}: must be between 0 and 1")
        if self.max_moves < 1:
            raise ConfigError(f"--max-moves {self.max_moves}: must be at least 1")


def best_value(learner: QPacman, state: GameState) -> float:
    """max over a' of Q(state, a'); 0 once the game is over."""
    if state.is_terminal:
        return 0.0
    return max(value for _, value in learner.action_values(state))


def update(learner: QPacman, state: GameState, move: tuple[str, int], after: GameState, settings: TrainingSettings) -> None:
    reward = after.score - state.score
    difference = reward + settings.gamma * best_value(learner, after) - learner.q_value(state, *move)
    learner.learn(state, move, settings.alpha * difference)


def episode_seed(seed: int, episode: int) -> int:
    """The game seed of training episode ``episode`` (its ghosts' random streams)."""
    return random.Random(f"pacsim-train:{seed}:{episode}").getrandbits(31)


def choose(learner: QPacman, state: GameState, epsilon: float, rng: random.Random) -> tuple[str, int]:
    """Epsilon-greedy, ties at random."""
    moves = state.legal_moves()
    if rng.random() < epsilon:
        return rng.choice(moves)
    values = [learner.q_value(state, action, target) for action, target in moves]
    best = max(values)
    return rng.choice([move for move, value in zip(moves, values) if value == best])


def ghost_count(layout: Layout, num_ghosts: int | None, option: str = "num_ghosts") -> int:
    """How many of the layout's ghosts play (all of them when ``num_ghosts`` is None)."""
    if num_ghosts is None:
        return layout.num_ghosts
    count = arguments.integer(num_ghosts, option, minimum=0)
    if count > layout.num_ghosts:
        raise ConfigError(f"{option}={count}: layout {layout.name!r} has {layout.num_ghosts} ghosts")
    return count


def make_ghosts(spec: str, count: int, ghost_args: str = "") -> list[Agent]:
    """``count`` ghosts of one spec (built-in or plugin), each its own object."""
    options = parse_options(ghost_args)
    return [make_ghost(spec, options) for _ in range(count)]


def ghost_action(ghosts: list[Agent], state: GameState, during: str) -> str:
    """The action of the ghost whose turn it is; a plugin ghost's failure is
    one :class:`AgentError` line."""
    ghost = state.turn
    try:
        return ghosts[ghost - 1].get_action(state)
    except Exception as error:
        raise AgentError(f"ghost {ghost} {describe_failure(error)} {during}") from None


def ghosts_reply(state: GameState, ghosts: list[Agent]) -> GameState:
    """Every ghost moves in turn until Pacman is to move or the game is over."""
    while not state.is_terminal and state.turn != 0:
        state = state.successor(ghost_action(ghosts, state, "while training"))
    return state


def play_episode(learner: QPacman, layout: Layout, ghosts: list[Agent], settings: TrainingSettings, episode: int) -> GameState:
    """One training game, learning after every Pacman move; its last state."""
    seed = episode_seed(settings.seed, episode)
    start_agents(ghosts, seed, first_index=1)
    explore = agent_rng(seed, 0)
    state = initial_state(layout, len(ghosts))
    for _ in range(settings.max_moves):
        if state.is_terminal:
            break
        move = choose(learner, state, settings.epsilon, explore)
        after = ghosts_reply(apply_move(state, *move), ghosts)
        update(learner, state, move, after, settings)
        state = after
    return state


def start(settings: TrainingSettings, path: Path) -> Weights:
    """The weights to go on from: the file's, when it exists and matches."""
    if not path.exists():
        return Weights(settings.kind, {}, 0, asdict(settings))
    weights = load_weights(path, settings.kind, resumed=True)
    if weights.settings != asdict(settings):
        raise ConfigError(f"{path} was trained with other settings ({_differences(weights.settings or {}, asdict(settings))}); "
                          "give another file to start afresh")
    return weights


def _differences(old: dict, new: dict) -> str:
    return ", ".join(f"{key}={old.get(key)!r} there, {value!r} here" for key, value in new.items() if old.get(key) != value)


def train(settings: TrainingSettings, path: str | Path, episodes: int, save_every: int = 100,
          on_episode: Callable[[int, GameState], None] | None = None) -> Weights:
    """Train until ``episodes`` episodes are done in all, resuming from ``path``
    if it holds an earlier run of the same settings; saves as it goes."""
    path = Path(path)
    weights = start(settings, path)
    layout = load_layout(settings.layout)
    try:
        ghosts = make_ghosts(settings.ghosts, ghost_count(layout, settings.num_ghosts, "-k"), settings.ghost_args)
    except AgentError as error:
        raise ConfigError(str(error)) from None
    learner = LEARNING_PACMEN[settings.kind]()
    assert isinstance(learner, QPacman)
    learner.values = weights.values
    for episode in range(weights.episodes, episodes):
        final = play_episode(learner, layout, ghosts, settings, episode)
        weights.episodes = episode + 1
        if weights.episodes % save_every == 0 or weights.episodes == episodes:
            weights.save(path)
        if on_episode is not None:
            on_episode(episode, final)
    return weights
