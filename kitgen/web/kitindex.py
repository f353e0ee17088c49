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
    "cards": "the card sheets",
    "labels": "the labels: seats, storage boxes, sleeves",
    "booklet": "the step-by-step booklet: cover, contents, set-up and rules, every protocol step by step, "
    "validation, quick reference",
    "bundles": "how to make the bundles, a page per player",
    "puzzles": "the puzzles, one on each half page",
    "solutions": "the solutions",
    "handout": "one page for a lesson: what the protocol does, who sits where, the steps, what to watch for",
}


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
        return str(own) if own else DESCRIPTIONS.get(stem, "")
    text = DESCRIPTIONS.get(stem, "")
    if stem == "booklet" and manifest.game is None:
        text = text.replace("set-up and rules, ", "what you need, ")
    if stem == "cards":
        cards = manifest.sheets["cards"]
        parts = []
        if cards["calibration_pages"]:
            parts.append(f"pages 1-{cards['calibration_pages']}: calibration (print these first)")
        parts.append(f"card fronts: {page_ranges(cards['front_pages'])}")
        if cards["back_pages"]:
            parts.append(f"card backs: {page_ranges(cards['back_pages'])}")
        parts.append(f"{cards['per_sheet']} cards per sheet ({cards['columns']} × {cards['rows']})")
        return text + ": " + "; ".join(parts)
    if stem == "labels":
        labels = manifest.sheets["labels"]
        return f"{text}: {plural(labels['labels'], 'label')} on {label_stock(labels['sheet']).name}"
    return text


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
    out = [f"Paper: {escape(manifest.paper)}. Print at 100 % (actual size), never “fit to page”."]
    if isinstance(manifest, OwnKitManifest):
        return out
    duplex = manifest.options.get("duplex")
    if duplex in ("long", "short"):
        edge = "long" if duplex == "long" else "short"
        out.append(
            "cards.pdf: print the two calibration pages first, double-sided, flipping on the "
            f"{edge} edge; measure the offset of the backs and rebuild with --back-offset if it is "
            "more than 1 mm; then print the rest double-sided on card stock (250-300 g/m²)."
        )
    elif duplex == "fold":
        out.append("cards.pdf: print single-sided; fold each sheet along the middle so backs meet fronts.")
    elif duplex == "none":
        out.append("cards.pdf: fronts first, then the backs on separate pages: feed the sheets back in.")
    out.append(f"labels.pdf: on {escape(label_stock(manifest.sheets['labels']['sheet']).stock)}.")
    if manifest.booklet:
        out.append("booklet.pdf: on ordinary paper, double-sided.")
    if manifest.handout:
        out.append("handout.pdf: on ordinary paper, a copy for each group.")
    for name in (manifest.printing_guide, manifest.shopping_list):
        if name is not None:
            out.append(f'See also <a href="{escape(name)}">{escape(name)}</a>.')
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
    title = f"{game['title'] if game else manifest.kit}: " + (
        "printable kit" if manifest.game is not None else "kit for a class"
    )
    parts = [
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src 'self' file: data:\">",
        f"<title>{escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>",
        f"<h1>{escape(title)}</h1>",
    ]
    facts = [f"Kit <code>{escape(manifest.kit)}</code>, made by kitgen {escape(manifest.kitgen)}"]
    players = manifest.options.get("players") if isinstance(manifest, KitManifest) else None
    if isinstance(players, int) and players:
        virtual = manifest.options.get("virtual") if isinstance(manifest, KitManifest) else 0
        facts.append(seating(players, virtual if isinstance(virtual, int) else 0))
    cite = game["source"].get("cite") if game else None
    if cite:
        facts.append(("rules after " if manifest.game is not None else "after ") + escape(cite))
    parts.append(f'<p class="muted">{"; ".join(facts)}.</p>')

    parts.append("<h2>Files to print</h2>")
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
    parts.append(_table(["File", "Pages", "What is on which pages"], rows, numeric=(1,)))

    parts.append(
        "<h2>How to print</h2><ul>" + "".join(f"<li>{line}</li>" for line in _printing(manifest)) + "</ul>"
    )

    items = manifest.bom["items"] if isinstance(manifest, KitManifest) else []
    if items:
        parts.append("<h2>What you need (bill of materials)</h2>")
        rows = [[escape(i["name"]), str(i["count"]), escape(i["why"])] for i in items]
        parts.append(_table(["Item", "How many", "Why"], rows, numeric=(1,)))

    for line in table_time_text(manifest):
        parts.append(f'<p class="muted">{escape(line)}</p>')

    if front:
        parts.append("<h2>Before you play: the booklet's first chapters</h2>")
        parts.append(front)

    if views:
        parts.append("<h2>Step through the protocols</h2><ul>")
        for name, path in views:
            parts.append(f'<li><a href="{escape(path)}">{escape(title_of(name))}</a></li>')
        parts.append(
            '</ul><p class="muted">Each page steps through the booklet\'s worked example in the browser '
            "(Right/Left keys; H shows face-down faces, for a teacher).</p>"
        )

    reports = manifest.verification if isinstance(manifest, KitManifest) else []
    stat = manifest.statistical_verification if isinstance(manifest, KitManifest) else None
    if reports:
        parts.append("<h2>Verified before printing</h2>")
        library = Library()
        rows = []
        for r, text in zip(
            reports,
            claims(reports, stat, lambda name: quantities_of(name, library)),
            strict=True,
        ):
            verdict = (
                '<span class="ok">verified</span>' if r["verified"] else '<span class="bad">FAILED</span>'
            )
            rows.append(
                [escape(str(r.get("title", r["protocol"]))), verdict, escape(text.split(": ", 1)[-1])]
            )
        parts.append(_table(["Protocol", "Verdict", "What was checked"], rows))
        parts.append(
            f'<p class="muted">{escape(meaning(stat))} The booklet\'s Validation pages and manifest.json '
            "have the full reports.</p>"
        )

    parts.append("<h2>Every page at a glance</h2>")
    if previews:
        parts.append('<p class="muted">Click a page to see it full size.</p><div class="sheet">')
        order = {stem: i for i, stem in enumerate(pdfs)}

        def by_file(png: str) -> tuple[int, str]:
            return order.get(Path(png).stem.rsplit("-p", 1)[0], len(order)), png

        for png in sorted(previews, key=by_file):
            label = Path(png).stem.replace("-p", " p. ")
            parts.append(
                f'<figure><a href="{escape(png)}"><img src="{escape(png)}" '
                f'alt="{escape(label)}"></a><figcaption>{escape(label)}</figcaption></figure>'
            )
        parts.append("</div>")
    else:
        parts.append('<p class="muted">This kit was built with --no-previews.</p>')
    parts.append('<p class="muted">manifest.json lists every file with its SHA-256 checksum.</p>')
    parts.append("</body>\n</html>\n")
    return "\n".join(parts)
