"""The step-through viewer: one self-contained HTML page that steps through a seeded run.

The page is made from the booklet's own data (:mod:`kitgen.booklet.book`): the same sections, step
sentences, diagrams (:class:`~kitgen.diagram.Diagram` as ``to_json`` gives them, exactly what
``booklet.json`` records and the booklet draws), the same "a correct table shows" facts at
each reveal, and the verification reports at the end. Nothing is loaded from the network: the
CSS and the script (``templates/viewer/``) are inlined, the data is a JSON block inside the
page, and the script writes every text with ``textContent`` (a spec's own text is never
parsed as HTML).

Frames: for each protocol (the one viewed first, then what it calls, each with its own worked
example), one frame per picture of each numbered step (a step whose cards are turned over and
put away has two pictures, as in the booklet), a frame for a step without a picture, and a
last frame with the outcome and the verdicts.
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from reference_engine.api import (
    KitgenError,
    Library,
    Params,
    Protocol,
    ReportSummary,
    Reveal,
    check_protocol,
    example_inputs,
    glyph,
    load_game,
    parse_params,
    reveals_from,
)

from ..booklet.diagram import Diagram
from ..booklet.examples import Example, scenario_words, spec_example
from ..booklet.glossary import Glossary
from ..booklet.parts import Section, booklet_style
from ..booklet.prose import plain_text
from ..booklet.steps import sections
from ..core.cache import VerificationCache
from ..core.claims import Quantities, claim
from ..core.output import OutputFolder
from ..core.templates import templates_dir
from ..core.verification import protocols_to_verify, report_for, summary
from ..core.words import listing
from ..lang.catalogue import N_, _, language
from ..lang.marked import fill_marked
from ..paper.cardimages import PictureSize, png_bytes, render
from ..paper.facenames import face_name, symbol_face
from ..paper.faces import Face

# A verification's method as the last frame names it.
METHODS = {"exact": N_("exact"), "statistical": N_("statistical")}
CAPACITY = 26  # columns drawn per region before the middle ones are elided (the booklet: ~12)


@dataclass
class ViewOptions:
    name: str  # a protocol name or a spec file
    seed: int | None = None
    inputs: tuple[str, ...] = ()
    params: tuple[str, ...] = ()
    deck: str | None = None
    output: str | None = None
    cache: bool = True
    force: bool = False


# --------------------------------------------------------------------------- data


# The cards are drawn at the booklet's proportions (56 x 87 mm), at a resolution that stays sharp
# at the largest size the page shows them (about 6rem wide) on a screen of twice the density.
PICTURE = PictureSize(56, 87, 0.0, dpi=100)


def _data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


# Pictures already drawn in this process, by (language, face or None for the back, ink saver): a
# kit's index and each of its viewer pages show mostly the same cards. A card is drawn on a page of
# its own, so its picture does not depend on the cards drawn with it; its words (a θ card's seat) do
# depend on the language.
_PICTURES: dict[tuple[str, Face | None, bool], str] = {}
_PICTURES_MAX = 4096


def card_pictures(faces: dict[str, Face], ink_saver: bool = False) -> tuple[dict[str, str], str]:
    """Each face (by symbol name) and the back as the printed designs draw them, as data URIs."""
    names, lang = sorted(faces), language()
    wanted: list[Face | None] = [faces[n] for n in names] + [None]
    missing = list(dict.fromkeys(card for card in wanted if (lang, card, ink_saver) not in _PICTURES))
    if len(_PICTURES) + len(missing) > _PICTURES_MAX:
        _PICTURES.clear()
        missing = list(dict.fromkeys(wanted))
    for card, image in zip(missing, render(missing, PICTURE, ink_saver)):
        _PICTURES[(lang, card, ink_saver)] = _data_uri(png_bytes(image, optimize=True))
    uris = [_PICTURES[(lang, card, ink_saver)] for card in wanted]
    return dict(zip(names, uris[:-1])), uris[-1]


def _face_json(face: Face, name: str, picture: str) -> dict[str, str]:
    """How the page shows a card: its short code, its name in the player's words, its picture."""
    return {"text": face.title or glyph(name), "name": face_name(face), "src": picture}


def _symbols(secs: list[Section]) -> set[str]:
    out: set[str] = set()
    for sec in secs:
        for block in sec.steps:
            for d in block.diagrams:
                for reg in d.regions:
                    out.update(c.symbol for row in reg.cells for c in row if c is not None and c.symbol)
                out.update(d.taken)
                out.update(d.returned)
    return out


class Frame(TypedDict, total=False):
    """One frame of the viewer: a step's picture (one of ``pictures``), or the last (``end``)."""

    section: int | None
    protocol: str | None
    step: str
    say: str
    brief: str
    notes: list[str]
    checks: list[str]
    if_wrong: str
    ran: bool
    loop: dict[str, str]
    picture: int
    pictures: int
    diagram: dict[str, object] | None


class PageSection(TypedDict):
    protocol: str
    title: str
    summary: str
    example: str
    outcome: list[str]
    legend: list[str]


class PageData(TypedDict):
    """Everything a viewer page shows (its script reads it as JSON)."""

    title: str
    subtitle: str
    sections: list[PageSection]
    frames: list[Frame]
    faces: dict[str, dict[str, str]]
    card_back: str
    verdicts: list[Verdict]
    back: str


class Written(TypedDict):
    """What ``kitgen view`` wrote."""

    file: str
    protocol: str
    frames: int
    steps: int
    verified: bool


def frames(secs: list[Section]) -> list[Frame]:
    """The frames of the viewer, in order (see the module docs)."""
    out: list[Frame] = []
    for i, sec in enumerate(secs):
        for block in sec.steps:
            base: Frame = {
                "section": i,
                "protocol": sec.protocol,
                "step": block.number,
                "say": plain_text(block.say),
                "brief": block.brief,
                "notes": block.notes,
                "checks": block.checks,
                "if_wrong": block.if_wrong,
                "ran": block.ran,
                "loop": {k: str(v) for k, v in block.loop.items()},
            }
            pictures: list[Diagram | None] = list(block.diagrams) or [None]
            for j, d in enumerate(pictures):
                frame = base.copy()
                frame["picture"] = j + 1
                frame["pictures"] = len(pictures)
                frame["diagram"] = d.to_json() if d is not None else None
                # The facts are for the picture just after the reveal (the first one).
                if j > 0:
                    frame["checks"] = []
                out.append(frame)
    out.append({"section": None, "protocol": None, "step": "end"})
    return out


class VerdictCheck(TypedDict):
    name: str
    ok: bool
    figure: str


class Verdict(TypedDict):
    """A verification report as the viewer's last frame lists it."""

    protocol: str
    title: str
    method: str
    verified: bool
    checks: list[VerdictCheck]
    scenario: None


def page_data(
    title: str,
    subtitle: str,
    secs: list[Section],
    verdicts: list[ReportSummary],
    faces: dict[str, Face],
    back: str = "kit index",
    ink_saver: bool = False,
) -> PageData:
    """Everything the page shows, as JSON-ready data."""
    pictures, back_picture = card_pictures(faces, ink_saver)
    return {
        "title": title,
        "subtitle": subtitle,
        "sections": [
            {
                "protocol": s.protocol,
                "title": s.title,
                "summary": s.summary,
                "example": s.example_text,
                "outcome": s.outcome,
                "legend": s.legend,
            }
            for s in secs
        ],
        "frames": frames(secs),
        "faces": {name: _face_json(faces[name], name, pictures[name]) for name in sorted(faces)},
        "card_back": back_picture,
        "verdicts": [_verdict(v) for v in verdicts],
        "back": back,
    }


def _verdict(report: ReportSummary) -> Verdict:
    """A verification report as the last frame lists it: what was checked, in words made from
    the report (kitgen.core.claims), never the spec's formulas; a failing report (a spec author's
    page: kits never print one) lists every check."""
    words = claim(report, None, _quantities(report["protocol"]))
    checks: list[VerdictCheck] = [
        {"name": _("what was checked"), "ok": True, "figure": words.split(": ", 1)[-1]}
    ]
    if not report["verified"]:
        checks = [{"name": c["name"], "ok": c["ok"], "figure": c["figure"]} for c in report["checks"]]
    return {
        "protocol": report["protocol"],
        "title": report["title"],
        "method": _(METHODS[report["method"]]) if report["method"] in METHODS else report["method"],
        "verified": report["verified"],
        "checks": checks,
        "scenario": None,
    }


def _quantities(protocol: str) -> Quantities | None:
    """A protocol's parameters in its glossary's words (None for a spec the library cannot find)."""
    try:
        return Glossary(Library().protocol(protocol)).quantities
    except KitgenError:
        return None


# --------------------------------------------------------------------------- HTML


def _asset(name: str) -> str:
    """A file of templates/viewer/, its words marked ``{{...}}`` in the active language."""
    text = (templates_dir() / "viewer" / name).read_text(encoding="utf-8")
    return fill_marked(text, js=name.endswith(".js"))


def _script_json(data: PageData) -> str:
    """JSON safe inside a <script> element (no ``</``, no ``<!--``)."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def html_page(data: PageData) -> str:
    """The whole page: inline CSS, inline data, inline script."""
    title = _("{title} — step by step").format(title=data["title"])
    return (
        f'<!DOCTYPE html>\n<html lang="{language()}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
        f"<title>{html.escape(title)}</title>\n"
        f"<style>\n{_asset('viewer.css')}</style>\n</head>\n<body>\n{_asset('viewer.html')}"
        f'<script type="application/json" id="data">{_script_json(data)}</script>\n'
        f"<script>\n{_asset('viewer.js')}</script>\n</body>\n</html>\n"
    )


# --------------------------------------------------------------------------- kitgen view


def _example(library: Library, proto: Protocol, opts: ViewOptions, given: Params | None) -> Example:
    """The spec's worked example, with what the user gave instead."""
    ex = spec_example(proto, library)
    params = dict(given) if given else ex.params
    inputs: dict[str, object] | list[str] = list(opts.inputs) if opts.inputs else ex.inputs
    if opts.inputs and not isinstance(ex.inputs, dict):
        # Inputs the user did not give keep the example's (``--input x=1`` with y from the spec).
        named = {i.split("=", 1)[0].strip() for i in opts.inputs}
        inputs = list(opts.inputs) + [
            i for i in example_inputs(library, proto) if i.split("=", 1)[0] not in named
        ]
    seed = ex.seed if opts.seed is None else opts.seed
    scenario = opts.deck if opts.deck is not None else ex.scenario
    words = Glossary(proto)
    recorded = ex.record["inputs"]  # the spec's example: its inputs by name
    shown: Mapping[str, object] = (
        dict(i.split("=", 1) for i in opts.inputs)
        if opts.inputs
        else dict(recorded)
        if isinstance(recorded, dict)
        else {}
    )
    parts = [words.quantity(str(k).strip(), str(v).strip()) for k, v in shown.items()]
    parts += [words.quantity(k, v) for k, v in params.items() if not scenario]
    given_words = [listing(parts)] if parts else []
    if scenario:
        given_words.append(scenario_words(proto, scenario))
    text = "Run: " + ("; ".join(given_words) or "the spec's own inputs")
    text += f". The shuffles fall as a seeded random draw made them (seed {seed})."
    record = {
        "params": {k: list(v) if isinstance(v, tuple) else v for k, v in params.items()},
        "inputs": list(opts.inputs) or ex.record["inputs"],
        "seed": seed,
        "scenario": scenario,
    }
    return Example(params, inputs, seed, record, text, scenario=scenario)


def protocol_page(opts: ViewOptions, library: Library | None = None) -> PageData:
    """The viewer's data for ``kitgen view``: the protocol and what it calls, verified."""
    library = library or Library()
    proto = library.protocol(opts.name)
    given = parse_params(opts.params) or None
    check_protocol(proto, given, opts.force, "simulate", opts.deck, library)
    example = _example(library, proto, opts, given)
    cache = VerificationCache() if opts.cache else None
    reports = []
    recorded = None
    for name in protocols_to_verify(library, proto.name)[::-1]:  # the viewed protocol first
        top = name == proto.name
        each = library.protocol(name)
        check_protocol(
            each, given if top else None, opts.force, "verify", opts.deck if top else None, library
        )
        report = report_for(library, each, given if top else None, opts.deck if top else None, top, cache)
        if top and report.reveals is not None:
            recorded = report.reveals
        reports.append(report)
    reveals: dict[tuple[str, str], Reveal] = reveals_from(library, recorded) if recorded else {}
    secs = sections(library, proto, example, CAPACITY, booklet_style(), reveals)
    deck = _scenario_deck(proto, example.scenario)
    faces = {n: symbol_face(n, glyph(n), (), deck) for n in sorted(_symbols(secs))}
    subtitle = proto.summary
    failed = [r.protocol for r in reports if not r.ok]
    if failed:
        subtitle += " NOT VERIFIED: " + ", ".join(failed) + " failed a check (see the last step)."
    return page_data(proto.title, subtitle, secs, [summary(r) for r in reports], faces, back="")


def _scenario_deck(proto: Protocol, scenario: str | None) -> Callable[[str], Face | None] | None:
    """The printed faces of the game a scenario deals from (the viewer draws its cards as the
    game's kit prints them); None without a scenario."""
    if not scenario or scenario not in proto.scenarios:
        return None
    from ..kinds import kit_kind  # the kit kinds import the booklet, which this module also uses

    rules = load_game(proto.scenarios[scenario].game)
    kind = kit_kind(rules)
    return lambda name: kind.deck_face(rules, name)


def write_view(opts: ViewOptions, library: Library | None = None) -> Written:
    """``kitgen view``: write ``index.html`` into the folder; what was written, as data.

    The folder is written like a kit's (:func:`kitgen.core.output.staged`): refused before any work
    when it cannot be made or holds files kitgen did not write (unless ``force``), replaced
    whole when it is done."""
    folder = Path(opts.output) if opts.output else Path("output") / "view" / _stem(opts.name)
    out = OutputFolder.check(folder, opts.force)
    data = protocol_page(opts, library)
    path = folder / "index.html"
    with out.staged(data["sections"][0]["protocol"], "view") as work:
        (work / "index.html").write_text(html_page(data), encoding="utf-8")
    steps = sum(1 for f in data["frames"] if f["section"] == 0 and f.get("picture") == 1)
    return {
        "file": str(path),
        "protocol": data["sections"][0]["protocol"],
        "frames": len(data["frames"]),
        "steps": steps,
        "verified": all(v["verified"] for v in data["verdicts"]),
    }


def _stem(name: str) -> str:
    stem = Path(name).stem if name.endswith((".yaml", ".yml")) else name
    return "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in stem) or "protocol"


def kit_pages(
    booklet_sections: list[Section],
    validation: list[ReportSummary],
    face_of: Callable[[str], Face],
    kit: str,
    ink_saver: bool = False,
) -> dict[tuple[str, str], str]:
    """A kit's viewer pages, one per protocol its booklet teaches: (protocol, relative path
    ``view/<protocol>.html``) -> HTML. The frames are the booklet's own steps and pictures."""
    out = {}
    for sec in booklet_sections:
        mine = [v for v in validation if v["protocol"] == sec.protocol]
        needed = {n: face_of(n) for n in sorted(_symbols([sec]))}
        data = page_data(
            f"{sec.title} ({kit})",
            sec.summary,
            [sec],
            mine,
            needed,
            back="../index.html",
            ink_saver=ink_saver,
        )
        out[(sec.protocol, f"view/{_stem(sec.protocol)}.html")] = html_page(data)
    return out


__all__ = [
    "CAPACITY",
    "ViewOptions",
    "frames",
    "html_page",
    "kit_pages",
    "page_data",
    "protocol_page",
    "write_view",
]
