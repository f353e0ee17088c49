"""A protocol kit for a class: one protocol's cards, booklet, viewer, guides and a handout.

``kitgen build six-card-and`` (a shipped protocol), ``kitgen build covert-lottery-modified
--param m=4`` or ``kitgen build path/to/spec.yaml`` (a user's spec) makes a kit to teach one
protocol: the cards its verified setting lays out (bit markers, owner cards, number cards,
encoding cards, a game's cards), with spares, for ``--sets`` groups; envelopes and sleeves for
its shuffles counted from the worked example's trace; storage labels; the protocol booklet;
the viewer pages; the printing guide and shopping list; and ``handout.pdf``, one page for a
lesson (see :mod:`kitgen.booklet.handout`). The protocol and everything it calls is verified first,
exactly as ``kitgen verify`` does; a failing spec writes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from reference_engine.api import (
    VERSION,
    Library,
    Protocol,
    ReportSummary,
    UsageError,
    VerificationFailed,
    check_protocol,
    games_dir,
    is_game,
    load_game,
    parse_params,
)

from ..booklet.book import Booklet, protocol_booklet
from ..booklet.glossary import Glossary, quantities_of
from ..booklet.handout import Handout, render_handout
from ..booklet.typesetting import diagram_capacity
from ..core.cache import VerificationCache
from ..core.claims import claims
from ..core.kitoptions import KitOptions, recorded
from ..core.manifest import JsonObject, KitHead, ProtocolFacts
from ..core.optionspec import PROTOCOL_KIT
from ..core.output import OutputFolder, safe_name
from ..core.templates import load_templates
from ..core.verification import booklet_reveals, protocols_to_verify, report_for, summary, verify_protocols
from ..core.words import listing, plural
from ..cost.bom import Bom, Item, spares
from ..cost.consumables import require
from ..kinds import default_labels, kit_kind
from ..lang.catalogue import N_, SOURCE, _, language, times
from ..lang.overlay import spec_text
from ..paper.facenames import face_name
from ..paper.faces import Face
from ..paper.labels import Label
from .artifacts import KitContent, check_given, print_setup

Progress = Callable[[str, int], None]

DEFAULT_CARD = "uno"
WORKED = "the booklet's worked example"
_TOP_KEY = re.compile(r"^(game|protocol)\s*:", re.MULTILINE)


def is_protocol(name: str) -> bool:
    """Whether ``kitgen build NAME`` makes a protocol kit: NAME is not a rule set (by name, or a
    YAML file whose top-level key is ``game:``)."""
    if is_game(name):
        return False
    path = Path(name)
    if name.endswith((".yaml", ".yml")) and path.is_file():
        try:
            found = _TOP_KEY.search(path.read_text(encoding="utf-8", errors="replace")[:200_000])
        except OSError:
            return True  # the spec loader says what is wrong with it
        return found is None or found.group(1) == "protocol"
    return True


def _protocol(library: Library, name: str) -> Protocol:
    """The protocol ``name`` names; an unknown name is told with both lists it might be in."""
    if not name.endswith((".yaml", ".yml")) and "/" not in name and library.find_file(name) is None:
        games = sorted(p.stem for p in games_dir().glob("*.yaml"))
        raise UsageError(
            f"unknown rule set or protocol {name!r} (rule sets: {', '.join(games)}; protocols: "
            f"{', '.join(library.names())}); `kitgen list` shows them all"
        )
    return library.protocol(name)


def _refusal(option: str) -> str:
    return "a protocol kit teaches one protocol, not a game (give a rule set such as uno for a game's kit)"


def protocol_kit(opts: KitOptions, library: Library, step: Progress) -> KitContent:
    """What the kit of one protocol holds (see the module docs); every option is checked first."""
    proto = _protocol(library, opts.ruleset)
    check_given(opts.given, proto.name, PROTOCOL_KIT, _refusal)
    given = parse_params(opts.params)
    params = proto.resolve_params(given, " (--param)")
    templates = load_templates()
    card = templates.card_size(opts.card_size or DEFAULT_CARD)
    parts = [proto.name, *(f"{k}{_value(v)}" for k, v in sorted(given.items())), "kit", opts.paper]
    if opts.sets != 1:
        parts.append(f"{opts.sets}sets")
    if card.key != DEFAULT_CARD:
        parts.append(card.key)
    if opts.ink_saver:
        parts.append("ink-saver")
    name = safe_name("-".join(parts))
    printing = print_setup(opts, templates, name, card, opts.labels or default_labels(opts.paper))
    OutputFolder.check(printing.destination, opts.force)  # before anything slow runs
    names = protocols_to_verify(library, proto.name)
    for each in names[:-1]:  # what it calls, with their own parameters
        check_protocol(library.protocol(each), None, opts.force, "verify", None, library)
    check_protocol(proto, params, opts.force, "verify", None, library)
    example = proto.booklet
    example_params = {**example.example_params, **given} if given else (example.example_params or None)
    check_protocol(proto, example_params, opts.force, "simulate", example.example_scenario, library)

    step("verifying the protocols", 0)
    cache = VerificationCache() if opts.cache else None
    reports = verify_protocols(library, names[:-1], cache=cache, workers=opts.workers)
    top = report_for(library, proto, params if given else None, None, True, cache, opts.workers)
    if not top.ok:
        failing = top.failed()[0] if top.failed() else "?"
        raise VerificationFailed(
            f"the spec {proto.name} fails verification (check {failing}); no kit is written. "
            f"Run `kitgen verify {opts.ruleset}` for details."
        )
    reports.append(top)
    validation = [summary(r) for r in reversed(reports)]  # the protocol first, then its callees
    step("writing the booklet", 0)
    paper = printing.sheet_options.paper
    capacity = diagram_capacity((paper.size.w, paper.size.h), False)
    booklet = protocol_booklet(
        library, proto, validation, capacity, name, booklet_reveals(library, reports), example_params
    )
    booklet.ink_saver = opts.ink_saver
    booklet.deck = _game_faces(proto)
    card_mm = (card.size.width.mm, card.size.height.mm)
    bom = materials(proto, booklet, validation[0], opts.sets, card_mm)
    handout = Handout.of(proto, booklet, bom, opts.sets, claims(validation, None, quantities_of))
    options: JsonObject = {
        **recorded(opts),
        "card_size": card.key,
        "label_sheet": printing.label_sheet.key,
        "output": None,
    }
    facts: ProtocolFacts = {
        "name": proto.name,
        "title": proto.title,
        "source": proto.source,
        "params": {k: list(v) if isinstance(v, tuple) else v for k, v in params.items()},
        "sets": opts.sets,
    }
    head = KitHead(name, VERSION, options, protocol=facts)
    return KitContent(
        printing,
        head,
        bom,
        storage_labels(spec_text(proto.title), bom, opts.sets),
        booklet,
        validation,
        handout=("handout", lambda path: render_handout(path, handout, (paper.size.w, paper.size.h))),
    )


def _value(v: object) -> str:
    return "-".join(str(x) for x in v) if isinstance(v, tuple | list) else str(v)


def _game_faces(proto: Protocol) -> Callable[[str], Face | None] | None:
    """A game protocol's cards as its game's kit prints them (the scenario's game), else None."""
    games = [s.game for s in proto.scenarios.values() if s.game and is_game(s.game)]
    if not games:
        return None
    rules = load_game(games[0])
    kind = kit_kind(rules)
    return lambda name: kind.deck_face(rules, name)


def _card_words(face: Face, term: str) -> tuple[str, str]:
    """A printed card's name on the lists, and on its storage label."""
    if face.kind == "deck" or face.kind == "tile":
        return face_name(face), face_name(face)
    if face.kind == "plain":
        about = f" ({term})" if term and term != face.key.rstrip("0123456789") else ""
        return f"{face.title} card{about}", _("{glyph} cards").format(glyph=face.title)
    cards = _("{glyph} cards").format(glyph=face.title)
    if face.kind == "marker" and language() != SOURCE:  # "α marker (alpha)" is English words
        return cards, cards
    return face_name(face), cards


def materials(
    proto: Protocol, booklet: Booklet, report: ReportSummary, sets: int, card_mm: tuple[float, float]
) -> Bom:
    """The cards of the verified setting, with spares, for ``sets`` groups; the holders its worked
    example's shuffles need, for each group."""
    per_set = report["resources"].get("cards_by_symbol", {})
    groups = _(" for each of the {sets} groups").format(sets=sets) if sets > 1 else ""
    items: list[Item] = []
    words = Glossary(proto)
    for symbol, n in per_set.items():
        face = booklet.face(symbol)
        name, short = _card_words(face, words.term(symbol.rstrip("0123456789")))
        needed = n * sets
        # A game's own cards are dealt, not used up: no spares (markers get bent, lost, marked).
        extra = 0 if face.kind in ("deck", "tile") else spares(needed)
        items.append(
            Item(
                symbol,
                name,
                "card",
                needed,
                extra,
                _("{cards} on the table at once in the verified setting{groups}").format(
                    cards=plural(n, "card"), groups=groups
                ),
                [face] * (needed + extra),
                short,
            )
        )
    bom = Bom(items, [], list(booklet.owners), {})
    require(bom, booklet.sections[0].needs, card_mm, WORKED)
    for item in bom.items:
        if item.kind != "card" and sets > 1:
            item.needed *= sets
            item.spares = spares(item.needed)
            item.why += groups
    if sets > 1:
        bom.notes.append(
            _(
                "{holders} for {sets} groups: sort them into {sets} sets with the storage labels (one "
                "set per group)."
            ).format(holders=holder_words(bom), sets=sets)
        )
    return bom


def holder_words(bom: Bom) -> str:
    """What a group's set holds, from the materials: ``Cards``, ``Cards and envelopes``, ..."""
    kinds = {i.kind for i in bom.items}
    held = [_(HELD[word]) for word in ("envelope", "sleeve", "clip") if word in kinds]
    return listing([_("Cards"), *held])


# A group's holders, in words (holder_words).
HELD = {"envelope": N_("envelopes"), "sleeve": N_("sleeves"), "clip": N_("clips")}


def storage_labels(title: str, bom: Bom, sets: int) -> list[Label]:
    """A label per group's set (what it holds), then one per card type for the class's box."""
    per_set = [times(i.needed // sets, i.label, "") for i in bom.items if i.kind == "card"]
    holders = [
        plural(i.needed // sets, i.kind) for i in bom.items if i.kind in ("envelope", "sleeve", "clip")
    ]
    contents = _(", ").join(per_set + holders)
    if sets == 1:
        labels = [Label(title, contents, "", "storage")]
    else:
        labels = [
            Label(_("Set {k}").format(k=k), f"{title}: {contents}", "", "storage") for k in range(1, sets + 1)
        ]
    for item in bom.items:
        if item.kind == "card":
            labels.append(Label(item.label, plural(item.count, "card"), "", "storage"))
    return labels
