"""The one place the viewer imports pygame, after silencing its greeting
(which would otherwise land in the middle of command output)."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

__all__ = ["pygame"]
