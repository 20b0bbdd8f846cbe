"""Predict, then check: a question about a traced search, for the tree
page's exercise mode (``pacsim tree --exercise``, ``pacsim exercises``).

A question asks for one node's value (its children's values given) or for
the move a search plays (its moves' children's values given).  The page
hides every other value, checks the answer the student types or picks,
and then shows the whole tree with the sentence that explains the answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

from pacsim.errors import ConfigError
from pacsim.search.trace import LEAF, TERMINAL_KIND, SearchTrace, TraceNode
from pacsim.web.lesson import children_name, children_text, how, path_text, same_value, searched
from pacsim.web.tree_labels import label, mover, step

QUESTION_KINDS = ("value", "move")
"""What a question asks for: a node's value, or the move the search plays at the root."""


@dataclass(frozen=True, slots=True)
class Question:
    """One question about one trace."""

    kind: str
    """``value`` or ``move`` (:data:`QUESTION_KINDS`)."""
    node: int
    """The node asked about (the root for ``move``)."""
    path: str
    """The node's moves from the root (empty: the root), each with who made it."""
    prompt: str
    """The question as the page asks it."""
    answer: Any
    """The node's value (a number) or the move's name."""
    choices: tuple[str, ...]
    """``move``: the moves to pick from; ``value``: empty."""
    accepted: tuple[str, ...]
    """``move``: every move as good as the one played (a tie is no mistake); ``value``: empty."""
    givens: tuple[int, ...]
    """The nodes whose values the page shows before the answer."""
    explanation: str
    """Why the answer is what it is, in one sentence."""


def question_for(trace: SearchTrace, kind: str, node: int | None = None, name: str = "") -> Question:
    """A ``kind`` question on ``trace``: about ``node`` (by default, for a
    value, the best line's first node with children, else the root)."""
    name = name or trace.algorithm
    if kind == "move":
        return move_question(trace, name)
    if kind != "value":
        raise ConfigError(f"question {kind!r}: choose one of {', '.join(QUESTION_KINDS)}")
    return value_question(trace, default_value_node(trace) if node is None else node, name)


def default_value_node(trace: SearchTrace) -> int:
    """The node a value question asks about by default: a move of the root
    whose children differ in value (the one played first), else the root."""
    def differ(index: int) -> bool:
        values = [trace.nodes[child].value for child in searched(trace, trace.nodes[index])]
        return len(values) > 1 and not all(same_value(value, values[0]) for value in values)

    line = trace.principal_variation
    moves = sorted(searched(trace, trace.root), key=lambda index: index not in line)
    return next((index for index in moves if differ(index)), 0)


def value_question(trace: SearchTrace, index: int, name: str) -> Question:
    node = trace.nodes[index]
    if not searched(trace, node):
        raise ConfigError(f"node {index}: a {node.kind} node has no children to work its value out from")
    givens = tuple(searched(trace, node))
    where = path_of(trace, node)
    prompt = (f"What is {where or 'the root'} worth to {name}? "
              f"The values of its {children_name(node)} are shown below it.")
    return Question("value", index, where, prompt, as_number(node.value), (), (), givens,
                    f"{children_text(trace, node)}: {name} {how(trace, node)}.")


def move_question(trace: SearchTrace, name: str) -> Question:
    root = trace.root
    moves = [trace.nodes[index] for index in searched(trace, root)]
    if root.kind not in ("max", "min") or len(moves) < 2 or trace.result.action is None:
        raise ConfigError(f"{name}: the root has no choice of moves to ask about")
    givens: list[int] = []
    for move in moves:
        below = searched(trace, move)
        givens.extend(below if below and move.kind not in (LEAF, TERMINAL_KIND) else [move.index])
    prompt = f"Which move does {name} play here? Work out each move's value from the values shown below it."
    values = "; ".join(f"{step(trace, move)}: {how(trace, move)}" for move in moves)
    played = trace.nodes[trace.principal_variation[1]]
    accepted = tuple(step(trace, move) for move in moves if same_value(move.value, played.value))
    return Question("move", 0, "", prompt, label(trace.result.action), tuple(step(trace, move) for move in moves),
                    accepted, tuple(givens), f"{values}; so {mover(root)} {how(trace, root)}: {label(trace.result.action)}.")


def path_of(trace: SearchTrace, node: TraceNode) -> str:
    """"Pacman West → ghost 1 South": the moves from the root to ``node``."""
    path = [node.index]
    while trace.nodes[path[0]].parent >= 0:
        path.insert(0, trace.nodes[path[0]].parent)
    return path_text(trace, path)


def as_number(value: Any) -> float | str:
    """A value for the page and the key: a float (6 decimals), infinities as text."""
    number = float(value)
    return round(number, 6) if number not in (float("inf"), float("-inf")) else ("+inf" if number > 0 else "-inf")


def question_data(question: Question, number: dict[int, int]) -> dict[str, Any]:
    """``question`` for the page, its nodes as the embedded rows ``number`` gives them."""
    return {"kind": question.kind, "node": number[question.node], "prompt": question.prompt, "answer": question.answer,
            "choices": list(question.choices), "accepted": list(question.accepted), "givens": [number[index] for index in question.givens],
            "explanation": question.explanation}


def kept_for(trace: SearchTrace, question: Question) -> tuple[int, ...]:
    """The nodes a page must embed for ``question``: the path to its node and its givens' paths."""
    kept: set[int] = set()
    for index in (question.node, *question.givens):
        while index >= 0 and index not in kept:
            kept.add(index)
            index = trace.nodes[index].parent
    return tuple(sorted(kept))


# -- a sheet of exercises (pacsim exercises) ---------------------------------------

KEY_FIELDS = ("number", "page", "source", "search", "kind", "node", "question", "answer", "accepted", "explanation")
"""The answer key's columns (key.json's objects, key.csv's header)."""
KEY_SCHEMA = "pacsim-exercises/1"


@dataclass(frozen=True, slots=True)
class Exercise:
    """One exercise of a sheet: a question on a traced search of a position."""

    trace: SearchTrace
    question: Question
    source: str
    """Where the position comes from (a maze and move, or a seed's example)."""
    search: str
    """The search's spec (or algorithm) as the student is told it."""


def worth_asking(trace: SearchTrace, kind: str, ties: bool = True) -> Question | None:
    """A ``kind`` question on ``trace`` when it has something to work out (a
    choice of moves not all worth the same, a node whose children differ;
    without ``ties``, a move question whose best move is the only best), else None."""
    try:
        question = question_for(trace, kind)
    except ConfigError:
        return None
    values = [trace.nodes[index].value for index in searched(trace, trace.nodes[question.node])]
    if all(same_value(value, values[0]) for value in values) or (not ties and len(question.accepted) > 1):
        return None
    return question  # a move tied with the one played is accepted too (Question.accepted)


def key_rows(exercises: list[Exercise]) -> list[dict[str, Any]]:
    """The answer key, one row per exercise (:data:`KEY_FIELDS`)."""
    return [{"number": number, "page": page_name(number), "source": exercise.source, "search": exercise.search,
             "kind": exercise.question.kind, "node": exercise.question.path or "root",
             "question": exercise.question.prompt, "answer": exercise.question.answer,
             "accepted": " ".join(exercise.question.accepted), "explanation": exercise.question.explanation}
            for number, exercise in enumerate(exercises, 1)]


def page_name(number: int) -> str:
    return f"exercise-{number:02d}.html"


def sheet_page(exercises: list[Exercise], title: str) -> str:
    """The sheet: each exercise's question and a link to its page (no answers)."""
    items = "\n".join(
        f'<li><a href="{page_name(number)}">{escape(exercise.source)}, {escape(exercise.search)}</a>: '
        f"{escape(exercise.question.prompt)}</li>" for number, exercise in enumerate(exercises, 1))
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{escape(title)}</title>\n'
            "<style>body{font:15px/1.5 system-ui,sans-serif;margin:2em;max-width:60em}li{margin:.4em 0}</style>\n"
            f"</head>\n<body>\n<h1>{escape(title)}</h1>\n<p>Predict, then check: on each page work out the answer from "
            "the values shown, type it or pick it, and the page checks it and opens the tree that explains it.</p>\n"
            f"<ol>\n{items}\n</ol>\n</body>\n</html>\n")
