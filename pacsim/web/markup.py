"""Text put into HTML pages, made safe to put there: one helper for every
page that carries data in a ``<script>`` element.

A ``<script>`` element's text is not parsed as HTML, but the HTML parser
still looks inside it for ``</script`` (which ends it) and ``<!--`` (which,
followed by ``<script``, makes the parser skip the real end tag and swallow
the rest of the page).  JSON escaping only ``</`` leaves the second open: a
name holding ``<!--<script>`` blanked the page.  Written as ``\\u003c``,
``\\u003e`` and ``\\u0026``, no ``<``, ``>`` or ``&`` is left in the text at
all, and ``JSON.parse`` (or a JavaScript literal) reads back the same
characters.  Text put into HTML itself goes through :func:`html.escape`.
"""

from __future__ import annotations

import json
from typing import Any

_SCRIPT_ESCAPES = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def script_json(value: Any, *, compact: bool = False) -> str:
    """``value`` as JSON that is safe inside a ``<script>`` element (also as a
    JavaScript literal): no ``<``, ``>`` or ``&`` in it, whatever strings it
    holds.  ``compact``: no spaces after separators.  No NaN or infinity
    (``ValueError``): JSON has none."""
    separators = (",", ":") if compact else None
    # ensure_ascii (the default): U+2028 and U+2029, which ended a JavaScript string before ES2019, come out escaped.
    return json.dumps(value, separators=separators, allow_nan=False).translate(_SCRIPT_ESCAPES)


SCRIPT_STRINGIFY = '(value) => JSON.stringify(value).replace(/[<>&]/g, (c) => "\\\\u00" + c.charCodeAt(0).toString(16))'
""":func:`script_json` in JavaScript: a page that builds another page in the
browser (``pacsim lesson-map``'s replays) escapes its JSON the same way."""
