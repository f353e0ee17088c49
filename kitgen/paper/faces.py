"""Card faces, as data, and what every drawing of one needs: :class:`Face`, the style
loaded from ``templates/cards.yaml``, fonts, canvases, documents and PDF tables.
Drawing a face is :func:`kitgen.paper.drawing.draw_face`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import BinaryIO, Literal

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, SimpleDocTemplate, Table, TableStyle

from reference_engine.api import Checker, SpecError, UsageError, load_file

from ..core.templates import templates_dir
from ..lang.catalogue import named, per_language

FONT = "KitSans"


FONT_BOLD = "KitSans-Bold"


@dataclass(frozen=True)
class Face:
    """What one card shows: a kind, a key and (for some kinds) a few words."""

    kind: str  # marker | theta | deck | two_colour | seat | choice | label | plain | tile
    key: str
    title: str
    extra: tuple[str, ...] = field(default=())

    def __str__(self) -> str:
        return self.title


@dataclass(frozen=True)
class Style:
    back: dict[str, str]  # the back's colour, and its colour with --ink-saver
    markers: dict[str, dict[str, str]]
    theta_palette: tuple[str, ...]
    colours: dict[str, dict[str, str]]
    wild: dict[str, str]
    deck_faces: dict[str, str]
    two_colour: dict[str, dict[str, str]]
    helper: dict[str, str]
    labels: dict[str, dict[str, str]]


@per_language  # its card names in the active language (kitgen.lang)
def style() -> Style:
    src = load_file(templates_dir() / "cards.yaml")
    ck = Checker(src)
    doc = (
        ck.mapping(
            src.data,
            (),
            required=("back", "markers", "theta", "colour_deck", "two_colour", "helper", "labels"),
            optional=("font", "font_bold"),
        )
        or {}
    )
    deck = (
        ck.mapping(doc.get("colour_deck", {}), ("colour_deck",), required=("colours", "wild", "faces")) or {}
    )
    theta = ck.mapping(doc.get("theta", {}), ("theta",), required=("palette",)) or {}
    if ck.problems:
        raise SpecError(ck.problems)
    _register_fonts(str(doc.get("font", "DejaVuSans.ttf")), str(doc.get("font_bold", "DejaVuSans-Bold.ttf")))
    return Style(
        back={str(k): str(v) for k, v in doc["back"].items()},
        markers={k: named(v) for k, v in doc["markers"].items()},
        theta_palette=tuple(theta["palette"]),
        colours={k: named(v) for k, v in deck["colours"].items()},
        wild=named(deck["wild"]),
        deck_faces=dict(deck["faces"]),
        two_colour={k: named(v) for k, v in doc["two_colour"].items()},
        helper={k: str(v) for k, v in doc["helper"].items()},
        labels={k: {a: str(b) for a, b in named(v).items()} for k, v in doc["labels"].items()},
    )


def _register_fonts(regular: str, bold: str) -> None:
    if FONT in pdfmetrics.getRegisteredFontNames():
        return
    fonts = templates_dir() / "fonts"
    for name, file in ((FONT, regular), (FONT_BOLD, bold)):
        path = fonts / file
        if not path.is_file():
            raise UsageError(f"font file missing: {path}")
        pdfmetrics.registerFont(TTFont(name, str(path)))


def ensure_fonts() -> None:
    style()


def new_canvas(path: str | BinaryIO, size: tuple[float, float], title: str) -> Canvas:
    """A reproducible PDF canvas (``invariant``: no dates or random IDs) whose every font is embedded.

    The initial font is ours, so reportlab never writes a reference to unembedded Helvetica, which
    print shops reject.
    """
    ensure_fonts()
    # The reportlab stub types initialFontName as a float; reportlab takes a registered font name.
    c = Canvas(path, pagesize=size, invariant=1, initialFontName=FONT, initialFontSize=8)  # type: ignore[arg-type]
    c.setTitle(title)
    c.setAuthor("kitgen")
    c.setCreator("kitgen")
    return c


def new_document(
    target: str | BinaryIO, paper: tuple[float, float], margin: float, title: str
) -> SimpleDocTemplate:
    """A reproducible one-column platypus document (``invariant``) whose initial font is ours (as
    :func:`new_canvas`), ``margin`` on every side; a sheet of paragraphs such as a class handout."""
    ensure_fonts()
    return SimpleDocTemplate(
        target,
        pagesize=paper,
        leftMargin=margin,
        rightMargin=margin,
        topMargin=margin,
        bottomMargin=margin,
        title=title,
        author="kitgen",
        creator="kitgen",
        invariant=1,
        initialFontName=FONT,
    )


# What a cell of a platypus table holds: text, a flowable, or flowables stacked in it.
Cell = str | Flowable | list[Flowable]


def pdf_table(
    rows: Sequence[Sequence[Cell]],
    colWidths: Sequence[float],
    repeatRows: int = 0,
    hAlign: Literal["LEFT", "CENTER", "RIGHT"] | None = None,
) -> Table:
    """A platypus table whose cells start in our embedded font: reportlab's default cell font is
    Helvetica, which it never embeds, and a print shop's preflight rejects a PDF listing it."""
    t = Table([list(row) for row in rows], colWidths=colWidths, repeatRows=repeatRows, hAlign=hAlign)
    t.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), FONT, 9)]))
    return t
