"""The identifier check: a page for players speaks a player's words, never the spec's.

A booklet, a card sheet, a handout or a kit's web pages are read by a family that never read
the paper, so none of them may print what only a spec or a paper uses: a spec's identifier (a
place such as ``M``, a variable, an input, an output, a parameter, a card's key such as
``theta1`` or ``red_skip``), an expression (``2 * m + 1``, ``ncols(L)``), a YAML file or key
path, the paper's notation that a spec lists under ``booklet: notation`` (``P_1``, ``k``,
``E_[-m,m]``), or anything set as a subscript. The words to look for are derived from the specs
themselves (:class:`Vocabulary`), so the check works for any spec, a user's included.

Exempt are the places meant for the paper's words: the booklet's Validation appendix (found from
the PDF's outline, from its heading down: it may open below a protocol's end) and the "for the
curious" boxes (set in their own ink, the booklet style's ``curious_ink``).

Identifiers that are English words (``played``, ``found``, ``alpha``) are flagged only where they
read as code (``played(``, ``found =``, ``alpha[``); one-letter names that are English words
(``a``, ``A``, ``I``) only next to an operator or a bracket (``E(a)``, ``a - b``).
``python -m kitgen.booklet.jargon KIT_FOLDER`` prints what it finds and exits 1 if anything.
"""

from __future__ import annotations

import html
import itertools
import json
import math
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path

from reference_engine.api import (
    KitgenError,
    Library,
    Protocol,
    declared_names,
    expression_texts,
    is_game,
    load_game,
)

from ..core.manifest import BookletManifest, KitManifest, Manifest, OwnKitManifest
from ..core.manifest import from_json as manifest_from_json
from ..paper.imposition import saddle_order
from ..paper.pagepixels import PdfChar, page_chars

ENGLISH_LETTERS = frozenset({"a", "A", "I"})
# Two-letter English words a spec may use as a name (``to`` in "extend n cards to to"): words.
SHORT_WORDS = frozenset(
    "am an as at be by do go he if in is it me my no of on or so to up us we".split()  # noqa: SIM905
)
TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:['’][A-Za-z]+)*")
# Code whatever the spec: indexing, ranges, comparisons, underscores of the paper's notation,
# YAML files.
GENERIC = (
    (re.compile(r"[A-Za-z_]\w*\[\s*[\d*-]"), "indexing"),
    (re.compile(r"\b\d+\s*\.\.\s*\w"), "a range"),
    (re.compile(r"==|!="), "a comparison"),
    (re.compile(r"(?<![\w/.-])[A-Za-z]+_(?:[A-Za-z0-9]|\{|\(|\[)"), "an underscore"),
    (re.compile(r"[\w./-]+\.ya?ml\b"), "a YAML file"),
)
# A picture inlined as text (``data:image/png;base64,...==``): its base64 padding reads as a
# comparison, but a browser shows the picture, never the text.
DATA_URI = re.compile(r"\s*data:[\w.+-]+/[\w.+-]+[;,]")
OPERATORS = re.compile(r"[()\[\]*+/<>=_]|\s-\s")


def _code_like(name: str) -> bool:
    """A name no English sentence uses: with an underscore or a digit, mixed case, or short."""
    return (
        "_" in name
        or any(ch.isdigit() for ch in name)
        or (len(name) <= 2 and name not in ENGLISH_LETTERS and name not in SHORT_WORDS)
        or (name[:1].islower() and any(ch.isupper() for ch in name[1:]))
        or (len(name) > 1 and name.isupper())
    )


@dataclass(frozen=True)
class Vocabulary:
    """What a page for players must not print, derived from specs (and a game's card keys)."""

    code: frozenset[str]  # flagged anywhere as a whole word
    words: frozenset[str]  # English words: flagged only where they read as code
    families: frozenset[str]  # card families: ``theta`` + digits is flagged anywhere
    functions: frozenset[str]  # flagged as ``name(``
    expressions: tuple[str, ...]  # whole expressions with an operator
    notation: tuple[str, ...]  # the paper's symbols (booklet: notation)

    @classmethod
    def of(cls, protocols: Iterable[Protocol], extra: Iterable[str] = ()) -> Vocabulary:
        code: set[str] = set()
        words: set[str] = set()
        families: set[str] = set()
        functions: set[str] = set()
        expressions: list[str] = []
        notation: list[str] = []
        for proto in protocols:
            for name, what in declared_names(proto).items():
                if what == "card family":
                    families.add(name)
                (code if _code_like(name) else words).add(name)
            for text in expression_texts(proto):
                functions.update(re.findall(r"([A-Za-z_]\w*)\(", text))
                if OPERATORS.search(text) and len(text) >= 4:
                    expressions.append(text)
            for symbol in proto.booklet.notation:
                notation.extend(_notation_forms(symbol))
        for name in extra:
            (code if _code_like(name) else words).add(name)
        letters = {n for n in code | words if n in ENGLISH_LETTERS}
        return cls(
            frozenset(code - letters),
            frozenset(words | letters),
            frozenset(families),
            frozenset(functions),
            tuple(dict.fromkeys(expressions)),
            tuple(dict.fromkeys(notation)),
        )

    def findings(self, text: str, ignore: Sequence[re.Pattern[str]] = ()) -> list[str]:
        """What in ``text`` is a spec's or the paper's, each as a short quoted description;
        ``ignore`` leaves out known passages (patterns matched on the text, spaces squashed)."""
        out: list[str] = []
        flat = " ".join(text.split())
        for pattern in ignore:
            flat = pattern.sub(" ", flat)
        for m in TOKEN.finditer(flat):
            token = m.group(0)
            if flat[m.start() - 1 : m.start()] in ("'", "’", "/"):
                continue  # the s of "Virtual 1's", the m of "g/m²"
            if token == "s" and flat[m.start() - 1 : m.start()].isdigit():
                continue  # a plural: "a pair of 7s"
            if (
                re.fullmatch(r"[a-z]", token)
                and re.search(r"\d\($", flat[: m.start()])
                and flat[m.end() : m.end() + 1] == ")"
            ):
                continue  # a sub-step's letter: "Step 4(c)"
            if re.fullmatch(r"[A-Z]", token) and re.match(r"\. [A-Z]", flat[m.end() : m.end() + 3]):
                continue  # an initial: "T. Mizuki"
            bare = re.sub(r"['’][A-Za-z]+$", "", token)
            after = flat[m.end() : m.end() + 3]
            before = flat[max(0, m.start() - 2) : m.start()]
            if bare in self.code or any(re.fullmatch(rf"{f}\d+", bare) for f in self.families):
                out.append(f"{bare!r} (a spec name)")
            elif bare in self.words and _reads_as_code(before, after, bare):
                out.append(f"{bare!r} used as code")
            elif bare in self.functions and after.startswith("("):
                out.append(f"{bare}( (a spec function)")
        for expr in self.expressions:
            if expr in flat:
                out.append(f"{expr!r} (a spec expression)")
        for form in self.notation:
            if re.search(rf"(?<![\w]){re.escape(form)}(?![\w])", flat):
                out.append(f"{form!r} (the paper's notation)")
        for pattern, what in GENERIC:
            for m in pattern.finditer(flat):
                out.append(f"{m.group(0)!r} ({what})")
        return list(dict.fromkeys(out))


def _reads_as_code(before: str, after: str, name: str) -> bool:
    """``found =``, ``played(``, ``c[``, ``E(a)``, ``a - b``: a name used as code, not a word."""
    if after[:1] in ("(", "[", "_") or after.lstrip()[:1] == "=":
        return True
    if before.endswith(("[", "_")) or re.search(r"\w[(.]$", before):
        return True  # an argument (any(cards), a field (card.color)
    if name in ENGLISH_LETTERS:
        return bool(re.match(r"\s?[-+*/<>)]", after)) or before.endswith((" +", " -", "= "))
    return False


def _notation_forms(symbol: str) -> list[str]:
    """How a paper's symbol may be printed: as written, and without its underscores and braces
    (``P_1`` -> ``P1``), except a form that is a printed card's name (``θ1``, a Greek letter and
    digits: the subscript check finds the paper's θ₁) or a plain word."""
    forms = [symbol, symbol.replace("_", "").replace("{", "").replace("}", "")]
    out = []
    for form in dict.fromkeys(forms):
        if not form or form in ENGLISH_LETTERS or re.fullmatch(r"[^\x00-\x7f]\d*", form):
            continue
        if form.isalpha() and form.islower() and len(form) > 2:
            continue
        out.append(form)
    return out


# --------------------------------------------------------------------------- pages


@dataclass(frozen=True)
class Finding:
    file: str
    page: int  # 0 for a web page
    detail: str

    def __str__(self) -> str:
        where = f" p. {self.page}" if self.page else ""
        return f"{self.file}{where}: {self.detail}"


def validation_titles() -> set[str]:
    """The Validation appendix's heading in every language kitgen knows (a kit in any of them)."""
    from ..lang.catalogue import languages, translations

    return {translations(lang).gettext("Validation") for lang in languages()}


def exempt_pages(path: Path, imposed: bool = False) -> dict[int, Exempt]:
    """The pages of a booklet's Validation appendix (1-based), from the PDF's outline, each with
    where on it the appendix begins, in points from the page's top: 0 for a page it fills, the
    Validation heading's height on the page where it opens (below the last protocol's end, which
    is checked as every page for players is). An outline entry that names no height (a PDF made
    otherwise) leaves its page out whole, as before. ``imposed``: the PDF's pages are the printed
    sides of a saddle-stitched booklet (kitgen.paper.imposition), two booklet pages each in
    folding order; the same parts of the same booklet pages are left out, each as an
    :class:`Area` of its half of the side."""
    from pypdf import PdfReader

    reader = PdfReader(str(path))
    halves = saddle_order(2 * len(reader.pages)) if imposed else []
    top: list[tuple[str, int, float]] = []
    for item in reader.outline:
        if isinstance(item, list):
            continue
        number = reader.get_destination_page_number(item)
        if number is not None:
            page = reader.pages[number]
            page_height = float(page.mediabox.top)
            at = item.get("/Top")
            below = page_height - float(at) if isinstance(at, int | float) else 0.0
            if imposed:  # the booklet page on the half of the side the entry points at
                left = item.get("/Left")
                right = isinstance(left, int | float) and float(left) >= float(page.mediabox.width) / 2
                landed = halves[number][1 if right else 0]
                if landed is None:
                    continue
                number = landed - 1
            top.append((str(item.title), number + 1, max(below, 0.0)))
    pages = 2 * len(reader.pages) if imposed else len(reader.pages)
    out: dict[int, Band] = {}
    for i, (title, start, below) in enumerate(top):
        if title in validation_titles():
            # The next part may open below the appendix's end, on its last page (a quick reference
            # that fits there): that page is left out only down to the next part's heading.
            after = top[i + 1][1:] if i + 1 < len(top) else None
            end = pages if after is None else after[0] - (0 if after[1] > 0 else 1)
            out.update(dict.fromkeys(range(start, end + 1), 0.0))
            out[start] = below
            if after is not None and after[1] > 0:
                first = out[after[0]]
                out[after[0]] = (first if isinstance(first, float) else first[0], after[1])
    if imposed:
        return _on_sides(out, halves, float(reader.pages[0].mediabox.width))
    return dict(out)


def _on_sides(
    pages: Mapping[int, Band], halves: Sequence[tuple[int | None, int | None]], width: float
) -> dict[int, Exempt]:
    """What :func:`exempt_pages` leaves out of each booklet page, on the printed sides: a side
    whose two pages are left out whole is left out whole, else an area on each half that is."""
    out: dict[int, Exempt] = {}
    for side, pair in enumerate(halves, 1):
        areas: list[Area] = []
        for page, x0 in zip(pair, (0.0, width / 2), strict=True):
            left = pages.get(page) if page is not None else None
            if left is not None:
                lo, hi = (float(left), math.inf) if isinstance(left, float | int) else left
                areas.append(Area(lo, hi, x0, x0 + width / 2))
        whole = [a for a in areas if a.top <= 0 and a.bottom == math.inf]
        if len(whole) == 2:
            out[side] = 0.0
        elif areas:
            out[side] = areas
    return out


@dataclass(frozen=True)
class Area:
    """A part of a printed side that :func:`exempt_pages` leaves out: from one height to another
    (points from the side's top) on one booklet page, between ``x0`` and ``x1``."""

    top: float
    bottom: float
    x0: float
    x1: float

    def holds(self, char: PdfChar) -> bool:
        middle = (float(char["x0"]) + float(char["x1"])) / 2
        return self.x0 <= middle < self.x1 and self.top <= float(char["top"]) < self.bottom


Band = float | tuple[float, float]
Exempt = Band | list[Area]
"""What :func:`exempt_pages` leaves out of a page, in points from its top: from a height to the page's
foot (0: the whole page), or from one height to another (the appendix's end, where the next part
opens on the same page); on a saddle booklet's printed side, an area of each half left out."""


def pdf_findings(
    path: Path,
    vocabulary: Vocabulary,
    skip: Iterable[int] | Mapping[int, Exempt] = (),
    ignore: Sequence[re.Pattern[str]] = (),
) -> list[Finding]:
    """Every page of a PDF but ``skip``: the words of :meth:`Vocabulary.findings` and subscripts,
    outside the "for the curious" boxes. ``skip`` as a mapping (:func:`exempt_pages`) leaves out
    only what lies below the given points from each page's top (0: the whole page)."""
    import pdfplumber  # a test tool: only the checks need it

    skipped: Mapping[int, Exempt] = skip if isinstance(skip, Mapping) else dict.fromkeys(skip, 0.0)
    out: list[Finding] = []
    with pdfplumber.open(str(path)) as pdf:
        for n, page in enumerate(pdf.pages, 1):
            left = skipped.get(n)
            if isinstance(left, list):  # areas of a printed side's halves
                chars = [c for c in page_chars(page) if not _curious(c) and not any(a.holds(c) for a in left)]
            else:
                lo, hi = (left, math.inf) if isinstance(left, float | int) else left or (math.inf, math.inf)
                if lo <= 0 and hi == math.inf:
                    continue
                chars = [c for c in page_chars(page) if not _curious(c)]
                if left is not None:  # what the page holds above (and below) the exempt part
                    chars = [c for c in chars if not lo <= float(c["top"]) < hi]
            text = _page_text(chars)
            out += [Finding(path.name, n, d) for d in vocabulary.findings(text, ignore)]
            out += [Finding(path.name, n, d) for d in _subscripts(chars)]
    return out


def _curious(char: PdfChar) -> bool:
    """A glyph of a "for the curious" box: set in the booklet style's curious ink."""
    colour = char.get("non_stroking_color")
    if not isinstance(colour, list | tuple) or len(colour) != 3:
        return False
    return all(abs(float(a) - b) < 0.01 for a, b in zip(colour, curious_ink(), strict=True))


@lru_cache(maxsize=1)
def curious_ink() -> tuple[float, float, float]:
    from .parts import booklet_style

    text = booklet_style().colours["curious_ink"].lstrip("#")
    r, g, b = (int(text[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return r, g, b


def _page_text(chars: Sequence[PdfChar]) -> str:
    """The page's text as it was drawn: characters in the order of the page's content, a word
    kept together when the next character follows on from the last one whichever way the text
    runs (rotated and upside-down card indices included), a space or a new line otherwise."""
    out: list[str] = []
    last: PdfChar | None = None
    for c in chars:
        if last is not None:
            size = max(float(c["size"]), 1.0)
            joined = _follows(last, c, 0.3 * size)
            if not joined:
                near = abs(float(c["bottom"]) - float(last["bottom"])) < 0.8 * size
                out.append(" " if near else "\n")
        out.append(str(c["text"]))
        last = c
    return "".join(out)


def _follows(a: PdfChar, b: PdfChar, slack: float) -> bool:
    """Whether ``b`` is drawn right after ``a`` in one run of text, in any of four directions."""
    ax0, ax1, atop, abot = (float(a[k]) for k in ("x0", "x1", "top", "bottom"))
    bx0, bx1, btop, bbot = (float(b[k]) for k in ("x0", "x1", "top", "bottom"))
    return (
        (abs(bx0 - ax1) < slack and abs(bbot - abot) < 2 * slack + 1)  # left to right
        or (abs(ax0 - bx1) < slack and abs(bbot - abot) < 2 * slack + 1)  # upside down
        or (abs(btop - abot) < slack and abs(bx0 - ax0) < 2 * slack + 1)  # top to bottom
        or (abs(atop - bbot) < slack and abs(bx0 - ax0) < 2 * slack + 1)  # bottom to top
    )


def _subscripts(chars: Sequence[PdfChar]) -> list[str]:
    """Glyphs set smaller and lower right after a letter: the paper's P₁, θᵢ, Xᵢ."""
    out = []
    for prev, c in itertools.pairwise(chars):
        if not str(prev["text"]).isalpha() or not str(c["text"]).strip():
            continue
        smaller = float(c["size"]) < 0.85 * float(prev["size"])
        drop = float(c["bottom"]) - float(prev["bottom"])
        lower = 0.1 * float(prev["size"]) < drop < 0.6 * float(prev["size"])
        adjacent = 0 <= float(c["x0"]) - float(prev["x1"]) < 0.5 * float(prev["size"])
        if smaller and lower and adjacent:
            out.append(f"{prev['text']}{c['text']!r} set as a subscript (the paper's notation)")
    return list(dict.fromkeys(out))


class _Text(HTMLParser):
    """The text a browser shows (no script, no style), and the JSON data of a viewer page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.data: list[str] = []
        self._in: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in.append(tag)
        for name, value in attrs:
            if name in ("alt", "title") and value:
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in self._in:
            while self._in and self._in.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        inside = self._in[-1] if self._in else ""
        if inside == "script":
            self.data.append(data)
        elif inside not in ("style", "code"):
            self.parts.append(data)


# Keys of a viewer page's data that are never shown (ids, card names, colours).
HIDDEN_KEYS = frozenset({"protocol", "symbol", "name", "colour", "action", "events", "back"})


def _shown(data: object) -> Iterable[str]:
    """The texts in a viewer page's data (JSON read back from the page)."""
    if isinstance(data, dict):
        for k, v in data.items():
            if k == "faces" and isinstance(v, dict):
                yield from (str(f.get("text", "")) for f in v.values() if isinstance(f, dict))
            elif k not in HIDDEN_KEYS:
                yield from _shown(v)
    elif isinstance(data, list):
        for v in data:
            yield from _shown(v)
    elif isinstance(data, str) and not DATA_URI.match(data):  # a picture's bytes, never shown as text
        yield data


def html_findings(
    path: Path, vocabulary: Vocabulary, name: str = "", ignore: Sequence[re.Pattern[str]] = ()
) -> list[Finding]:
    """A kit's web page: its visible text and the texts a viewer page's data shows."""
    parser = _Text()
    parser.feed(path.read_text(encoding="utf-8"))
    texts = ["\n".join(parser.parts)]
    for block in parser.data:
        try:
            texts += list(_shown(json.loads(html.unescape(block))))
        except ValueError:
            continue  # the page's script, not its data
    label = name or path.name
    return [Finding(label, 0, d) for text in texts for d in vocabulary.findings(text, ignore)]


def kit_vocabulary(manifest: Manifest, library: Library | None = None) -> Vocabulary:
    """The vocabulary of a built kit: every protocol it verified, and its game's card keys."""
    library = library or Library()
    # A kit or booklet of a spec file, as given to kitgen build (its ``ruleset``) or kitgen booklet
    # (its ``name``): a user's protocol is known by that file only, loaded before it is named.
    spec = (
        manifest.options.get("ruleset")
        if isinstance(manifest, KitManifest) and manifest.protocol
        else manifest.options.get("name")
        if isinstance(manifest, BookletManifest)
        else None
    )
    if isinstance(spec, str) and spec.endswith((".yaml", ".yml")) and Path(spec).is_file():
        library.protocol(spec)  # elsewhere (a relative path, another folder): a shipped spec's name will do
    verified = manifest.verification if isinstance(manifest, (KitManifest, BookletManifest)) else []
    protocols = [library.protocol(v["protocol"]) for v in verified]
    extra: list[str] = []
    facts = manifest.game if isinstance(manifest, (KitManifest, OwnKitManifest)) else None
    game = facts["name"] if facts else None
    if game and is_game(game):
        rules = load_game(game)
        cards = getattr(rules, "cards", None)
        if isinstance(cards, dict):
            extra += [str(k) for k in cards]
        by_name = getattr(rules, "cards_by_name", None)
        if callable(by_name):
            extra += [str(k) for k in by_name()]
    return Vocabulary.of(protocols, extra)


def check_kit(
    folder: Path, library: Library | None = None, ignore: Sequence[re.Pattern[str]] = ()
) -> list[Finding]:
    """Every page for players of a kit or booklet folder (see the module docs)."""
    manifest = manifest_from_json(json.loads((folder / "manifest.json").read_text(encoding="utf-8")))
    vocabulary = kit_vocabulary(manifest, library)
    found: list[Finding] = []
    for entry in manifest.files:
        rel = str(entry["path"])
        path = folder / rel
        if rel.endswith(".pdf"):
            imposed = isinstance(manifest, BookletManifest) and manifest.imposition == "a5-saddle"
            skip = exempt_pages(path, imposed) if Path(rel).name == "booklet.pdf" else {}
            found += pdf_findings(path, vocabulary, skip, ignore)
        elif rel.endswith(".html"):
            found += html_findings(path, vocabulary, rel, ignore)
    return found


USAGE = "usage: python -m kitgen.booklet.jargon KIT_FOLDER"


def main(argv: Sequence[str] | None = None) -> int:
    """The check from the command line: what it finds, exit 1 if anything; a folder that is no
    kit, or a kit of a user's spec file that cannot be found (its path is as it was given to kitgen
    build or kitgen booklet: run the check from the same folder), one line and exit 2."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["-h"], ["--help"]):
        print(f"{USAGE}\n\n{(__doc__ or '').splitlines()[0]}")
        return 0
    if len(args) != 1:
        print(USAGE, file=sys.stderr)
        return 2
    folder = Path(args[0])
    if not (folder / "manifest.json").is_file():
        print(f"{folder}: not a kit or booklet folder (no manifest.json)", file=sys.stderr)
        return 2
    try:
        found = check_kit(folder)
    except KitgenError as exc:
        print(f"{folder}: {exc}", file=sys.stderr)
        return exc.exit_code
    for f in found:
        print(f)
    print(f"{len(found)} problem(s)")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
