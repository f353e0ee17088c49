"""The files of a card kit, each written by one artifact writer, in one pipeline.

A game kit (:func:`kitgen.kit.build.build`) and a protocol kit for a class
(:func:`kitgen.kit.classkit.build_protocol_kit`) decide *what* their kit holds as a
:class:`KitContent`: the bill of materials, the labels, the booklet, the verification
summaries and the manifest's head. :func:`write_kit` then writes it the same way for both:
each writer in :data:`WRITERS` adds its files (cards.pdf, labels.pdf, a kind's extra sheets,
booklet.pdf and booklet.json, the class handout, the card pictures, the previews, the printing
guide and shopping list, index.html with its viewer pages) and its manifest entries, into a
staged folder that replaces the kit only when everything is written (:mod:`kitgen.core.output`).
The file list of ``manifest.json`` is the list the writers made, in one place.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from reference_engine.api import ReportSummary, UsageError

from ..booklet.book import Booklet
from ..booklet.typesetting import render_booklet
from ..core.kitoptions import KitOptions
from ..core.manifest import (
    BookletFacts,
    CardFacts,
    CardPages,
    CardSheets,
    ExportFacts,
    FileEntry,
    HandoutFacts,
    JsonObject,
    KitHead,
    KitManifest,
    LabelSheets,
    OnlyFacts,
    OwnKitManifest,
    ProfileFacts,
    Sheets,
)
from ..core.optionspec import Option, flag_of
from ..core.output import OutputFolder, inside, safe_name, sha256
from ..core.templates import CardSize, LabelSheet, Paper, Profile, Templates
from ..core.units import Length, LengthError
from ..core.verification import WholeDeckClaim
from ..cost.bom import Bom
from ..cost.kitcost import build_warnings
from ..cost.printguide import card_pages, keep_pages, only_pages, printing_guide, shopping_list
from ..paper.labels import Label, render_labels
from ..paper.previews import preview_cache, render_previews
from ..paper.sheets import DUPLEX, SheetOptions, grid_for, render_cards
from ..web.fronthtml import front_html
from ..web.kitindex import index_html
from ..web.viewer import kit_pages
from .export import check as check_exports
from .export import export_cards

Progress = Callable[[str, int], None]
# A kind's extra sheets (Gakmoro's bundle sheet): written into the folder, they return their
# PDFs' names (without .pdf) and the manifest's entries about them.
ExtraSheets = Callable[[Path], tuple[list[str], JsonObject]]
# A one-page sheet drawn from flowables (a class kit's handout): the file's name without .pdf.
OnePage = tuple[str, Callable[[Path], int]]


@dataclass(frozen=True)
class Printing:
    """How a kit is printed and where it goes, decided from the options before anything slow."""

    name: str  # the kit's name (its folder's name, unless --output)
    destination: Path
    sheet_options: SheetOptions
    label_sheet: LabelSheet
    label_paper: Paper
    label_start: int = 1
    only: tuple[str, ...] = ()  # --only: the card types to reprint
    export: tuple[str, ...] = ()
    previews: bool = True
    force: bool = False
    cache: bool = True  # previews may come from the cache (not with --no-cache)


@dataclass
class KitContent:
    """What a card kit holds, decided before anything is written."""

    printing: Printing
    head: KitHead  # the manifest's first entries: kit, kitgen, options, game or protocol
    bom: Bom
    labels: list[Label]
    booklet: Booklet | None
    validation: list[ReportSummary]
    statistical: ReportSummary | None = None
    whole_deck: WholeDeckClaim | None = None
    extra_sheets: ExtraSheets | None = None
    handout: OnePage | None = None

    @property
    def paper(self) -> Paper:
        return self.printing.sheet_options.paper

    @property
    def card(self) -> CardSize:
        return self.printing.sheet_options.card

    @property
    def profile(self) -> Profile:
        return self.printing.sheet_options.profile


@dataclass
class Written:
    """What the writers have written so far: files (relative paths), PDFs (names without
    .pdf, for the previews and the index) and the manifest's entries."""

    work: Path
    files: list[str] = field(default_factory=list)
    pdfs: list[str] = field(default_factory=list)
    cards: CardSheets | None = None
    card_pages: list[CardPages] = field(default_factory=list)
    labels: LabelSheets | None = None
    extra: JsonObject = field(default_factory=dict)
    booklet: BookletFacts | None = None
    handout: HandoutFacts | None = None
    only: OnlyFacts | None = None
    export: ExportFacts | None = None

    def add(self, name: str, pdf: bool = False) -> Path:
        self.files.append(name)
        if pdf:
            self.pdfs.append(name.removesuffix(".pdf"))
        return inside(self.work, name)


def print_setup(
    opts: KitOptions, templates: Templates, name: str, card: CardSize, label_sheet: str
) -> Printing:
    """How the kit ``name`` prints (paper, card, profile, backs, labels) and where it goes; every
    printing option is checked here, before anything slow runs."""
    if opts.duplex not in DUPLEX:
        raise UsageError(f"--duplex is one of {', '.join(DUPLEX)}, not {opts.duplex!r}")
    check_exports(opts.export)
    if opts.export and opts.only:
        raise UsageError("--export writes pictures of every card; it does not go with --only")
    paper = templates.paper(opts.paper)
    sheet = templates.label_sheet(label_sheet)
    sheet_options = SheetOptions(
        name,
        paper,
        card,
        templates.profile(opts.profile),
        opts.duplex,
        parse_offset(opts.back_offset),
        opts.ink_saver,
    )
    # The card must fit on the paper: refused here, before anything slow runs.
    grid_for(sheet_options)
    only_name = f"{name}-only-{'-'.join(opts.only)}" if opts.only else name
    return Printing(
        only_name,
        kit_folder(opts, only_name),
        sheet_options,
        sheet,
        templates.paper(sheet.paper),
        opts.label_start,
        opts.only,
        opts.export,
        opts.previews,
        opts.force,
        opts.cache,
    )


def kit_folder(opts: KitOptions, name: str) -> Path:
    """``--output``, or ``output/<kit>``."""
    return Path(opts.output) if opts.output else Path("output") / safe_name(name)


def check_only(only: tuple[str, ...], bom: Bom) -> None:
    """``--only`` names card types of this kit."""
    card_keys = [i.key for i in bom.items if i.kind == "card"]
    unknown = [k for k in only if k not in card_keys]
    if unknown:
        raise UsageError(
            f"--only: unknown card type {', '.join(unknown)}; "
            f"this kit's card types are {', '.join(card_keys)}"
        )


def check_given(
    given: frozenset[str], name: str, taken: tuple[Option, ...], refusal: Callable[[str], str]
) -> None:
    """Refuse an option typed on the command line (by field name) that makes no sense for this
    kind of kit, in the words of the game or protocol (never a kind's internal name); the
    message names options by field (``«virtual»``), the command line by flag."""
    unknown = sorted(given - {o.name for o in taken}, key=flag_of)
    if unknown:
        takes = ", ".join(f"«{o.name}»" for o in sorted(taken, key=lambda o: o.long))
        raise UsageError(
            f"«{unknown[0]}» does not apply to {name}: {refusal(unknown[0])}. Its kit takes {takes}"
        )


def parse_offset(text: str) -> tuple[float, float]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2:
        raise UsageError(f"--back-offset takes X,Y with units, e.g. 0.5mm,-1mm; got {text!r}")
    try:
        return Length.parse(parts[0]).points, Length.parse(parts[1]).points
    except LengthError as exc:
        raise UsageError(f"--back-offset: {exc.format_message()}") from None


def _counted(step: Progress, phase: str, total: int) -> Callable[[int], None]:
    """``n -> step(phase, n)``, the phase's total told first to a step that counts."""
    tell = getattr(step, "total", None)
    if callable(tell):
        tell(phase, total)
    return lambda n: step(phase, n)


def write_cards(kit: KitContent, out: Written, step: Progress) -> None:
    step("drawing card sheets", 0)
    faces = kit.bom.faces()
    info = render_cards(
        out.add("cards.pdf", pdf=True),
        faces,
        kit.printing.sheet_options,
        progress=_counted(step, "drawing card sheets", len(faces)),
    )
    out.cards = cast(CardSheets, info.to_json())
    out.card_pages = card_pages(kit.bom, info)


def write_labels(kit: KitContent, out: Written, step: Progress) -> None:
    info = render_labels(
        out.add("labels.pdf", pdf=True),
        kit.labels,
        kit.printing.label_sheet,
        kit.printing.label_paper,
        kit.printing.sheet_options.kit,
        kit.printing.label_start,
    )
    out.labels = cast(LabelSheets, info.to_json())


def write_extra_sheets(kit: KitContent, out: Written, step: Progress) -> None:
    if kit.extra_sheets is None:
        return
    names, entries = kit.extra_sheets(out.work)
    for name in names:
        out.add(f"{name}.pdf", pdf=True)
    out.extra = entries


def write_booklet(kit: KitContent, out: Written, step: Progress) -> None:
    if kit.booklet is None or kit.printing.only:  # --only keeps cards.pdf alone (keep_only)
        return
    step("typesetting the booklet", 0)
    size = (kit.paper.size.w, kit.paper.size.h)
    pages = render_booklet(out.add("booklet.pdf", pdf=True), kit.booklet, size)
    write_json(out.add("booklet.json"), kit.booklet.to_json())
    out.booklet = {"pages": pages, "paper": kit.paper.name}


def write_handout(kit: KitContent, out: Written, step: Progress) -> None:
    if kit.handout is None or kit.printing.only:  # --only keeps cards.pdf alone (keep_only)
        return
    step("writing the handout", 0)
    name, draw = kit.handout
    out.handout = {"file": f"{name}.pdf", "pages": draw(out.add(f"{name}.pdf", pdf=True))}


def keep_only(kit: KitContent, out: Written, step: Progress) -> None:
    """``--only``: cards.pdf keeps the pages of the sheets that hold these card types (the booklet
    and the handout, which it would remove, are not typeset)."""
    if not kit.printing.only:
        return
    keep = only_pages(kit.printing.only, out.card_pages)
    keep_pages(inside(out.work, "cards.pdf"), keep)
    for f in out.files:
        if f != "cards.pdf":
            inside(out.work, f).unlink()
    out.files[:], out.pdfs[:] = ["cards.pdf"], ["cards"]
    out.booklet = None
    out.handout = None
    out.only = {
        "types": list(kit.printing.only),
        "pages": keep,
        "note": "the pages of the full kit's cards.pdf that hold these card types (with their "
        "backs), with the same page ids; other cards on the same sheets print too",
    }


def write_export(kit: KitContent, out: Written, step: Progress) -> None:
    if "cards-png" not in kit.printing.export:
        return
    step("exporting card pictures", 0)
    card_mm = (kit.card.size.width.mm, kit.card.size.height.mm)
    written, exported = export_cards(
        out.work,
        kit.bom,
        card_mm,
        kit.printing.sheet_options.ink_saver,
        lambda n: step("exporting card pictures", n),
    )
    out.files += written
    out.export = exported


def write_previews(kit: KitContent, out: Written, step: Progress) -> None:
    if not kit.printing.previews:
        return
    step("rendering previews", 0)
    previews(out.work, out.pdfs, out.files, kit.printing.cache)


def previews(work: Path, pdfs: list[str], files: list[str], cache: bool = True) -> None:
    """PNG previews of every page of each PDF, added to ``files`` (pages whose PDF bytes were
    rendered before come from the preview cache unless ``cache`` is off)."""
    cached = preview_cache(cache)
    for pdf in pdfs:
        for png in render_previews(inside(work, f"{pdf}.pdf"), inside(work, "previews"), pdf, cache=cached):
            files.append(str(png.relative_to(work)))


# The writers of a card kit, in the order they run (the previews see every PDF before them).
WRITERS: tuple[Callable[[KitContent, Written, Progress], None], ...] = (
    write_cards,
    write_labels,
    write_extra_sheets,
    write_booklet,
    write_handout,
    keep_only,
    write_export,
    write_previews,
)


def manifest_of(kit: KitContent, out: Written) -> KitManifest:
    """The manifest of a written kit (before its guides, index and file list)."""
    head = kit.head
    assert out.cards is not None and out.labels is not None, "the cards and labels are written first"
    card, profile = print_facts(kit.card, kit.profile)
    return KitManifest(
        head.kit,
        head.kitgen,
        head.options,
        head.game,
        head.protocol,
        kit.paper.name,
        card,
        profile,
        kit.bom.to_json(),
        {"cards": out.cards, "labels": out.labels},
        out.extra,
        out.booklet,
        kit.validation,
        kit.statistical,
        handout=out.handout,
        export=out.export,
        whole_deck_verification=kit.whole_deck,
        only=out.only,
        kind=head.kind,
    )


def write_kit(kit: KitContent, step: Progress) -> KitManifest:
    """Write every artifact of ``kit`` into its folder (staged) and return its manifest."""
    at = kit.printing
    with OutputFolder.check(at.destination, at.force).staged(at.name, "kit") as work:
        out = Written(work)
        for writer in WRITERS:
            writer(kit, out, step)
        manifest = manifest_of(kit, out)
        if manifest.only is None:
            manifest.card_pages = out.card_pages
            manifest.printing_guide = "printing-guide.txt"
            out.add(manifest.printing_guide).write_text(
                printing_guide(manifest, out.card_pages, out.pdfs), encoding="utf-8"
            )
            manifest.shopping_list = "shopping-list.txt"
            out.add(manifest.shopping_list).write_text(shopping_list(manifest), encoding="utf-8")
        booklet = None if manifest.only is not None else kit.booklet
        if booklet is not None and booklet.cost is not None:
            manifest.table_time = booklet.cost.to_json()
        manifest.warnings = build_warnings(booklet.cost if booklet else None, stock_sheets(manifest.sheets))
        finish(work, manifest, out.pdfs, out.files, booklet)
    manifest.folder = str(at.destination)
    return manifest


def stock_sheets(sheets: Sheets) -> int:
    """Sheets of card stock the kit prints (not the calibration sheet)."""
    cards = sheets["cards"]
    return cards["sheets"] - (1 if cards["calibration_pages"] else 0)


def finish(
    work: Path,
    manifest: KitManifest | OwnKitManifest,
    pdfs: list[str],
    files: list[str],
    booklet: Booklet | None,
) -> None:
    """The kit's index.html (with its viewer pages) and manifest.json with every file's checksum."""
    write_index(work, manifest, pdfs, files, booklet)
    manifest.files = file_list(work, files)
    write_json(inside(work, "manifest.json"), manifest.to_json())


def write_index(
    work: Path,
    manifest: KitManifest | OwnKitManifest,
    pdfs: list[str],
    files: list[str],
    booklet: Booklet | None,
) -> None:
    """The kit's index.html and, for a kit with a booklet, a viewer page per protocol it
    teaches (view/<protocol>.html); both added to ``files``."""
    views: list[tuple[str, str]] = []
    titles: dict[str, str] = {}
    if booklet is not None:
        pages = kit_pages(
            booklet.sections,
            manifest.verification if isinstance(manifest, KitManifest) else [],
            booklet.face,
            booklet.name,
            booklet.ink_saver,
        )
        for (protocol, relative), text in pages.items():
            target = inside(work, relative)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            files.append(relative)
            views.append((protocol, relative))
        titles = {s.protocol: s.title for s in booklet.sections}
    shown = sorted(f for f in files if f.startswith("previews/"))
    front = ""
    if booklet is not None and booklet.front:
        front = front_html(booklet.front, booklet.table_plan(), booklet.ink_saver)
    text = index_html(work, manifest, pdfs, shown, views, lambda n: titles.get(n, n), front)
    inside(work, "index.html").write_text(text, encoding="utf-8")
    files.append("index.html")


def file_list(work: Path, files: list[str]) -> list[FileEntry]:
    return [
        {"path": f, "sha256": sha256(inside(work, f)), "bytes": inside(work, f).stat().st_size}
        for f in sorted(files)
    ]


def print_facts(card: CardSize, profile: Profile) -> tuple[CardFacts, ProfileFacts]:
    """The card size and print profile, as a manifest records them."""
    facts: CardFacts = {
        "name": card.name,
        "width_mm": round(card.size.width.mm, 3),
        "height_mm": round(card.size.height.mm, 3),
    }
    printing: ProfileFacts = {
        "name": profile.key,
        "bleed_mm": round(profile.bleed.mm, 3),
        "safe_mm": round(profile.safe.mm, 3),
        "margin_mm": round(profile.margin.mm, 3),
        "shared_cuts": profile.shared_cuts,
    }
    return facts, printing


def write_json(path: Path, data: object) -> None:
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
