"""Text into reportlab paragraphs: the one place where text becomes paragraph markup.

reportlab's :class:`~reportlab.platypus.Paragraph` reads its text as markup (``<b>``,
``<img>``, ``<onDraw>``, ``&entities;``), so a spec's title, step sentence or glyph must never
reach it as it is: ``<img onerror=...>`` would stop the booklet with a parser error, and
``<onDraw>`` or ``<img src=...>`` would draw what the spec's author wants. Every paragraph of
every PDF is made here, from plain text: :func:`paragraph` escapes all of it, and the few
marks kitgen adds itself (a bold lead, an italic term, subscripts in a spec's ``P_1``) are
given as :class:`Styled` fragments or a switch, never as markup. Nothing else in kitgen makes
a ``Paragraph`` (a test checks it), and the contents' entries are escaped as the headings are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal
from xml.sax.saxutils import escape

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

from .prose import SUBSCRIPT  # a spec's prose writes subscripts as ``P_1``, ``x_{i}``, ``s_(j)``

WHITE = re.compile(r"\s+")


@dataclass(frozen=True)
class Styled:
    """A fragment kitgen sets in bold (``b``) or italic (``i``); its text is escaped too."""

    text: str
    style: Literal["b", "i"]


Fragment = str | Styled


def markup(*fragments: Fragment, subscripts: bool = False) -> str:
    """Paragraph markup that prints ``fragments`` literally, one after the other (runs of white
    space set as one space); with ``subscripts`` (a spec's prose) ``P_1`` and ``x_{i}`` in the
    plain fragments are set as subscripts."""
    out = []
    for frag in fragments:
        text = frag.text if isinstance(frag, Styled) else frag
        escaped = escape(WHITE.sub(" ", text))
        if isinstance(frag, Styled):
            escaped = f"<{frag.style}>{escaped}</{frag.style}>"
        elif subscripts:
            # Escaping leaves no '_', '{', '}', '(' or ')' inside an entity, so a subscript
            # never cuts one in two.
            # A real subscript: smaller, and lowered by a little (reportlab's default drops it
            # half a line, so "P_n's" read "P n 's").
            escaped = SUBSCRIPT.sub(
                lambda m: f'<sub rise="2" size="75%">{m.group(1).strip("{}")}</sub>', escaped
            )
        out.append(escaped)
    return "".join(out).strip()


def paragraph(style: ParagraphStyle, *fragments: Fragment, subscripts: bool = False) -> Paragraph:
    """A paragraph that prints ``fragments`` literally (see :func:`markup`)."""
    return Paragraph(markup(*fragments, subscripts=subscripts), style)


class Heading(Paragraph):
    """A heading that goes into the table of contents and the PDF outline."""

    def __init__(self, text: str, style: ParagraphStyle, level: int, key: str):
        super().__init__(markup(text), style)
        self.text = " ".join(text.split())  # plain, for the PDF outline
        self.toc_level = level
        self.key = key
        self.top = 0.0  # where its first line's top was drawn, from the page's foot (set by draw)

    def draw(self) -> None:
        """The heading, noting how high on the page it is: its outline entry points there, so a
        reader's viewer opens at the heading and the identifier check knows where a Validation
        that opens mid-page begins (kitgen.booklet.jargon.exempt_pages)."""
        self.top = float(self.canv.absolutePosition(0, self.height)[1])
        super().draw()

    @property
    def toc_markup(self) -> str:
        """The heading as the table of contents sets it (reportlab parses its entries as markup)."""
        return markup(self.text)


__all__ = ["Fragment", "Heading", "Styled", "markup", "paragraph"]
