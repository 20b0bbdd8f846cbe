"""Games and results in the browser: self-contained HTML replays, a results
page, and the notebook display of games.

A top layer beside :mod:`pacsim.viewer` and :mod:`pacsim.cli`: it reads the
engine (to compute every frame through the rules), the viewer's style (so
both draw the same board) and the report layer; nothing below imports it.
Neither pygame nor a browser is needed to write a page.
"""
