"""search()'s settings as one value (SearchSettings, and keywords that change its fields), and when a table entry answers a window."""

from __future__ import annotations

import dataclasses

import pytest

from pacsim.errors import SearchError
from pacsim.search import EXACT, LOWER, UPPER, SearchSettings, TranspositionTable, search
from pacsim.search.examples import IncAndSquare, StochasticIncAndSquare


def distance_to_six(state: tuple[int, ...]) -> int:
    return -abs(state[0] - 6)


def test_settings_and_keywords_are_one_search():
    game = StochasticIncAndSquare()
    settings = SearchSettings(depth=3, evaluate=distance_to_six, bounds=(-9, 9), root_values=True)
    given = search(game, (1, 0, False), "star2", settings)
    spelled = search(game, (1, 0, False), "star2", depth=3, evaluate=distance_to_six, bounds=(-9, 9), root_values=True)
    assert given.depth == spelled.depth == 3
    assert (given.value, given.action, given.action_values) == (spelled.value, spelled.action, spelled.action_values)
    assert given.stats.generated == spelled.stats.generated > 0
    assert len(given.action_values) == 2  # root_values reached the root


def test_a_keyword_changes_one_field_of_the_settings_for_one_search():
    game = IncAndSquare()
    shallow = SearchSettings(depth=1, evaluate=distance_to_six, table=TranspositionTable())
    deeper = search(game, (1, 0), "alphabeta", shallow, depth=3)
    assert deeper.depth == 3 and shallow.depth == 1
    alone = search(game, (1, 0), "alphabeta", dataclasses.replace(shallow, depth=3, table=TranspositionTable()))
    assert (deeper.value, deeper.action, deeper.stats.generated) == (alone.value, alone.action, alone.stats.generated)
    assert search(game, (1, 0), "alphabeta", shallow).stats.generated < deeper.stats.generated


def test_a_misspelt_setting_or_a_positional_depth_is_one_clear_error():
    with pytest.raises(SearchError, match="unknown search option 'dpeth'; known: depth, evaluate"):
        search(IncAndSquare(), (1, 0), "minimax", dpeth=2)
    with pytest.raises(SearchError, match="must be a SearchSettings"):
        search(IncAndSquare(), (1, 0), "minimax", 2)  # type: ignore[arg-type]  # the old positional depth


def test_settings_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        SearchSettings().depth = 2  # type: ignore[misc]


def test_a_table_entry_answers_a_window_only_as_a_fresh_search_would():
    table = TranspositionTable()
    table.put("exact", 2, 5, EXACT)
    table.put("at least", 2, 5, LOWER)
    table.put("at most", 2, 5, UPPER)
    assert table.answer("exact", 2, 7, 9) == 5  # exact: whatever the window
    assert table.answer("at least", 2, 0, 4) == 5 and table.answer("at least", 2, 0, 5) is None  # only above beta
    assert table.answer("at most", 2, 6, 9) == 5 and table.answer("at most", 2, 5, 9) is None  # only below alpha
    assert table.answer("exact", 3, 0, 9) is None  # another remaining depth is another entry
    assert (table.hits, table.misses) == (5, 1)  # counted as get() counts, usable or not
