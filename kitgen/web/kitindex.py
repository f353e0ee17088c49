"""A kit's ``index.html``: what the kit is and where everything is, for a browser.

Written by every ``kitgen build`` into the kit folder, from the manifest's own data (so it
says nothing the manifest does not): what the kit is, each PDF with its page count and what
is on which pages, how to print it, what to buy (the bill of materials), a game kit's first
chapters of the booklet (the same data as booklet.json's ``front``, :mod:`kitgen.web.fronthtml`), a
contact sheet of the page previews (each links to the full-size PNG), the verification summary,
and a link to the step-through viewer page of each protocol the kit teaches
(``view/<protocol>.html``).

The page is static HTML with inline CSS: no script, nothing from the network, every text
escaped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from pathlib import Path

from pypdf import PdfReader

from reference_engine.api import Library

from ..booklet.glossary import quantities_of
from ..core.claims import claims, meaning
from ..core.manifest import KitManifest, OwnKitManifest, table_time_text
from ..core.words import plural, seating
from ..cost.printguide import label_stock, page_ranges
from ..lang.catalogue import N_, _, language
from ..lang.overlay import spec_text

CSS = """
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; color: #222; margin: 1rem 2rem 3rem;
  line-height: 1.45; max-width: 70rem; }
h1 { margin-bottom: 0.2rem; } h2 { margin-top: 2rem; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.5rem 0; }
td, th { border: 1px solid #ddd; padding: 0.25rem 0.6rem;
  text-align: left; vertical-align: top; } th { background: #f4f4f4; }
td.n { text-align: right; }
.sheet { display: flex; flex-wrap: wrap; gap: 0.6rem; }
.sheet figure { margin: 0; text-align: center; font-size: 0.75rem; color: #555; }
.sheet img { width: 110px; border: 1px solid #ccc; background: #fff; }
.ok { color: #00704f; font-weight: bold; } .bad { color: #b00020; font-weight: bold; }
.muted { color: #555; }
"""

DESCRIPTIONS = {
    "cards": N_("the card sheets"),
    "labels": N_("the labels: seats, storage boxes, sleeves"),
    "booklet": N_(
        "the step-by-step booklet: cover, contents, set-up and rules, every protocol step by step, "
        "validation, quick reference"
    ),
    "bundles": N_("how to make the bundles, a page per player"),
    "puzzles": N_("the puzzles, one on each half page"),
    "solutions": N_("the solutions"),
    "handout": N_(
        "one page for a lesson: what the protocol does, who sits where, the steps, what to watch for"
    ),
}
# A protocol kit's booklet has no set-up and rules: what you need instead.
PROTOCOL_BOOKLET = N_(
    "the step-by-step booklet: cover, contents, what you need, every protocol step by step, "
    "validation, quick reference"
)


def _described(stem: str) -> str:
    return _(DESCRIPTIONS[stem]) if stem in DESCRIPTIONS else ""


def page_count(path: Path) -> int:
    return len(PdfReader(str(path)).pages)


def _what(stem: str, manifest: KitManifest | OwnKitManifest) -> str:
    """What a file of the kit holds: the kit's own words for it (``sheets: {stem: {what:}}``
    in the manifest of a kit of its own shape, whose booklet is not the step-by-step one), else
    the card kit's."""
    if isinstance(manifest, OwnKitManifest):
        sheets = manifest.entries.get("sheets")
        sheet = sheets.get(stem) if isinstance(sheets, dict) else None
        own = sheet.get("what") if isinstance(sheet, dict) else None
        return str(own) if own else _described(stem)
    text = _described(stem)
    if stem == "booklet" and manifest.game is None:
        text = _(PROTOCOL_BOOKLET)
    if stem == "cards":
        cards = manifest.sheets["cards"]
        parts = []
        if cards["calibration_pages"]:
            parts.append(
                _("pages 1-{n}: calibration (print these first)").format(n=cards["calibration_pages"])
            )
        parts.append(_("card fronts: {pages}").format(pages=page_ranges(cards["front_pages"])))
        if cards["back_pages"]:
            parts.append(_("card backs: {pages}").format(pages=page_ranges(cards["back_pages"])))
        parts.append(
            _("{n} cards per sheet ({columns} × {rows})").format(
                n=cards["per_sheet"], columns=cards["columns"], rows=cards["rows"]
            )
        )
        # i18n: between the parts of a file's description ("card fronts: 3-10; card backs: 11-18")
        return text + _(": ") + _("; ").join(parts)
    if stem == "labels":
        labels = manifest.sheets["labels"]
        return _("{what}: {labels} on {sheet}").format(
            what=text, labels=plural(labels["labels"], "label"), sheet=_(label_stock(labels["sheet"]).name)
        )
    return text


def _h2(words: str) -> str:
    return f"<h2>{words}</h2>"


def _muted(words: str) -> str:
    return f'<p class="muted">{words}</p>'


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], numeric: Sequence[int] = ()) -> str:
    out = ["<table><tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr>"]
    for row in rows:
        cells = "".join(
            f'<td class="n">{cell}</td>' if i in numeric else f"<td>{cell}</td>" for i, cell in enumerate(row)
        )
        out.append(f"<tr>{cells}</tr>")
    out.append("</table>")
    return "\n".join(out)


def _printing(manifest: KitManifest | OwnKitManifest) -> list[str]:
    """How to print the kit, from the print facts the manifest records."""
    out = [
        _("Paper: {paper}. Print at 100 % (actual size), never “fit to page”.").format(
            paper=escape(manifest.paper)
        )
    ]
    if isinstance(manifest, OwnKitManifest):
        return out
    duplex = manifest.options.get("duplex")
    if duplex in ("long", "short"):
        out.append(
            _(
                "cards.pdf: print the two calibration pages first, double-sided, flipping on the "
                "long edge; measure the offset of the backs and rebuild with --back-offset if it is "
                "more than 1 mm; then print the rest double-sided on card stock (250-300 g/m²)."
            )
            if duplex == "long"
            else _(
                "cards.pdf: print the two calibration pages first, double-sided, flipping on the "
                "short edge; measure the offset of the backs and rebuild with --back-offset if it is "
                "more than 1 mm; then print the rest double-sided on card stock (250-300 g/m²)."
            )
        )
    elif duplex == "fold":
        out.append(_("cards.pdf: print single-sided; fold each sheet along the middle so backs meet fronts."))
    elif duplex == "none":
        out.append(_("cards.pdf: fronts first, then the backs on separate pages: feed the sheets back in."))
    out.append(
        _("labels.pdf: on {stock}.").format(
            stock=escape(label_stock(manifest.sheets["labels"]["sheet"]).stock)
        )
    )
    if manifest.booklet:
        out.append(_("booklet.pdf: on ordinary paper, double-sided."))
    if manifest.handout:
        out.append(_("handout.pdf: on ordinary paper, a copy for each group."))
    for name in (manifest.printing_guide, manifest.shopping_list):
        if name is not None:
            out.append(_("See also {link}.").format(link=f'<a href="{escape(name)}">{escape(name)}</a>'))
    return out


def index_html(
    folder: Path,
    manifest: KitManifest | OwnKitManifest,
    pdfs: Sequence[str],
    previews: Sequence[str],
    views: Sequence[tuple[str, str]],
    title_of: Callable[[str], str] = str,
    front: str = "",
) -> str:
    """The kit index page; ``views`` are (protocol, relative path of its viewer page); ``front``:
    the booklet's first chapters in HTML (:mod:`kitgen.web.fronthtml`), for a game kit."""
    game = manifest.game or (manifest.protocol if isinstance(manifest, KitManifest) else None)
    shape = _("{title}: printable kit") if manifest.game is not None else _("{title}: kit for a class")
    title = shape.format(title=spec_text(game["title"]) if game else manifest.kit)
    parts = [
        f'<!DOCTYPE html>\n<html lang="{language()}">\n<head>\n<meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src 'self' file: data:\">",
        f"<title>{escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>",
        f"<h1>{escape(title)}</h1>",
    ]
    facts = [
        _("Kit {kit}, made by kitgen {version}").format(
            kit=f"<code>{escape(manifest.kit)}</code>", version=escape(manifest.kitgen)
        )
    ]
    players = manifest.options.get("players") if isinstance(manifest, KitManifest) else None
    if isinstance(players, int) and players:
        virtual = manifest.options.get("virtual") if isinstance(manifest, KitManifest) else 0
        facts.append(seating(players, virtual if isinstance(virtual, int) else 0))
    cite = game["source"].get("cite") if game else None
    if cite:
        after = _("rules after {source}") if manifest.game is not None else _("after {source}")
        facts.append(after.format(source=escape(spec_text(cite))))
    # i18n: the kit's facts on the index page, joined: "Kit uno-4p1v-a4, made by kitgen 0.1.0; 4 players"
    parts.append(_muted(_("; ").join(facts) + _(".")))

    parts.append(_h2(_("Files to print")))
    rows = []
    for stem in pdfs:
        pages = page_count(folder / f"{stem}.pdf")
        rows.append(
            [
                f'<a href="{escape(stem)}.pdf">{escape(stem)}.pdf</a>',
                str(pages),
                escape(_what(stem, manifest)),
            ]
        )
    parts.append(_table([_("File"), _("Pages"), _("What is on which pages")], rows, numeric=(1,)))

    parts.append(
        _h2(_("How to print"))
        + "<ul>"
        + "".join(f"<li>{line}</li>" for line in _printing(manifest))
        + "</ul>"
    )

    items = manifest.bom["items"] if isinstance(manifest, KitManifest) else []
    if items:
        parts.append(_h2(_("What you need (bill of materials)")))
        rows = [[escape(i["name"]), str(i["count"]), escape(i["why"])] for i in items]
        parts.append(_table([_("Item"), _("How many"), _("Why")], rows, numeric=(1,)))

    for line in table_time_text(manifest):
        parts.append(f'<p class="muted">{escape(line)}</p>')

    if front:
        before = _("Before you play: the booklet's first chapters")
        parts.append(f"<h2>{before}</h2>")
        parts.append(front)

    if views:
        parts.append(_h2(_("Step through the protocols")) + "<ul>")
        for name, path in views:
            parts.append(f'<li><a href="{escape(path)}">{escape(title_of(name))}</a></li>')
        words = _(
            "Each page steps through the booklet's worked example in the browser "
            "(Right/Left keys; H shows face-down faces, for a teacher)."
        )
        parts.append(f'</ul><p class="muted">{words}</p>')

    reports = manifest.verification if isinstance(manifest, KitManifest) else []
    stat = manifest.statistical_verification if isinstance(manifest, KitManifest) else None
    if reports:
        parts.append(_h2(_("Verified before printing")))
        library = Library()
        rows = []
        for r, text in zip(
            reports,
            claims(reports, stat, lambda name: quantities_of(name, library)),
            strict=True,
        ):
            verdict = (
                '<span class="ok">' + _("verified") + "</span>"
                if r["verified"]
                else '<span class="bad">' + _("FAILED") + "</span>"
            )
            rows.append(
                [escape(str(r.get("title", r["protocol"]))), verdict, escape(text.split(": ", 1)[-1])]
            )
        parts.append(_table([_("Protocol"), _("Verdict"), _("What was checked")], rows))
        full = _("The booklet's Validation pages and manifest.json have the full reports.")
        parts.append(f'<p class="muted">{escape(meaning(stat))} {full}</p>')

    parts.append(_h2(_("Every page at a glance")))
    if previews:
        parts.append(_muted(_("Click a page to see it full size.")) + '<div class="sheet">')
        order = {stem: i for i, stem in enumerate(pdfs)}

        def by_file(png: str) -> tuple[int, str]:
            return order.get(Path(png).stem.rsplit("-p", 1)[0], len(order)), png

        for png in sorted(previews, key=by_file):
            stem, _sep, page = Path(png).stem.rpartition("-p")
            label = _("{file} p. {page}").format(file=stem, page=page) if stem else page
            parts.append(
                f'<figure><a href="{escape(png)}"><img src="{escape(png)}" '
                f'alt="{escape(label)}"></a><figcaption>{escape(label)}</figcaption></figure>'
            )
        parts.append("</div>")
    else:
        parts.append(_muted(_("This kit was built with --no-previews.")))
    parts.append(_muted(_("manifest.json lists every file with its SHA-256 checksum.")))
    parts.append("</body>\n</html>\n")
    return "\n".join(parts)
