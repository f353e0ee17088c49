"""Building a printable kit, or a booklet alone, in one folder.

``build`` is what ``kitgen build`` runs: it loads the rule set, asks its kind (see
:mod:`kitgen.kinds`) for the kit's shape, verifies every protocol the kit's booklet will
teach (a failing spec stops the build), computes the bill of materials, lays out and renders
the card and label sheets (and the kind's extra sheets), the booklet, PNG previews, and
writes ``manifest.json`` with the options, the BOM, every file's checksum and the
verification summary. ``build_booklet`` (``kitgen booklet``) writes the booklet of a rule set
or of one protocol. Everything is written to a temporary folder first and then renamed into
place, over a folder only when kitgen wrote everything in it (see :mod:`kitgen.output`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from reference_engine.api import (
    VERSION,
    GameRules,
    Library,
    Report,
    Reveal,
    UsageError,
    is_game,
    load_game,
    reveals_from,
)

from .booklet import Booklet, protocol_booklet
from .cache import VerificationCache
from .consumables import require
from .export import check as check_exports
from .export import export_cards
from .imposition import impose_saddle
from .kinds import BookletInput, KitKind, KitPlan, kit_kind
from .kitindex import index_html
from .kitoptions import BookletOptions as BookletOptions  # re-exported: the commands build them
from .kitoptions import KitOptions as KitOptions
from .labels import render_labels
from .output import check_destination, inside, safe_name, sha256, staged
from .previews import render_previews
from .printguide import card_pages, keep_pages, only_pages, printing_guide, shopping_list
from .sheets import DUPLEX, SheetOptions, grid_for, render_cards
from .templates import CardSize, Paper, Profile, Templates, load_templates
from .typesetting import diagram_capacity, render_booklet
from .units import Length, LengthError
from .verification import check_kit_sizes, protocols_to_verify, summary, verify_protocols, whole_deck_claim
from .viewer import kit_pages

Progress = Callable[[str, int], None]


IMPOSITIONS = ("none", "a5-saddle")
WORKED = "the booklet's worked example"


def _cache(enabled: bool) -> VerificationCache | None:
    return VerificationCache() if enabled else None


def _counted(step: Progress, phase: str, total: int) -> Callable[[int], None]:
    """``n -> step(phase, n)``, the phase's total told first to a step that counts."""
    tell = getattr(step, "total", None)
    if callable(tell):
        tell(phase, total)
    return lambda n: step(phase, n)


def _note_cache(step: Progress, cache: VerificationCache | None) -> None:
    if cache is not None and cache.hits and not cache.misses:
        step("verification reports reused (same specs and engine; --no-cache verifies again)", 0)


def _recorded(opts: KitOptions | BookletOptions) -> dict[str, Any]:
    """The options a manifest records: not the cache switch, the workers, --force nor which
    options were typed, which never change an output."""
    return {
        k: list(v) if isinstance(v, tuple) else v
        for k, v in asdict(opts).items()
        if k not in ("cache", "given", "workers", "force")
        and not (k in ("only", "ink_saver", "export", "exact_hands") and not v)
    }


def parse_offset(text: str) -> tuple[float, float]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2:
        raise UsageError(f"--back-offset takes X,Y with units, e.g. 0.5mm,-1mm; got {text!r}")
    try:
        return Length.parse(parts[0]).points, Length.parse(parts[1]).points
    except LengthError as exc:
        raise UsageError(f"--back-offset: {exc.format_message()}") from None


# --------------------------------------------------------------------------- kits


def build(
    opts: KitOptions, library: Library | None = None, progress: Progress | None = None
) -> dict[str, Any]:
    """Build the kit described by ``opts`` and return its manifest."""
    library = library or Library()
    step = progress or (lambda what, n: None)
    templates = load_templates()
    opts = replace(opts, paper=opts.paper.lower())
    rules = load_game(opts.ruleset)
    kind = kit_kind(rules)
    _check_given(opts, rules, kind)
    plan = kind.plan(opts, rules, templates)
    if opts.ink_saver:
        plan.name += "-ink-saver"
    if kind.own_kit:
        return _build_own(opts, rules, kind, plan, templates.paper(opts.paper), step)
    if opts.duplex not in DUPLEX:
        raise UsageError(f"--duplex is one of {', '.join(DUPLEX)}, not {opts.duplex!r}")
    check_exports(opts.export)
    if opts.export and opts.only:
        raise UsageError("--export writes pictures of every card; it does not go with --only")
    paper = templates.paper(opts.paper)
    profile = templates.profile(opts.profile)
    sheet = templates.label_sheet(plan.label_sheet)
    label_paper = templates.paper(sheet.paper)
    offset = parse_offset(opts.back_offset)
    # The card must fit on the paper: refused here, before anything slow runs.
    grid_for(SheetOptions(plan.name, paper, plan.card, profile, opts.duplex, offset))
    only_name = f"{plan.name}-only-{'-'.join(opts.only)}" if opts.only else plan.name
    destination = Path(opts.output) if opts.output else Path("output") / safe_name(only_name)
    check_destination(destination, opts.force)

    if plan.teaches:
        check_kit_sizes(library, protocols_to_verify(library, plan.protocol), rules.name)
    step("verifying the protocols", 0)
    cache = _cache(opts.cache)
    reports = (
        verify_protocols(
            library,
            protocols_to_verify(library, plan.protocol),
            reveals_of=plan.protocol,
            cache=cache,
            game=rules.name,
            workers=opts.workers,
        )
        if plan.teaches
        else []
    )
    _note_cache(step, cache)
    step("counting materials", 0)
    card = plan.card
    bom = kind.materials(library, rules, plan, reports)
    labels = kind.labels(rules, bom)
    card_keys = [i.key for i in bom.items if i.kind == "card"]
    if any(k not in card_keys for k in opts.only):
        unknown = ", ".join(k for k in opts.only if k not in card_keys)
        raise UsageError(
            f"--only: unknown card type {unknown}; this kit's card types are {', '.join(card_keys)}"
        )
    validation = [summary(r) for r in reversed(reports)]  # reading order: the protocol, then its callees
    statistical = None
    if plan.teaches and opts.runs and kind.statistical_check:
        step("checking the protocol on the full deck", 0)
        statistical = kind.statistical(library, plan, opts.runs, "kit", cache)
    whole_deck = None
    if plan.teaches and opts.exact_hands:
        step("verifying the protocol exactly on the whole deck", 0)
        whole_deck = whole_deck_claim(
            plan.protocol, plan.game, plan.players, opts.exact_hands, opts.workers, cache
        )
    booklet: Booklet | None = None
    if plan.teaches:
        step("writing the booklet", 0)
        capacity = diagram_capacity((paper.size.w, paper.size.h), False)
        given = BookletInput(
            library,
            rules,
            plan,
            bom,
            validation,
            statistical,
            capacity,
            plan.name,
            _reveals(library, reports),
        )
        booklet = kind.booklet(given)
        booklet.ink_saver = opts.ink_saver
        require(bom, booklet.sections[0].needs, (card.size.width.mm, card.size.height.mm), WORKED)
        booklet.whole_deck = whole_deck
    with staged(destination, only_name, "kit", opts.force) as work:
        step("drawing card sheets", 0)
        cards_info = render_cards(
            inside(work, "cards.pdf"),
            bom.faces(),
            SheetOptions(plan.name, paper, card, profile, opts.duplex, offset, opts.ink_saver),
            progress=_counted(step, "drawing card sheets", len(bom.faces())),
        )
        labels_info = render_labels(
            inside(work, "labels.pdf"), labels, sheet, label_paper, plan.name, opts.label_start
        )
        extra_pdfs, extra_manifest = kind.extra_sheets(work, rules, paper, plan.name, bom)
        files = ["cards.pdf", "labels.pdf"] + [f"{p}.pdf" for p in extra_pdfs]
        pdfs = ["cards", "labels", *extra_pdfs]
        pages_of = card_pages(bom, cards_info)
        booklet_info: dict[str, Any] | None = None
        if booklet is not None:
            step("typesetting the booklet", 0)
            pages = render_booklet(inside(work, "booklet.pdf"), booklet, (paper.size.w, paper.size.h))
            write_json(inside(work, "booklet.json"), booklet.to_json())
            files += ["booklet.pdf", "booklet.json"]
            pdfs.append("booklet")
            booklet_info = {"pages": pages, "paper": paper.name}
        only: dict[str, Any] | None = None
        if opts.only:
            keep = only_pages(opts.only, pages_of)
            keep_pages(inside(work, "cards.pdf"), keep)
            for f in files:
                if f != "cards.pdf":
                    inside(work, f).unlink()
            files, pdfs, booklet, booklet_info = ["cards.pdf"], ["cards"], None, None
            only = {
                "types": list(opts.only),
                "pages": keep,
                "note": "the pages of the full kit's cards.pdf that hold these card types (with their "
                "backs), with the same page ids; other cards on the same sheets print too",
            }
        exported: dict[str, Any] | None = None
        if "cards-png" in opts.export:
            step("exporting card pictures", 0)
            card_mm = (card.size.width.mm, card.size.height.mm)
            written, exported = export_cards(
                work, bom, card_mm, opts.ink_saver, lambda n: step("exporting card pictures", n)
            )
            files += written
        if opts.previews:
            step("rendering previews", 0)
            _previews(work, pdfs, files)
        manifest = {
            "kit": plan.name,
            "kitgen": VERSION,
            "options": {
                **_recorded(opts),
                "players": plan.players,
                "virtual": plan.virtual,
                "card_size": card.key,
                "label_sheet": sheet.key,
                "output": None,
            },
            "game": {"name": rules.name, "title": rules.title, "source": rules.source},
            **_print_facts(paper, card, profile),
            "bom": bom.to_json(),
            "sheets": {"cards": cards_info.to_json(), "labels": labels_info.to_json()},
            **extra_manifest,
            "booklet": booklet_info,
            "verification": validation,
            "statistical_verification": statistical,
        }
        if exported is not None:
            manifest["export"] = exported
        if whole_deck is not None:
            manifest["whole_deck_verification"] = whole_deck
        if only is not None:
            manifest["only"] = only
        else:
            manifest["card_pages"] = pages_of
            for key, name, text in (
                ("printing_guide", "printing-guide.txt", printing_guide(manifest, pages_of, pdfs)),
                ("shopping_list", "shopping-list.txt", shopping_list(manifest)),
            ):
                inside(work, name).write_text(text, encoding="utf-8")
                files.append(name)
                manifest[key] = name
        if booklet is not None and booklet.cost is not None:
            manifest["table_time"] = booklet.cost.to_json()
        _write_index(work, manifest, pdfs, files, booklet)
        manifest["files"] = _file_list(work, files)
        write_json(inside(work, "manifest.json"), manifest)
    manifest["folder"] = str(destination)
    return manifest


def _check_given(opts: KitOptions, rules: GameRules, kind: KitKind) -> None:
    """Refuse an option typed on the command line that makes no sense for this kind of kit, in the
    words of the game (never the kind's internal name)."""
    unknown = sorted(opts.given - kind.build_options)
    if unknown:
        taken = ", ".join(sorted(kind.build_options))
        raise UsageError(
            f"{unknown[0]} does not apply to {rules.name}: {kind.refusal(unknown[0])}. Its kit takes {taken}"
        )


def _build_own(
    opts: KitOptions, rules: GameRules, kind: KitKind, plan: KitPlan, paper: Paper, step: Progress
) -> dict[str, Any]:
    """A kit of the kind's own shape (puzzle sheets), staged and checksummed like any kit."""
    destination = Path(opts.output) if opts.output else Path("output") / plan.name
    check_destination(destination, opts.force)
    with staged(destination, plan.name, "kit", opts.force) as work:
        pdfs, others, entries = kind.write_own(work, opts, rules, plan, paper, step)
        files = [f"{p}.pdf" for p in pdfs] + others
        if opts.previews:
            step("rendering previews", 0)
            _previews(work, pdfs, files)
        manifest = {
            "kit": plan.name,
            "kitgen": VERSION,
            "game": {"name": rules.name, "title": rules.title, "source": rules.source},
            "paper": paper.name,
            **entries,
        }
        _write_index(work, manifest, pdfs, files, None)
        manifest["files"] = _file_list(work, files)
        write_json(inside(work, "manifest.json"), manifest)
    manifest["folder"] = str(destination)
    return manifest


def _print_facts(paper: Paper, card: CardSize, profile: Profile) -> dict[str, Any]:
    """The paper, card size and print profile, as a manifest records them."""
    return {
        "paper": paper.name,
        "card": {
            "name": card.name,
            "width_mm": round(card.size.width.mm, 3),
            "height_mm": round(card.size.height.mm, 3),
        },
        "profile": {
            "name": profile.key,
            "bleed_mm": round(profile.bleed.mm, 3),
            "safe_mm": round(profile.safe.mm, 3),
            "margin_mm": round(profile.margin.mm, 3),
            "shared_cuts": profile.shared_cuts,
        },
    }


def _previews(work: Path, pdfs: list[str], files: list[str]) -> None:
    """PNG previews of every page of each PDF, added to ``files``."""
    for pdf in pdfs:
        for png in render_previews(inside(work, f"{pdf}.pdf"), inside(work, "previews"), pdf):
            files.append(str(png.relative_to(work)))


def _write_index(
    work: Path, manifest: dict[str, Any], pdfs: list[str], files: list[str], booklet: Booklet | None
) -> None:
    """The kit's index.html and, for a kit with a booklet, a viewer page per protocol it
    teaches (view/<protocol>.html); both added to ``files``."""
    views: list[tuple[str, str]] = []
    titles: dict[str, str] = {}
    if booklet is not None:
        pages = kit_pages(
            booklet.sections,
            manifest.get("verification") or [],
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
    previews = sorted(f for f in files if f.startswith("previews/"))
    text = index_html(work, manifest, pdfs, previews, views, lambda n: titles.get(n, n))
    inside(work, "index.html").write_text(text, encoding="utf-8")
    files.append("index.html")


def _file_list(work: Path, files: list[str]) -> list[dict[str, Any]]:
    return [
        {"path": f, "sha256": sha256(inside(work, f)), "bytes": inside(work, f).stat().st_size}
        for f in sorted(files)
    ]


def _reveals(library: Library, reports: list[Report]) -> dict[tuple[str, str], Reveal] | None:
    """The possible reveals the verification of the taught protocol recorded, characterised."""
    recorded = next((r.reveals for r in reports if r.reveals is not None), None)
    return reveals_from(library, recorded) if recorded is not None else None


def write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


# --------------------------------------------------------------------------- booklets


def build_booklet(
    opts: BookletOptions, library: Library | None = None, progress: Progress | None = None
) -> dict[str, Any]:
    """Write the booklet of a rule set (a game kit's booklet) or of one protocol into a folder."""
    library = library or Library()
    step = progress or (lambda what, n: None)
    opts = replace(opts, paper=opts.paper.lower())
    if opts.imposition not in IMPOSITIONS:
        raise UsageError(f"--imposition is one of {', '.join(IMPOSITIONS)}, not {opts.imposition!r}")
    if opts.runs < 0:
        raise UsageError(f"--runs must be 0 or more, got {opts.runs}")
    templates = load_templates()
    paper = templates.paper(opts.paper)
    a5 = opts.imposition == "a5-saddle"
    capacity = diagram_capacity((paper.size.w, paper.size.h), a5)
    game: tuple[GameRules, KitKind, KitPlan] | None = None
    if is_game(opts.name):
        rules = load_game(opts.name)
        kind = kit_kind(rules)
        bplan = kind.booklet_plan(opts, rules)
        plan = KitPlan(
            game=rules.name,
            name=bplan.name,
            players=bplan.players,
            virtual=bplan.virtual,
            protocol=bplan.protocol,
            card=_default_card(templates, rules, kind),
            label_sheet="",
            extra={"discard_owner": opts.discard_owner, "deck": "print"},
        )
        game = (rules, kind, plan)
        protocol, name = plan.protocol, plan.name
    else:
        proto = library.protocol(opts.name)
        protocol = proto.name
        name = safe_name(f"{proto.name}-booklet-{opts.paper}")
    if a5:
        name += "-a5-saddle"
    destination = Path(opts.output) if opts.output else Path("output") / name
    check_destination(destination, opts.force)
    step("verifying the protocols", 0)
    cache = _cache(opts.cache)
    reports = verify_protocols(
        library,
        protocols_to_verify(library, protocol),
        "booklet",
        reveals_of=protocol,
        cache=cache,
        game=game[0].name if game is not None else None,
        workers=opts.workers,
    )
    _note_cache(step, cache)
    reveals = _reveals(library, reports)
    validation = [summary(r) for r in reports]
    # Reading order: the protocol first, then what it calls.
    validation.reverse()
    step("composing the booklet", 0)
    if game is not None:
        rules, kind, plan = game
        statistical = kind.statistical(library, plan, opts.runs, "booklet", cache) if opts.runs else None
        card = plan.card
        bom = kind.materials(library, rules, plan, reports)
        given = BookletInput(library, rules, plan, bom, validation, statistical, capacity, name, reveals)
        booklet = kind.booklet(given)
        require(bom, booklet.sections[0].needs, (card.size.width.mm, card.size.height.mm), WORKED)
    else:
        booklet = protocol_booklet(library, library.protocol(protocol), validation, capacity, name, reveals)
    with staged(destination, name, "booklet", opts.force) as work:
        step("typesetting", 0)
        pdf = inside(work, "booklet.pdf")
        if a5:
            pages_pdf = inside(work, "booklet-pages.pdf")
            pages = render_booklet(pages_pdf, booklet, (paper.size.w, paper.size.h), a5=True)
            sides = impose_saddle(pages_pdf, pdf)
            pages_pdf.unlink()
        else:
            pages = render_booklet(pdf, booklet, (paper.size.w, paper.size.h))
            sides = pages
        write_json(inside(work, "booklet.json"), booklet.to_json())
        files = ["booklet.pdf", "booklet.json"]
        if opts.previews:
            step("rendering previews", 0)
            _previews(work, ["booklet"], files)
        manifest = {
            "booklet": name,
            "kitgen": VERSION,
            "options": {**_recorded(opts), "output": None},
            "pages": pages,
            "printed_sides": sides,
            "imposition": opts.imposition,
            "paper": paper.name,
            "verification": validation,
            "files": _file_list(work, files),
        }
        write_json(inside(work, "manifest.json"), manifest)
    manifest["folder"] = str(destination)
    return manifest


def _default_card(templates: Templates, rules: GameRules, kind: KitKind) -> CardSize:
    return templates.card_size(str(rules.kit.get("card_size", kind.default_card_size)))
