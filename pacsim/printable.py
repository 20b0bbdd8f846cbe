"""Untrusted text made safe to show: names and messages that came from an entrant's files or code.

A folder name, a file name or an exception's message is the author's to
choose; on a terminal an escape sequence in it clears or recolours the
screen, and a newline forges a line of its own (a leaderboard row, say).
Everything pacsim shows of such text goes through :func:`printable`.
"""

from __future__ import annotations

__all__ = ["has_control_characters", "printable"]


def has_control_characters(text: str) -> bool:
    """Whether ``text`` holds a character a terminal or a page would not show as itself
    (control and format characters, line and paragraph separators: ``str.isprintable``; a space is fine)."""
    return not text.replace(" ", "").isprintable()


def printable(text: str) -> str:
    """``text`` with each character that is not printable written as its Python escape
    (``\\x1b``, ``\\n``, ``\\u202e``), everything else as it is."""
    if not has_control_characters(text):
        return text
    return "".join(character if character == " " or character.isprintable() else repr(character)[1:-1]
                   for character in text)
