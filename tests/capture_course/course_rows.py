"""A capture state as one canonical row, the same from the course's engine and pacsim's.

``python -m pacsim.bench.course_capture DIR --trace`` prints the course's rows; :func:`pacsim_row` makes
pacsim's; :func:`digest` is what the committed recordings keep per move."""

import hashlib
import json


def canonical(row: dict) -> dict:
    """Lists sorted and made plain, so that both engines' rows compare equal."""
    row = dict(row)
    row["food"] = sorted([list(item) for item in row["food"]])
    row["capsules"] = sorted([list(item) for item in row["capsules"]])
    return row


def pacsim_row(state) -> dict:
    layout = state.layout
    return canonical({
        "score": state.score,
        "food": [layout.xy(cell) for cell in state.food_cells()],
        "capsules": [layout.xy(cell) for cell in state.capsule_cells()],
        "positions": [list(layout.xy(cell)) for cell in state.positions],
        "pacman": list(state.pacman),
        "carrying": list(state.carrying),
        "returned": list(state.returned),
        "scared": list(state.scared),
        "over": state.over,
    })


def digest(row: dict) -> str:
    return hashlib.sha256(json.dumps(canonical(row), sort_keys=True).encode()).hexdigest()[:16]
