"""Building a printable kit, or a booklet alone, in one folder.

``build`` is what ``kitgen build`` runs: it loads the rule set, asks its kind (see
:mod:`kitgen.kinds`) for the kit's shape, verifies every protocol the kit's booklet will
teach (a failing spec stops the build), computes the bill of materials, lays out and renders
the card and label sheets (and the kind's extra sheets), the booklet, PNG previews, and
writes ``manifest.json`` with the options, the BOM, every file's checksum and the
verification summary. ``build_booklet`` (``kitgen booklet``) writes the booklet of a rule set
or of one protocol. Everything is written to a temporary folder first and then renamed into
place, over a folder only when kitgen wrote everything in it (see :mod:`kitgen.core.output`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from reference_engine.api import (
    VERSION,
    GameRules,
    Library,
    UsageError,
    is_game,
    load_game,
)

from ..booklet.book import Booklet, protocol_booklet
from ..booklet.typesetting import diagram_capacity, render_booklet
from ..core.cache import VerificationCache
from ..core.figurecache import caching
from ..core.kitoptions import BookletOptions, KitOptions, validate
from ..core.kitoptions import recorded as _recorded
from ..core.manifest import BookletManifest, GameFacts, KitHead, KitManifest, OwnKitManifest
from ..core.optionspec import KindValues
from ..core.output import OutputFolder, inside, safe_name
from ..core.templates import CardSize, Paper, Templates, load_templates
from ..core.verification import (
    booklet_reveals,
    check_kit_sizes,
    protocols_to_verify,
    summary,
    verify_protocols,
    whole_deck_claim,
    whole_deck_offered,
)
from ..cost.consumables import require
from ..kinds import BookletInput, KitKind, KitPlan, kit_kind
from ..paper.imposition import impose_saddle
from .artifacts import (
    KitContent,
    check_given,
    check_only,
    file_list,
    finish,
    previews,
    print_setup,
    write_json,
    write_kit,
)
from .classkit import is_protocol, protocol_kit

__all__ = ["BookletOptions", "KitOptions", "build", "build_booklet"]

Progress = Callable[[str, int], None]


IMPOSITIONS = ("none", "a5-saddle")
WORKED = "the booklet's worked example"


def _cache(enabled: bool) -> VerificationCache | None:
    return VerificationCache() if enabled else None


def _note_cache(step: Progress, cache: VerificationCache | None) -> None:
    if cache is not None and cache.hits and not cache.misses:
        step("verification reports reused (same specs and engine; --no-cache verifies again)", 0)


# --------------------------------------------------------------------------- kits


def build(
    opts: KitOptions, library: Library | None = None, progress: Progress | None = None
) -> KitManifest | OwnKitManifest:
    """Build the kit described by ``opts`` and return its manifest: a game kit for a rule set, a
    protocol kit for a class for a protocol (shipped, or a spec file; :mod:`kitgen.kit.classkit`)."""
    library = library or Library()
    step = progress or (lambda what, n: None)
    opts = replace(opts, paper=opts.paper.lower())
    validate(opts)
    if is_protocol(opts.ruleset):
        return write_kit(protocol_kit(opts, library, step), step)
    rules = load_game(opts.ruleset)
    kind = kit_kind(rules)
    check_given(opts.given | opts.own.names(), rules.name, kind.build_options, kind.refusal)
    templates = load_templates()
    plan = kind.plan(opts, rules, templates)
    if opts.ink_saver:
        plan.name += "-ink-saver"
    if kind.own_kit:
        return _build_own(opts, rules, kind, plan, templates.paper(opts.paper), step)
    with caching(opts.cache):  # --no-cache costs the simulated games afresh too
        return write_kit(_game_kit(opts, library, rules, kind, plan, templates, step), step)


def _game_kit(
    opts: KitOptions,
    library: Library,
    rules: GameRules,
    kind: KitKind,
    plan: KitPlan,
    templates: Templates,
    step: Progress,
) -> KitContent:
    """What a game's kit holds: its protocols verified, its materials, labels and booklet."""
    printing = print_setup(opts, templates, plan.name, plan.card, plan.label_sheet)
    OutputFolder.check(printing.destination, opts.force)
    teaches = protocols_to_verify(library, plan.protocol) if plan.teaches else []
    if teaches:
        check_kit_sizes(library, teaches, rules.name)
    if plan.teaches and opts.exact_hands and not whole_deck_offered(plan.protocol, plan.game, plan.players):
        # A protocol the whole-deck verification cannot take is refused before anything runs:
        # the claim's static checks (whole_deck_offered) fail, so whole_deck_claim raises the
        # refusal it would raise after the protocols' verification, without verifying a thing.
        whole_deck_claim(plan.protocol, plan.game, plan.players, opts.exact_hands, opts.workers, None)
    step("verifying the protocols", 0)
    cache = _cache(opts.cache)
    reports = verify_protocols(
        library, teaches, reveals_of=plan.protocol, cache=cache, game=rules.name, workers=opts.workers
    )
    _note_cache(step, cache)
    step("counting materials", 0)
    card_mm = (plan.card.size.width.mm, plan.card.size.height.mm)
    bom = kind.materials(library, rules, plan, reports)
    check_only(opts.only, bom)
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
    paper = printing.sheet_options.paper
    if plan.teaches:
        step("writing the booklet", 0)
        capacity = diagram_capacity((paper.size.w, paper.size.h), False)
        reveals = booklet_reveals(library, reports)
        given = BookletInput(library, rules, plan, bom, validation, statistical, capacity, plan.name, reveals)
        booklet = kind.booklet(given)
        booklet.ink_saver = opts.ink_saver
        require(bom, booklet.sections[0].needs, card_mm, WORKED)
        booklet.front = kind.front_sections(booklet)  # the kit's chapters, its materials complete
        booklet.whole_deck = whole_deck
        # Without --exact-hands: say where the exact check on the whole deck is, when it applies.
        booklet.whole_deck_offered = (
            whole_deck is None
            and statistical is not None
            and whole_deck_offered(plan.protocol, plan.game, plan.players)
        )
    options = {
        **_recorded(opts),
        "players": plan.players,
        "virtual": plan.virtual,
        "card_size": plan.card.key,
        "label_sheet": printing.label_sheet.key,
        "output": None,
    }
    game: GameFacts = {"name": rules.name, "title": rules.title, "source": rules.source}
    return KitContent(
        printing,
        KitHead(plan.name, VERSION, options, game=game, kind=rules.kind),
        bom,
        kind.labels(rules, bom),
        booklet,
        validation,
        statistical,
        whole_deck,
        lambda work: kind.extra_sheets(work, rules, paper, plan.name, bom),
    )


def _build_own(
    opts: KitOptions, rules: GameRules, kind: KitKind, plan: KitPlan, paper: Paper, step: Progress
) -> OwnKitManifest:
    """A kit of the kind's own shape (puzzle sheets), staged and checksummed like any kit."""
    destination = Path(opts.output) if opts.output else Path("output") / plan.name
    with OutputFolder.check(destination, opts.force).staged(plan.name, "kit") as work:
        pdfs, others, entries = kind.write_own(work, opts, rules, plan, paper, step)
        files = [f"{p}.pdf" for p in pdfs] + others
        if opts.previews:
            step("rendering previews", 0)
            previews(work, pdfs, files, opts.cache)
        game: GameFacts = {"name": rules.name, "title": rules.title, "source": rules.source}
        manifest = OwnKitManifest(plan.name, VERSION, game, paper.name, entries, kind=rules.kind)
        finish(work, manifest, pdfs, files, None)
    manifest.folder = str(destination)
    return manifest


# --------------------------------------------------------------------------- booklets


def build_booklet(
    opts: BookletOptions, library: Library | None = None, progress: Progress | None = None
) -> BookletManifest:
    """Write the booklet of a rule set (a game kit's booklet) or of one protocol into a folder."""
    library = library or Library()
    step = progress or (lambda what, n: None)
    opts = replace(opts, paper=opts.paper.lower())
    validate(opts)
    if opts.imposition not in IMPOSITIONS:
        raise UsageError(f"--imposition is one of {', '.join(IMPOSITIONS)}, not {opts.imposition!r}")
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
            own=KindValues.of(discard_owner=opts.own.switch("discard_owner")),
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
    folder = OutputFolder.check(destination, opts.force)
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
    reveals = booklet_reveals(library, reports)
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
        booklet.front = kind.front_sections(booklet)
    else:
        booklet = protocol_booklet(library, library.protocol(protocol), validation, capacity, name, reveals)
    with folder.staged(name, "booklet") as work:
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
            previews(work, ["booklet"], files, opts.cache)
        manifest = BookletManifest(
            name,
            VERSION,
            {**_recorded(opts), "output": None},
            pages,
            sides,
            opts.imposition,
            paper.name,
            validation,
            file_list(work, files),
        )
        write_json(inside(work, "manifest.json"), manifest.to_json())
    manifest.folder = str(destination)
    return manifest


def _default_card(templates: Templates, rules: GameRules, kind: KitKind) -> CardSize:
    return templates.card_size(str(rules.kit.get("card_size", kind.default_card_size)))
