"""The course's ``layout`` as UPF's ``contest.layout`` hands it to team code: its ``Layout`` class
(``gameState.data.layout``), named in type hints."""

from pacsim.agents.capture.course.gamestate import CourseMaze as Layout

__all__ = ["Layout"]
