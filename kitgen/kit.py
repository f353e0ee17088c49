"""Building a printable kit: cards, labels, previews and a manifest, in one folder.

``build`` is what ``kitgen build`` runs: it checks the options, verifies every protocol the
kit's booklet will teach (a failing spec stops the build), computes the bill of
materials, lays out and renders the card and label sheets, renders PNG previews and
writes ``manifest.json`` with the options, the BOM, every file's checksum and the
verification summary. Everything is written to a temporary folder first and then renamed
into place.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from reference_engine.errors import UsageError
from reference_engine.registry import Library
from reference_engine.reveals import Reveal, reveals_from
from reference_engine.rules import (
    RuleSet,
    game_kind,
    games_dir,
    hand_dependence_message,
    load_any,
    load_rules,
)
from reference_engine.verify import VERSION, Report

from .bom import PLAYER_COLOURS, Bom, game_bom, sealed_bid_bom
from .booklet import game_booklet, protocol_booklet, sealed_bid_booklet
from .bundles import render_bundle_sheet
from .imposition import impose_saddle
from .labels import Label, render_labels, theta_label
from .output import check_output_folder, inside, safe_name, sha256, staged
from .previews import render_previews
from .sheets import DUPLEX, SheetOptions, render_cards
from .templates import CardSize, Paper, Profile, load_templates
from .typesetting import diagram_capacity, render_booklet
from .units import Length, LengthError
from .verification import (
    VerificationCache,
    protocols_to_verify,
    summary,
    verify_protocols,
    verify_statistically,
)

Progress = Callable[[str, int], None]

DEFAULT_LABELS = {"a4": "L7160", "letter": "5160", "a3": "cutout-a4", "tabloid": "cutout-letter"}


@dataclass(frozen=True)
class KitOptions:
    ruleset: str = "uno"
    players: int | None = None
    virtual: int = 1
    paper: str = "a4"
    card_size: str | None = None
    duplex: str = "long"
    profile: str = "home"
    deck: str = "print"
    discard_owner: bool = False
    protocol: str | None = None
    labels: str | None = None
    label_start: int = 1
    back_offset: str = "0mm,0mm"
    wild4: str = "strict"
    output: str | None = None
    previews: bool = True
    runs: int = 100
    extra: dict[str, Any] = field(default_factory=dict)
    cache: bool = True  # reuse verification reports of identical specs (see kitgen.verification)


def _cache(enabled: bool) -> VerificationCache | None:
    return VerificationCache() if enabled else None


def _note_cache(step: Progress, cache: VerificationCache | None) -> None:
    if cache is not None and cache.hits and not cache.misses:
        step("verification reports reused (same specs and engine; --no-cache verifies again)", 0)


def _recorded(opts: KitOptions | BookletOptions) -> dict[str, Any]:
    """The options a manifest records: not the cache switch, which never changes an output."""
    return {k: v for k, v in asdict(opts).items() if k != "cache"}


def parse_offset(text: str) -> tuple[float, float]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2:
        raise UsageError(f"--back-offset takes X,Y with units, e.g. 0.5mm,-1mm; got {text!r}")
    try:
        return Length.parse(parts[0]).points, Length.parse(parts[1]).points
    except LengthError as exc:
        raise UsageError(f"--back-offset: {exc.format_message()}") from None


def kit_name(opts: KitOptions, rules: RuleSet, players: int, card_key: str) -> str:
    parts = [rules.name, f"{players}p{opts.virtual}v", opts.paper]
    if card_key != str(rules.kit.get("card_size", "uno")):
        parts.append(card_key)
    if opts.duplex != "long":
        parts.append(opts.duplex)
    if opts.profile != "home":
        parts.append(opts.profile)
    if opts.deck != "print":
        parts.append("store-deck")
    if opts.discard_owner:
        parts.append("discard-owner")
    return safe_name("-".join(parts))


def build(
    opts: KitOptions, library: Library | None = None, progress: Progress | None = None
) -> dict[str, Any]:
    """Build the kit described by ``opts`` and return its manifest."""
    library = library or Library()
    if game_kind(opts.ruleset) == "sealed-bid":
        return build_sealed_bid(opts, library, progress)
    templates = load_templates()
    rules = load_rules(opts.ruleset)
    lo, hi, default = rules.players
    players = default if opts.players is None else opts.players
    if not lo <= players <= hi:
        raise UsageError(f"{rules.name} is played by {lo} to {hi} players, not {players}")
    if not 0 <= opts.virtual <= players:
        raise UsageError(f"--virtual must be between 0 and {players}, got {opts.virtual}")
    if opts.virtual and rules.hand_dependent and opts.wild4 != "bluff":
        raise UsageError(hand_dependence_message(rules))
    if opts.duplex not in DUPLEX:
        raise UsageError(f"--duplex is one of {', '.join(DUPLEX)}, not {opts.duplex!r}")
    if opts.deck not in ("print", "store"):
        raise UsageError(f"--deck is print or store, not {opts.deck!r}")
    paper = templates.paper(opts.paper)
    card = templates.card_size(opts.card_size or str(rules.kit.get("card_size", "uno")))
    profile = templates.profile(opts.profile)
    sheet = templates.label_sheet(opts.labels or DEFAULT_LABELS.get(opts.paper, "cutout-a4"))
    label_paper = templates.paper(sheet.paper)
    offset = parse_offset(opts.back_offset)
    name = kit_name(opts, rules, players, card.key)
    destination = Path(opts.output) if opts.output else Path("output") / name
    _check_destination(destination)

    step = progress or (lambda what, n: None)
    step("verifying the protocols", 0)
    protocol = opts.protocol or rules.virtual_protocol
    cache = _cache(opts.cache)
    reports = (
        verify_protocols(library, protocols_to_verify(library, protocol), reveals_of=protocol, cache=cache)
        if opts.virtual
        else []
    )
    _note_cache(step, cache)
    step("counting materials", 0)
    bom = game_bom(
        rules,
        library,
        players,
        opts.virtual,
        opts.deck,
        opts.discard_owner,
        (card.size.width.mm, card.size.height.mm),
    )
    faces = bom.faces()
    sheet_opts = SheetOptions(name, paper, card, profile, opts.duplex, offset)
    labels = kit_labels(bom)
    validation = [summary(r) for r in reversed(reports)]  # reading order: the protocol, then its callees
    statistical = None
    if opts.virtual and opts.runs:
        step("checking the protocol on the full deck", 0)
        statistical = summary(verify_statistically(library, protocol, opts.runs, 1, cache=cache))
    step("writing the booklet", 0)
    booklet = (
        game_booklet(
            library,
            rules,
            players=players,
            virtual=opts.virtual,
            discard_owner=opts.discard_owner,
            wild4="bluff" if rules.hand_dependent else "strict",
            protocol=protocol,
            bom=bom,
            validation=validation,
            statistical=statistical,
            capacity=diagram_capacity((paper.size.w, paper.size.h), False),
            name=name,
            reveals=_reveals(library, reports),
        )
        if opts.virtual
        else None
    )
    with staged(destination) as work:
        step("drawing card sheets", 0)
        cards_info = render_cards(
            inside(work, "cards.pdf"), faces, sheet_opts, progress=lambda n: step("drawing card sheets", n)
        )
        labels_info = render_labels(
            inside(work, "labels.pdf"), labels, sheet, label_paper, name, opts.label_start
        )
        files = ["cards.pdf", "labels.pdf"]
        pdfs = ["cards", "labels"]
        booklet_info: dict[str, Any] | None = None
        if booklet is not None:
            step("typesetting the booklet", 0)
            pages = render_booklet(inside(work, "booklet.pdf"), booklet, (paper.size.w, paper.size.h))
            write_json(inside(work, "booklet.json"), booklet.to_json())
            files += ["booklet.pdf", "booklet.json"]
            pdfs.append("booklet")
            booklet_info = {"pages": pages, "paper": paper.name}
        if opts.previews:
            step("rendering previews", 0)
            _previews(work, pdfs, files)
        manifest = {
            "kit": name,
            "kitgen": VERSION,
            "options": {
                **_recorded(opts),
                "players": players,
                "card_size": card.key,
                "label_sheet": sheet.key,
                "output": None,
            },
            "game": {"name": rules.name, "title": rules.title, "source": rules.source},
            **_print_facts(paper, card, profile),
            "bom": bom.to_json(),
            "sheets": {"cards": cards_info.to_json(), "labels": labels_info.to_json()},
            "booklet": booklet_info,
            "verification": validation,
            "statistical_verification": statistical,
            "files": _file_list(work, files),
        }
        write_json(inside(work, "manifest.json"), manifest)
    manifest["folder"] = str(destination)
    return manifest


def build_sealed_bid(opts: KitOptions, library: Library, progress: Progress | None = None) -> dict[str, Any]:
    """A dealerless sealed-bid kit (Gakmoro): two-colour cards, sleeves and their value labels,
    the bundle preparation sheet and the booklet, after verifying the round protocol."""
    templates = load_templates()
    rules = load_any(opts.ruleset)
    if opts.players not in (None, 2):
        raise UsageError(f"{rules.name} is played by 2 players, not {opts.players}")
    if opts.duplex not in DUPLEX:
        raise UsageError(f"--duplex is one of {', '.join(DUPLEX)}, not {opts.duplex!r}")
    if opts.deck != "print":
        raise UsageError(f"{rules.name} uses a two-colour deck of ♣ and ♥ that the kit prints: --deck print")
    paper = templates.paper(opts.paper)
    card = templates.card_size(opts.card_size or str(rules.kit.get("card_size", "mini-usa")))
    profile = templates.profile(opts.profile)
    preset = (
        rules.kit.get("labels", {}).get(opts.paper) if isinstance(rules.kit.get("labels"), dict) else None
    )
    sheet = templates.label_sheet(opts.labels or preset or DEFAULT_LABELS.get(opts.paper, "cutout-a4"))
    label_paper = templates.paper(sheet.paper)
    offset = parse_offset(opts.back_offset)
    parts = [rules.name, opts.paper]
    if card.key != str(rules.kit.get("card_size", "mini-usa")):
        parts.append(card.key)
    if opts.duplex != "long":
        parts.append(opts.duplex)
    if opts.profile != "home":
        parts.append(opts.profile)
    name = safe_name("-".join(parts))
    destination = Path(opts.output) if opts.output else Path("output") / name
    _check_destination(destination)
    step = progress or (lambda what, n: None)
    step("verifying the protocols", 0)
    protocol = opts.protocol or rules.protocol
    cache = _cache(opts.cache)
    reports = verify_protocols(
        library, protocols_to_verify(library, protocol), reveals_of=protocol, cache=cache
    )
    top = next(r for r in reports if r.protocol == library.protocol(protocol).name)
    _note_cache(step, cache)
    step("counting materials", 0)
    bom = sealed_bid_bom(
        rules, dict(top.resources["helpers_by_symbol"]), (card.size.width.mm, card.size.height.mm)
    )
    validation = [summary(r) for r in reversed(reports)]
    step("writing the booklet", 0)
    booklet = sealed_bid_booklet(
        library,
        rules,
        bom=bom,
        validation=validation,
        capacity=diagram_capacity((paper.size.w, paper.size.h), False),
        name=name,
        reveals=_reveals(library, reports),
    )
    labels = [
        Label(str(v), f"{who} · ♥ at place {v + 1}", PLAYER_COLOURS[p], "value")
        for p, who in enumerate(rules.names)
        for v in rules.hand("dealerless")
    ]
    with staged(destination) as work:
        step("drawing card sheets", 0)
        cards_info = render_cards(
            inside(work, "cards.pdf"),
            bom.faces(),
            SheetOptions(name, paper, card, profile, opts.duplex, offset),
            progress=lambda n: step("drawing card sheets", n),
        )
        labels_info = render_labels(
            inside(work, "labels.pdf"), labels, sheet, label_paper, name, opts.label_start
        )
        bundle_pages = render_bundle_sheet(inside(work, "bundles.pdf"), rules, paper, name)
        step("typesetting the booklet", 0)
        pages = render_booklet(inside(work, "booklet.pdf"), booklet, (paper.size.w, paper.size.h))
        write_json(inside(work, "booklet.json"), booklet.to_json())
        files = ["cards.pdf", "labels.pdf", "bundles.pdf", "booklet.pdf", "booklet.json"]
        if opts.previews:
            step("rendering previews", 0)
            _previews(work, ["cards", "labels", "bundles", "booklet"], files)
        manifest = {
            "kit": name,
            "kitgen": VERSION,
            "options": {
                **_recorded(opts),
                "players": 2,
                "virtual": 0,
                "card_size": card.key,
                "label_sheet": sheet.key,
                "output": None,
            },
            "game": {"name": rules.name, "title": rules.title, "source": rules.source},
            **_print_facts(paper, card, profile),
            "bom": bom.to_json(),
            "sheets": {"cards": cards_info.to_json(), "labels": labels_info.to_json()},
            "bundles": {"pages": bundle_pages},
            "booklet": {"pages": pages, "paper": paper.name},
            "verification": validation,
            "statistical_verification": None,
            "files": _file_list(work, files),
        }
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
        },
    }


def _previews(work: Path, pdfs: list[str], files: list[str]) -> None:
    """PNG previews of every page of each PDF, added to ``files``."""
    for pdf in pdfs:
        for png in render_previews(inside(work, f"{pdf}.pdf"), inside(work, "previews"), pdf):
            files.append(str(png.relative_to(work)))


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


@dataclass(frozen=True)
class BookletOptions:
    name: str = "uno"
    paper: str = "a4"
    imposition: str = "none"
    players: int | None = None
    virtual: int = 1
    discard_owner: bool = False
    wild4: str = "strict"
    protocol: str | None = None
    runs: int = 100
    output: str | None = None
    previews: bool = True
    cache: bool = True


IMPOSITIONS = ("none", "a5-saddle")


def build_booklet(
    opts: BookletOptions, library: Library | None = None, progress: Progress | None = None
) -> dict[str, Any]:
    """Write the booklet of a rule set (a game kit's booklet) or of one protocol into a folder."""
    library = library or Library()
    step = progress or (lambda what, n: None)
    if opts.imposition not in IMPOSITIONS:
        raise UsageError(f"--imposition is one of {', '.join(IMPOSITIONS)}, not {opts.imposition!r}")
    if opts.runs < 0:
        raise UsageError(f"--runs must be 0 or more, got {opts.runs}")
    templates = load_templates()
    paper = templates.paper(opts.paper)
    a5 = opts.imposition == "a5-saddle"
    capacity = diagram_capacity((paper.size.w, paper.size.h), a5)
    is_game = not opts.name.endswith((".yaml", ".yml")) and (games_dir() / f"{opts.name}.yaml").is_file()
    sealed = is_game and game_kind(opts.name) == "sealed-bid"
    if sealed:
        bid_rules = load_any(opts.name)
        protocol = opts.protocol or bid_rules.protocol
        name = safe_name(f"{bid_rules.name}-booklet-{opts.paper}")
    elif is_game:
        rules = load_rules(opts.name)
        lo, hi, default = rules.players
        players = default if opts.players is None else opts.players
        if not lo <= players <= hi:
            raise UsageError(f"{rules.name} is played by {lo} to {hi} players, not {players}")
        if not 1 <= opts.virtual <= players:
            raise UsageError(f"a booklet teaches virtual players: --virtual must be 1 to {players}")
        if rules.hand_dependent and opts.wild4 != "bluff":
            raise UsageError(hand_dependence_message(rules))
        protocol = opts.protocol or rules.virtual_protocol
        name = safe_name(f"{rules.name}-{players}p{opts.virtual}v-booklet-{opts.paper}")
    else:
        proto = library.protocol(opts.name)
        protocol = proto.name
        name = safe_name(f"{proto.name}-booklet-{opts.paper}")
    if a5:
        name += "-a5-saddle"
    destination = Path(opts.output) if opts.output else Path("output") / name
    _check_destination(destination)
    step("verifying the protocols", 0)
    cache = _cache(opts.cache)
    reports = verify_protocols(
        library, protocols_to_verify(library, protocol), "booklet", reveals_of=protocol, cache=cache
    )
    _note_cache(step, cache)
    reveals = _reveals(library, reports)
    validation = [summary(r) for r in reports]
    # Reading order: the protocol first, then what it calls.
    validation.reverse()
    step("composing the booklet", 0)
    if sealed:
        top = next(r for r in reports if r.protocol == library.protocol(protocol).name)
        card = templates.card_size(str(bid_rules.kit.get("card_size", "mini-usa")))
        booklet = sealed_bid_booklet(
            library,
            bid_rules,
            bom=sealed_bid_bom(
                bid_rules, dict(top.resources["helpers_by_symbol"]), (card.size.width.mm, card.size.height.mm)
            ),
            validation=validation,
            capacity=capacity,
            name=name,
            reveals=reveals,
        )
    elif is_game:
        statistical = (
            summary(verify_statistically(library, protocol, opts.runs, 1, "booklet", cache))
            if opts.runs
            else None
        )
        card = templates.card_size(str(rules.kit.get("card_size", "uno")))
        bom = game_bom(
            rules,
            library,
            players,
            opts.virtual,
            "print",
            opts.discard_owner,
            (card.size.width.mm, card.size.height.mm),
        )
        booklet = game_booklet(
            library,
            rules,
            players=players,
            virtual=opts.virtual,
            discard_owner=opts.discard_owner,
            wild4="bluff" if rules.hand_dependent else "strict",
            protocol=protocol,
            bom=bom,
            validation=validation,
            statistical=statistical,
            capacity=capacity,
            name=name,
            reveals=reveals,
        )
    else:
        booklet = protocol_booklet(library, library.protocol(protocol), validation, capacity, name, reveals)
    with staged(destination) as work:
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


def _check_destination(destination: Path) -> None:
    """Only replace a folder that is a kit (or empty): never someone's home directory. A folder
    that cannot be created is refused here, before the protocols are verified."""
    check_output_folder(destination)
    if destination.exists():
        if not destination.is_dir():
            raise UsageError(f"{destination} exists and is not a folder")
        if any(destination.iterdir()) and not (destination / "manifest.json").is_file():
            raise UsageError(
                f"{destination} is not empty and is not a kitgen kit; choose a new or empty folder"
            )


def kit_labels(bom: Bom) -> list[Label]:
    """Seat labels (θ_i and its owner) and a storage label for every group of printed cards."""
    labels: list[Label] = []
    for i, owner in enumerate(bom.seats, 1):
        if any(it.key == f"theta{i}" for it in bom.items):
            labels.append(theta_label(i, owner))
    for item in bom.items:
        if item.kind == "card":
            colour = ""
            if item.key.startswith("theta"):
                from .faces import theta_colour

                colour = theta_colour(int(item.key[len("theta") :]))
            labels.append(Label(item.label, f"{item.count} cards", colour, "storage"))
        elif item.kind == "envelope":
            labels.append(Label("Envelopes", f"{item.count}, identical", "", "storage"))
    return labels
