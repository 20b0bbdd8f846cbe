"""A tournament's leaderboard as one HTML page (``pacsim tournament --html``):
the tables, a replay of one game of each Pacman and of the first games its
faults ended.  Every number and every choice of game comes from
:mod:`pacsim.report.leaderboard`; this module only lays them out.
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Sequence
from pathlib import Path

import pandas

from pacsim.report.leaderboard import (
    EXPLANATION,
    HEAD_TO_HEAD,
    BoardReplay,
    Leaderboard,
    board_replays,
    identical_lines,
    replay_command,
    replayed_faults,
    standings_frame,
    unseparated_lines,
)
from pacsim.web.cli import write_page
from pacsim.web.player import asset
from pacsim.web.report_page import replay_figure


def leaderboard_page(board: Leaderboard, name: str, store: str, replays: Sequence[BoardReplay]) -> str:
    """The whole page: the tables, then the games ``replays`` (:func:`~pacsim.report.leaderboard.board_replays`)."""
    board = board if board.store else dataclasses.replace(board, store=store)
    sections = [f"<h1>Tournament: {html.escape(name)}</h1>"]
    if board.isolation:
        sections.append(f'<p class="warning"><strong>{html.escape(board.isolation)}</strong></p>')
    sections += [f"<p>{html.escape(EXPLANATION)}</p>",
                "<h2>Pacmen</h2>", standings_frame(board.pacmen, "pacman").to_html(index=False)]
    sections += [f"<p>{html.escape(line)}</p>" for line in unseparated_lines(board.pacmen)]
    sections += [f'<p class="warning">{html.escape(line)}</p>' for line in identical_lines(board)]
    if len(board.ghosts) > 1:
        sections += ["<h2>Ghosts</h2>", standings_frame(board.ghosts, "ghosts").to_html(index=False)]
    if len(board.head_to_head) > 1:
        sections += [f"<h2>Head to head</h2><p>{html.escape(HEAD_TO_HEAD)}</p>", board.head_to_head.to_html()]
    if not board.crosstable.empty:
        sections += ["<h2>Crosstable</h2><p>The Pacman's win rate (mean score) against each ghost.</p>",
                     board.crosstable.to_html()]
    if board.faults:
        sections.append(_faults_section(board, replayed_faults(board)))
    if board.refused:
        items = "".join(f"<li>{html.escape(entrant)}: {html.escape(why)}</li>" for entrant, why in board.refused)
        sections.append(f"<h2>Not played</h2><ul>{items}</ul>")
    sections += _replays(store, replays)
    body = "\n".join(sections)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>Tournament: {html.escape(name)}</title>\n<style>\n{asset('report.css')}</style>\n</head>\n"
            f"<body>\n{body}\n</body>\n</html>\n")


def _replays(store: str, replays: Sequence[BoardReplay]) -> list[str]:
    """The games section: each replay under an anchor the faults table links to."""
    sections = ["<h2>Games</h2><p>Each Pacman's first win (else its first game), then the first game of each fault "
                "listed above, replayed from the store; open any game with "
                "<code>pacsim replay STORE --game ID --html FILE</code>.</p>"]
    sections += [f'<div class="replays" id="game-{replay.game}">{replay_figure(store, replay.row, replay.label, replay.games)}</div>'
                 for replay in replays]
    return sections


def _faults_section(board: Leaderboard, replayed: Sequence[int]) -> str:
    """The faults' messages, each with the command that replays its first game (and a link to that replay
    when the page holds it)."""
    rows = []
    for note in board.faults:
        where = "" if note.game is None else f"<code>{html.escape(replay_command(board.store, note.game))}</code>"
        where += f' <a href="#game-{note.game}">replay below</a>' if note.game in replayed else ""
        rows.append(f"<tr><td>{html.escape(note.entrant)}</td><td>{note.role_name}"
                    f"</td><td>{note.count}</td><td>{html.escape(note.message)}</td><td>{where}</td></tr>")
    return ("<h2>Faults</h2><p>The first line of each fault's message, and the command that writes the replay of "
            "the first game it ended.</p><table><thead><tr><th>entrant</th><th>role</th><th>games</th>"
            f"<th>message</th><th>replay</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")


def write_leaderboard_page(path: str | Path, board: Leaderboard, name: str, store: str,
                           results: pandas.DataFrame, pacmen: dict[str, str]) -> None:
    """The page of ``board`` (its games ``results``, ``pacmen`` its entrants' names by spec), written atomically."""
    write_page(str(path), leaderboard_page(board, name, store, board_replays(board, results, pacmen)))
