"""Pacman's action values at each move of a recorded game, found by searching
again with the recorded Pacman (a record keeps actions, not values)."""

from __future__ import annotations

from collections.abc import Sequence

from pacsim.agents.api import ValuingAgent
from pacsim.agents.registry import make_pacman, refuse_named_code
from pacsim.engine.game import agent_rng
from pacsim.engine.recording import SavedGame
from pacsim.engine.state import GameState
from pacsim.engine.streams import streams_of
from pacsim.errors import ConfigError
from pacsim.viewer import style
from pacsim.web.frames import MoveTrees, SearchValues, move_positions


def recorded_action_values(saved: SavedGame, states: Sequence[GameState]) -> SearchValues:
    """For each position the player shows, the value (MCTS: the visits) of
    each Pacman action as the recorded Pacman's search finds it; None at the
    end.  The search is deterministic for the minimax family; MCTS draws from
    the game's seed (through the streams it was played with, but without a
    tournament's secret key), so its visits show one search, not necessarily the game's."""
    refuse_plugin_code(saved, "--html-values")
    agent = make_pacman(saved.pacman)
    if not isinstance(agent, ValuingAgent):
        raise ConfigError(f"--html-values: the recorded Pacman {saved.pacman!r} does not search (no values to show)")
    agent.reset(0, agent_rng(saved.seed or 0, 0, streams_of(saved.streams)))
    shown = move_positions(states)
    rows = [None if state.is_terminal or state is shown[-1] else list(agent.action_values(state)) for state in shown]
    return SearchValues(style.values_heading(agent), rows)


def refuse_plugin_code(saved: SavedGame, option: str) -> None:
    """``replay`` never runs plugin code: searching again is for built-in
    Pacmen whose evaluation and ghost model are built in too."""
    refuse_named_code(saved.pacman, f"{option}: the recorded Pacman",
                      "to search with it as you, name it yourself: pacsim tree --record GAME.json --pacman SPEC")


def recorded_trees(saved: SavedGame, states: Sequence[GameState], max_nodes: int) -> MoveTrees:
    """For each position the player shows, the recorded Pacman's search tree
    there (packed for the page: :func:`pacsim.web.tree.packed`, at most
    ``max_nodes`` nodes); None where Pacman does not move."""
    from pacsim.web.tree import TREE_DATA, packed, page_shell, tracing_pacman, tree_data

    refuse_plugin_code(saved, "--tree")
    agent = tracing_pacman(saved.pacman, option="--tree: the recorded Pacman")
    shown = move_positions(states)
    trees: list[str | None] = []
    for move, state in enumerate(shown):
        if state.is_terminal or state is shown[-1]:
            trees.append(None)
            continue
        trace = agent.trace(state)
        trees.append(packed([tree_data(trace, title=f"{saved.pacman}, move {move}", max_nodes=max_nodes)]))
    return MoveTrees(trees, page_shell(f"pacsim tree: {saved.layout.name}, {saved.pacman}"), TREE_DATA)
