"""Drawing the same thing once per PDF: what a canvas drew is kept and its operators replayed.

A kit draws the same card face many times into one PDF (a deck holds two of most cards, and a
hundred owner cards look alike). :func:`replayed` draws it the first time and keeps the PDF
operators the drawing appended to the page (reportlab's ``_code``) and the canvas's graphics state
after it; the next time the same face is drawn *from the same state* in the same PDF (wherever it
is placed: the operators are relative to the current matrix), it appends the same operators and
sets the same state, without drawing again. The operators are those the
drawing would write, so the PDF's bytes are the same. It is kept only when the drawing has no
effect outside the page's operators and the graphics state: it may not change transparency
(reportlab's ExtGState), start a page or leave the current matrix changed. Fonts and their
subsets belong to the PDF, and a replay uses only glyphs its first drawing already put into them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from reportlab.pdfgen.canvas import Canvas

# The graphics state a drawing starts from and leaves, as reportlab's canvas keeps it, but the
# transparency (not replayed) and the current matrix: a drawing's operators are relative to it (a
# face is drawn the same wherever it is placed), and a drawing that is kept leaves it as it found it.
_STATE = [name for name in Canvas.STATE_ATTRIBUTES if name not in ("_extgstate", "_currentMatrix")]
_MEMO = "_kitgen_replays"


def replayed(c: Canvas, key: Hashable, draw: Callable[[], None]) -> None:
    """``draw()`` on ``c``, or the operators it appended when drawn before with the same ``key``
    from the same graphics state in this PDF."""
    attrs: dict[str, Any] = c.__dict__
    memo: dict[tuple[Hashable, str], tuple[list[str], dict[str, Any]]] = attrs.setdefault(_MEMO, {})
    entry = (key, repr([attrs[name] for name in _STATE]))
    kept = memo.get(entry)
    if kept is not None:
        code, after = kept
        attrs["_code"].extend(code)
        attrs.update({name: _copy(v) for name, v in after.items()})
        return
    page = attrs["_code"]
    start = len(page)
    gstate, matrix = dict(attrs["_extgstate"]._d), attrs["_currentMatrix"]
    draw()
    if attrs["_code"] is not page or attrs["_extgstate"]._d != gstate or attrs["_currentMatrix"] != matrix:
        return  # a new page, transparency or a change of the matrix: not kept
    memo[entry] = (page[start:], {name: _copy(attrs[name]) for name in _STATE})


def _copy(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value
