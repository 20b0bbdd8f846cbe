"""The course's framework modules for capture teams, written by pacsim.

An unmodified course team file imports ``captureAgents``, ``distanceCalculator``,
``game``, ``util`` (and sometimes ``capture``); :func:`pacsim.agents.capture.course_team.load_team_module`
hands it these modules under those names while it is imported, so it plays
with nothing of the course's framework beside it.  Each module holds what
course team files use, over pacsim's state (:mod:`.gamestate`).
"""

COURSE_MODULES = ("captureAgents", "distanceCalculator", "game", "util", "capture")
"""The names a course team file imports, each a module of this package."""

UPF_MODULES = {"capture_agents": "capture_agents", "distance_calculator": "distanceCalculator", "game": "game",
               "util": "util", "capture": "capture"}
"""UPF's snake_case framework's module names (``from capture_agents import CaptureAgent``, or under its
package: ``contest.capture_agents``), each the module of this package it is: only ``capture_agents`` is
UPF's own (its agent base class); the others answer both conventions' names."""

CONTEST_MODULES = {"captureAgents": "capture_agents", "distanceCalculator": "distanceCalculator", "layout": "layout"}
"""UPF's 2022-23 ``contest`` package, whose modules had the course's camelCase file names around snake_case code
(``from contest.captureAgents import CaptureAgent``, ``contest.layout.Layout``), each the module of this package it is."""
