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

from reference_engine.errors import KitgenError, UsageError
from reference_engine.registry import Library
from reference_engine.rules import RuleSet, hand_dependence_message, load_rules
from reference_engine.verify import VERSION, Report, verify

from .bom import Bom, game_bom
from .labels import Label, render_labels, theta_label
from .output import inside, safe_name, sha256, staged
from .previews import render_previews
from .sheets import DUPLEX, SheetOptions, render_cards
from .templates import load_templates
from .units import Length, LengthError

Progress = Callable[[str, int], None]

DEFAULT_LABELS = {"a4": "L7160", "letter": "5160", "a3": "cutout-a4", "tabloid": "cutout-letter"}


class VerificationFailed(KitgenError):
    """A protocol the kit teaches fails verification: nothing is written."""

    exit_code = 1
    stage = "build"


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
    extra: dict[str, Any] = field(default_factory=dict)


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


def protocols_to_verify(library: Library, name: str) -> list[str]:
    """The protocol a virtual player runs and everything it calls, callees first."""
    seen: list[str] = []

    def visit(n: str) -> None:
        proto = library.protocol(n)
        for call in proto.calls():
            if call.protocol not in seen:
                visit(call.protocol)
        if n not in seen:
            seen.append(n)

    visit(name)
    return seen


def verification_summary(report: Report) -> dict[str, Any]:
    data = report.to_json()
    return {
        k: data[k]
        for k in (
            "protocol",
            "title",
            "params",
            "method",
            "inputs",
            "verified",
            "correct",
            "secure",
            "failed",
            "checks",
            "resources",
            "expect",
            "notes",
            "scenario",
            "source",
            "engine",
        )
    }


def verify_protocols(library: Library, names: list[str]) -> list[Report]:
    reports = []
    for name in names:
        proto = library.protocol(name)
        report = verify(library, proto)
        if not report.ok:
            failing = report.check(report.failed()[0])
            raise VerificationFailed(
                f"the spec {name} fails verification ({', '.join(report.failed())}: "
                f"{failing.figure if failing else ''}); no kit is written. "
                f"Run `kitgen verify {name}` for details."
            )
        reports.append(report)
    return reports


def build(
    opts: KitOptions, library: Library | None = None, progress: Progress | None = None
) -> dict[str, Any]:
    """Build the kit described by ``opts`` and return its manifest."""
    library = library or Library()
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
    reports = verify_protocols(library, protocols_to_verify(library, protocol)) if opts.virtual else []
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
    with staged(destination) as work:
        step("drawing card sheets", 0)
        cards_info = render_cards(
            inside(work, "cards.pdf"), faces, sheet_opts, progress=lambda n: step("drawing card sheets", n)
        )
        labels_info = render_labels(
            inside(work, "labels.pdf"), labels, sheet, label_paper, name, opts.label_start
        )
        files = ["cards.pdf", "labels.pdf"]
        if opts.previews:
            step("rendering previews", 0)
            for pdf in ("cards", "labels"):
                for png in render_previews(inside(work, f"{pdf}.pdf"), inside(work, "previews"), pdf):
                    files.append(str(png.relative_to(work)))
        manifest = {
            "kit": name,
            "kitgen": VERSION,
            "options": {
                **asdict(opts),
                "players": players,
                "card_size": card.key,
                "label_sheet": sheet.key,
                "output": None,
            },
            "game": {"name": rules.name, "title": rules.title, "source": rules.source},
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
            "bom": bom.to_json(),
            "sheets": {"cards": cards_info.to_json(), "labels": labels_info.to_json()},
            "verification": [verification_summary(r) for r in reports],
            "files": [
                {"path": f, "sha256": sha256(inside(work, f)), "bytes": inside(work, f).stat().st_size}
                for f in sorted(files)
            ],
        }
        inside(work, "manifest.json").write_text(
            json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    manifest["folder"] = str(destination)
    return manifest


def _check_destination(destination: Path) -> None:
    """Only replace a folder that is a kit (or empty): never someone's home directory."""
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
