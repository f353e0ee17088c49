"""A kit's printing guide and shopping list, and reprinting a subset of its cards (``--only``).

Both texts are made from what the build knows (the bill of materials and where each card type
landed on the sheets), written into the kit as ``printing-guide.txt`` and
``shopping-list.txt`` and listed in ``manifest.json`` (``printing_guide``, ``shopping_list``,
``card_pages``). ``kitgen build ... --only alpha,beta`` builds the same kit and keeps only the
pages of the sheets that hold those card types: the pages are the full kit's pages, so they keep
their printed ids ("page 17/128") and their backs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from pypdf import PdfReader, PdfWriter

from reference_engine.api import UsageError

from ..core.manifest import CardPages, JsonObject, KitManifest
from ..core.templates import LabelSheet, load_templates
from ..core.words import plural
from ..lang.catalogue import N_, _
from ..lang.wrap import breaks_between_characters
from ..paper.sheets import SheetsInfo
from .bom import Bom

CARD_STOCK = N_("card stock of 250-300 g/m² (or 160-220 g/m² if your printer cannot feed thicker)")


def card_pages(bom: Bom, info: SheetsInfo) -> list[CardPages]:
    """For each printed card type: its key, name, count and the pages of its fronts and backs."""
    out: list[CardPages] = []
    start = 0
    per = info.per_sheet
    for item in bom.items:
        if item.kind != "card":
            continue
        n = len(item.faces)
        sheets = sorted({i // per for i in range(start, start + n)}) if n else []
        out.append(
            {
                "key": item.key,
                "name": item.name,
                "count": n,
                "fronts": [info.front_pages[s] for s in sheets if s < len(info.front_pages)],
                "backs": [info.back_pages[s] for s in sheets if s < len(info.back_pages)],
            }
        )
        start += n
    return out


def page_ranges(pages: Sequence[int]) -> str:
    """``[3, 5, 7, 9, 12, 13]`` -> ``3-9 (odd pages), 12-13``: runs of consecutive pages, and runs
    of every other page (the fronts or the backs of a duplex file), three or more long."""
    ps = sorted(set(pages))
    out: list[str] = []
    i = 0
    while i < len(ps):
        j = i
        step = ps[i + 1] - ps[i] if i + 1 < len(ps) else 0
        if step in (1, 2):
            while j + 1 < len(ps) and ps[j + 1] - ps[j] == step:
                j += 1
        if step == 1 or (step == 2 and j - i >= 2):
            parity = "" if step == 1 else (_(" (odd pages)") if ps[i] % 2 else _(" (even pages)"))
            out.append(f"{ps[i]}{'〜' if breaks_between_characters() else '-'}{ps[j]}{parity}")
            i = j + 1
        else:
            out.append(str(ps[i]))
            i += 1
    return _(", ").join(out) or _("none")


def cuts_per_sheet(columns: int, rows: int, shared: bool) -> int:
    """Straight cuts to free every card of a full sheet (a cut runs across the whole block)."""
    return (columns + 1) + (rows + 1) if shared else 2 * columns + 2 * rows


def cut_text(manifest: KitManifest) -> str:
    cards = manifest.sheets["cards"]
    shared = manifest.profile["shared_cuts"]
    per = cuts_per_sheet(cards["columns"], cards["rows"], shared)
    sheets = cards["sheets"] - (1 if cards["calibration_pages"] else 0)
    how = _("neighbouring cards share a cut line") if shared else _("every card has its own cut lines")
    return _(
        "Cut along the crop marks ({how}): {per} straight cuts per sheet, about {total} for the kit."
    ).format(how=how, per=per, total=per * sheets)


def printing_guide(manifest: KitManifest, pages: list[CardPages], pdfs: Sequence[str]) -> str:
    """What to print, in what order, with which settings; page ranges for each card type."""
    kit = manifest.kit
    opts = manifest.options
    cards = manifest.sheets["cards"]
    labels = manifest.sheets["labels"]
    duplex = str(opts["duplex"])
    lines = [
        _("Printing guide: {kit}").format(kit=kit),
        "",
        _("Paper: {paper}. Print every file at 100 % (actual size), never 'fit to page';").format(
            paper=manifest.paper
        ),
        _("check the 100 mm bar on any card page with a ruler."),
        "",
        *_ink_lines(opts),
        "",
        _("1. Calibration (plain paper)."),
    ]
    if cards["calibration_pages"]:
        calibration = {
            "long": _(
                "   cards.pdf pages 1-{n}, double-sided, flipping on the long edge. Hold the sheet against "
                "the light: if the back's crosses sit more than 1 mm off the front's,"
            ),
            "short": _(
                "   cards.pdf pages 1-{n}, double-sided, flipping on the short edge. Hold the sheet "
                "against the light: if the back's crosses sit more than 1 mm off the front's,"
            ),
        }.get(
            duplex,
            _(
                "   cards.pdf pages 1-{n}, double-sided. Hold the sheet against the light: if the back's "
                "crosses sit more than 1 mm off the front's,"
            ),
        )
        lines.append(calibration.format(n=cards["calibration_pages"]))
        lines.append(_("   measure the offset and rebuild with --back-offset X,Y (millimetres)."))
    else:
        lines.append(_("   none for this way of printing backs."))
    step = {
        "long": _("double-sided, flipping on the long edge"),
        "short": _("double-sided, flipping on the short edge"),
        "none": _("single-sided: fronts first, then feed the sheets in again for the back pages"),
        "fold": _("single-sided; fold each sheet along the middle line, backs to fronts, and glue"),
    }[duplex]
    first = cards["calibration_pages"] + 1
    lines += [
        "",
        _("2. The cards: cards.pdf pages {first}-{last} on {stock}, {step}.").format(
            first=first, last=cards["pages"], stock=_(CARD_STOCK), step=step
        ),
        _("   {sheets} of card stock, {cards} per sheet. {cut}").format(
            sheets=plural(cards["sheets"] - (1 if cards["calibration_pages"] else 0), "sheet"),
            cards=plural(cards["per_sheet"], "card"),
            cut=cut_text(manifest),
        ),
        _("   Page ranges of each card type (to reprint one kind only: kitgen build ... --only KEY):"),
    ]
    for p in pages:
        backs = (
            _("; backs {pages}").format(pages=page_ranges(p["backs"]))
            if p["backs"] and duplex != "fold"
            else ""
        )
        lines.append(
            _("     {key} {count} x {name}: fronts {pages}{backs}").format(
                key=f"{p['key']:<10}",
                count=f"{p['count']:>4}",
                name=p["name"],
                pages=page_ranges(p["fronts"]),
                backs=backs,
            )
        )
    lines += [
        "",
        _(
            "3. Labels: labels.pdf on {stock} ({pages}); page 1 is a calibration page: print it on plain "
            "paper first and hold it over a label sheet."
        ).format(stock=_(label_stock(labels["sheet"]).stock), pages=plural(labels["pages"], "page")),
    ]
    if manifest.booklet:
        lines += [
            "",
            _("4. The booklet: booklet.pdf, {pages} on ordinary paper (80 g/m²), double-sided.").format(
                pages=plural(manifest.booklet["pages"], "page")
            ),
        ]
    if "handout" in pdfs:
        groups = manifest.protocol["sets"] if manifest.protocol else 1
        lines += [
            "",
            _("4b. The handout: handout.pdf, one page on ordinary paper, ")
            + (
                _("a copy for each of the {groups} groups.").format(groups=groups)
                if groups > 1
                else _("a copy for each group (or pupil).")
            ),
        ]
    others = [f"{p}.pdf" for p in pdfs if p not in ("cards", "labels", "booklet", "handout")]
    if others:
        lines += ["", _("Also: {files} on ordinary paper, single-sided.").format(files=", ".join(others))]
    lines += _export_lines(manifest)
    return "\n".join(lines) + "\n"


def _ink_lines(opts: JsonObject) -> list[str]:
    if opts.get("ink_saver"):
        return [
            _("Ink saver (built with --ink-saver): the backs are a light tint and no face is filled to its"),
            _("edge; the game's colours are borders, outlines and the ink of the numbers. About a tenth of"),
            _("the ink of the full-colour kit on the backs."),
        ]
    return [
        _("On a home printer, build the kit again with --ink-saver: light backs and no full-bleed fills"),
        _("(the game's colours as borders and outlines) take far less ink."),
    ]


def _export_lines(manifest: KitManifest) -> list[str]:
    """How to use export/ (``--export cards-png``): print-on-demand and Tabletop Simulator."""
    export = manifest.export
    if not export:
        return []
    png = export["cards_png"]
    folders = ", ".join(png["folders"])
    bleed = f"{png['bleed_mm']:g} mm"
    return [
        "",
        _("5. Print-on-demand (export/cards-png): a folder per card size, {folders}.").format(
            folders=folders
        ),
        _("   Each has one PNG per different card face (front-NNN-....png, {n} of them) and").format(
            n=png["fronts"]
        ),
        _("   back.png, at {dpi} dpi with {bleed} of bleed on every side (the cut card plus").format(
            dpi=png["dpi"], bleed=bleed
        ),
        _("   {bleed} all round). Every card has the same back: choose the service's 'same back for").format(
            bleed=bleed
        ),
        _("   all cards' and upload back.png once; cards.csv pairs each front with the back and says how"),
        _("   many copies to order ({n} cards in all).").format(n=png["cards"]),
        "",
        _("6. Trying the kit online first (export/tts, Tabletop Simulator): Objects > Components > Custom >"),
        _("   Deck for each sheet; Face: the sheet, Back: back.png, and the width, height and number from"),
        _("   decks.csv (each card type of the kit is one deck, every copy of its cards on the sheet)."),
    ]


def shopping_list(manifest: KitManifest) -> str:
    """What to buy: card stock, label sheets, envelopes, sleeves, paper."""
    cards = manifest.sheets["cards"]
    labels = manifest.sheets["labels"]
    card_sheets = cards["sheets"] - (1 if cards["calibration_pages"] else 0)
    sheet = label_stock(labels["sheet"])
    label_sheets = max(labels["pages"] - 1, 1)
    lines = [
        _("Shopping list: {kit}").format(kit=manifest.kit),
        "",
        _("- {sheets} of {paper} {stock} (+ a few spare for misprints)").format(
            sheets=plural(card_sheets, "sheet"), paper=manifest.paper, stock=_(CARD_STOCK)
        ),
        # A product names its own unit ("A4 self-adhesive label sheet, ..."): "2 × it"; plain
        # paper is counted in sheets.
        (
            _("- {sheets} of {stock} for {labels}, + 1 sheet of plain paper for the calibration page")
            if sheet.cutout
            else _("- {n} × {stock} for {labels}, + 1 sheet of plain paper for the calibration page")
        ).format(
            sheets=plural(label_sheets, "sheet"),
            n=label_sheets,
            stock=_(sheet.stock),
            labels=plural(labels["labels"], "label"),
        ),
    ]
    for item in manifest.bom["items"]:
        # Labels are printed on the label sheets above; everything else here is bought.
        if item["kind"] in ("envelope", "sleeve", "clip", "paper"):
            # The booklet and the handout name what a table uses; the list says what the spares add.
            words = (
                _("- {count} ({needed} + {spares} spare) {name}: {why}")
                if item["spares"]
                else _("- {count} {name}: {why}")
            )
            lines.append(
                words.format(
                    count=item["count"],
                    name=item["name"],
                    needed=item["needed"],
                    spares=item["spares"],
                    why=item["why"],
                )
            )
    if manifest.booklet:
        pages = manifest.booklet["pages"]
        lines.append(
            _("- {sheets} of ordinary paper for the booklet (double-sided)").format(
                sheets=plural(math.ceil(pages / 2), "sheet")
            )
        )
    tools = _("a ruler, a craft knife or a guillotine, scissors")
    lines += [f"- {tools}" + (_("; clear tape for the labels") if sheet.cutout else "")]
    return "\n".join(lines) + "\n"


def label_stock(key: str) -> LabelSheet:
    """The label sheet a manifest names, as the templates describe it."""
    return load_templates().label_sheet(key)


def only_pages(wanted: Sequence[str], pages: list[CardPages]) -> list[int]:
    """The card pages (fronts and their backs) holding the card types ``wanted``."""
    known = {p["key"]: p for p in pages}
    unknown = [w for w in wanted if w not in known]
    if unknown:
        raise UsageError(
            f"--only: unknown card type {', '.join(unknown)}; this kit's card types are {', '.join(known)}"
        )
    out: set[int] = set()
    for w in wanted:
        out.update(known[w]["fronts"])
        out.update(known[w]["backs"])
    return sorted(out)


def keep_pages(path: Path, pages: list[int]) -> None:
    """Rewrite the PDF at ``path`` with only ``pages`` (1-based), in order."""
    reader = PdfReader(str(path))
    writer = PdfWriter()
    for p in pages:
        writer.add_page(reader.pages[p - 1])
    writer.add_metadata({k: str(v) for k, v in (reader.metadata or {}).items()})
    tmp = path.with_name(path.name + ".part")
    with tmp.open("wb") as fh:
        writer.write(fh)
    tmp.replace(path)
