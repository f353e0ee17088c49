"""What a booklet says: its sections, steps, diagrams, checks and validation, as data.

A booklet teaches one protocol (``kitgen booklet six-card-and``) or a whole game kit
(``kitgen booklet uno``, and the booklet inside every kit). Everything in it comes from
the engine:

* every protocol is verified first; a failing spec stops the booklet (nothing is written);
* each protocol is run once as a seeded **worked example** (the spec's ``booklet: example``,
  or for a game kit a real moment of a seeded game) and every numbered step gets the
  diagram of the table the trace recorded (:mod:`kitgen.diagram`);
* what a correct table can show at each reveal comes from enumerating every run exactly
  (:mod:`reference_engine.reveals`);
* the validation section is the verification reports themselves.

:class:`Booklet` is plain data; :func:`Booklet.to_json` is written next to the PDF as
``booklet.json`` so that tests (and curious readers) can compare each diagram with a fresh
simulation of the same example. :mod:`kitgen.typesetting` turns it into pages.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from reference_engine.api import (
    VERSION,
    Checker,
    Event,
    GameRules,
    JSONValue,
    Library,
    Params,
    Protocol,
    ReportSummary,
    Reveal,
    Simulation,
    Snapshot,
    SpecError,
    example_inputs,
    glyph,
    load_file,
    possible_reveals,
    simulate,
    symbol,
)

from .bom import Bom
from .consumables import Need, needs
from .diagram import Diagram, parse_slot, step_diagrams
from .faces import Face, symbol_face
from .frontmatter import FrontSection
from .glossary import Glossary
from .kitcost import Costs, Footprint
from .lang.catalogue import _, per_language
from .lang.overlay import spec_text
from .legend import CardLegend, card_legend, shown_cards
from .tableplan import TablePlan, spare_words, table_plan
from .tabletime import TableTime, spec_hints, table_time
from .templates import templates_dir
from .units import Length
from .verification import WholeDeckClaim
from .words import listing

# --------------------------------------------------------------------------- style


R = TypeVar("R", bound="GameRules")


@dataclass(frozen=True)
class BookletStyle:
    margin: float
    margin_a5: float
    card_width: float
    colours: dict[str, str]
    text: dict[str, tuple[float, float]]  # name -> (size, leading)
    words: dict[str, str]
    lists: dict[str, list[str]]  # words that are lists of paragraphs (numbered steps)


@per_language  # its words in the active language (kitgen.lang)
def booklet_style() -> BookletStyle:
    src = load_file(templates_dir() / "booklet.yaml")
    ck = Checker(src)
    keys = ("margin", "margin_a5", "diagram_card_width", "colours", "text", "words")
    doc = ck.mapping(src.data, (), required=keys) or {}
    lengths = {}
    for key in ("margin", "margin_a5", "diagram_card_width"):
        try:
            lengths[key] = Length.parse(str(doc.get(key))).points
        except Exception as exc:  # a LengthError names the text; add where it is
            ck.error((key,), str(exc))
    text = {}
    for k, v in ck.table(doc.get("text", {}), ("text",)).items():
        spec = ck.mapping(v, ("text", k), required=("size", "leading")) or {}
        text[str(k)] = (float(spec.get("size", 9)), float(spec.get("leading", 12)))
    words: dict[str, str] = {}
    lists: dict[str, list[str]] = {}
    for k, v in ck.table(doc.get("words", {}), ("words",)).items():
        if isinstance(v, list):
            lists[str(k)] = [_(str(x)) for x in v]
        else:
            words[str(k)] = _(str(v))
    colours = {str(k): str(v) for k, v in ck.table(doc.get("colours", {}), ("colours",)).items()}
    for need in ("if_wrong", "diagrams", "shuffle_duty", "setup_intro", "virtual_play_drawn"):
        if need not in words:
            ck.error(("words",), f"missing '{need}'")
    for need in ("setup_steps", "virtual_steps", "bundle_steps", "round_steps"):
        if need not in lists:
            ck.error(("words",), f"missing '{need}' (a list of paragraphs)")
    if ck.problems:
        raise SpecError(ck.problems)
    return BookletStyle(
        lengths["margin"], lengths["margin_a5"], lengths["diagram_card_width"], colours, text, words, lists
    )


# --------------------------------------------------------------------------- model


@dataclass
class StepBlock:
    protocol: str
    number: str
    say: str  # the spec's sentence, as written
    brief: str
    diagrams: list[Diagram]
    notes: list[str] = field(default_factory=list)
    loop: dict[str, JSONValue] = field(default_factory=dict)
    checks: list[str] = field(default_factory=list)  # what a correct table shows (reveal steps)
    if_wrong: str = ""
    ran: bool = True  # False: the worked example did not need this step
    paper: str = ""  # the paper's own wording (the validation pages print it)
    loop_text: str = ""  # which pass of a loop the picture shows, in words

    @property
    def depth(self) -> int:
        return 1 if "(" in self.number else 0

    def to_json(self) -> dict[str, object]:
        return {
            "protocol": self.protocol,
            "number": self.number,
            "say": self.say,
            "brief": self.brief,
            "loop": self.loop,
            "notes": self.notes,
            "checks": self.checks,
            "if_wrong": self.if_wrong,
            "ran": self.ran,
            "paper": self.paper,
            "diagrams": [d.to_json() for d in self.diagrams],
        }


@dataclass
class Section:
    protocol: str
    title: str
    summary: str
    overview: str
    cite: str
    example: dict[str, object]  # enough to simulate the worked example again
    example_text: str
    outcome: list[str]
    steps: list[StepBlock]
    legend: list[str]  # how values are written with cards
    calls: list[str]
    time: TableTime | None = None  # the worked example's run at a real table (an estimate)
    table: str = ""  # how the table does it physically (the spec's ``table:``), e.g. with sleeves
    # The envelopes, sleeves and clips the worked example's shuffles use at once (every depth).
    needs: dict[str, Need] = field(default_factory=dict)
    notation: dict[str, str] = field(default_factory=dict)  # the paper's symbols, for the curious

    def to_json(self) -> dict[str, object]:
        return {
            "protocol": self.protocol,
            "title": self.title,
            "example": self.example,
            "outcome": self.outcome,
            "steps": [s.to_json() for s in self.steps],
            "table_time": self.time.to_json() if self.time is not None else None,
        }


@dataclass
class Booklet:
    name: str
    title: str
    subtitle: str
    kind: str  # what booklet.json calls it: "protocol", or the kit kind's word ("game", ...)
    sections: list[Section]
    validation: list[ReportSummary]
    statistical: ReportSummary | None = None
    rules: GameRules | None = None  # the game's rule set (any kind), for the kind's first chapters
    bom: Bom | None = None
    owners: list[str] = field(default_factory=list)
    players: int = 0
    virtual: int = 0
    faces: dict[str, Face] = field(default_factory=dict)  # symbol name -> printed face
    example: dict[str, object] = field(default_factory=dict)  # the game moment of the worked example
    # The game's own printed cards by name (None: not one of them), and the chapters before the
    # protocols, as the kit kind says them (None: a protocol booklet's "What you need").
    deck: Callable[[str], Face | None] | None = field(default=None, repr=False)
    front: list[FrontSection] | None = field(default=None, repr=False)
    # The game's places on the table besides its piles, for the picture of the whole table.
    table_middle: tuple[str, ...] = ()
    # A game kit: what its game costs at the table (:meth:`kitgen.kinds.KitKind.figures`).
    cost: Costs | None = None
    # The table space of the largest turn when the kit states no time figures (``cost`` None):
    # the whole-table picture still shows it, with its unit (sleeves or columns).
    footprint: Footprint | None = None
    unit: str = "columns"
    ink_saver: bool = False  # the kit's cards are drawn for a home printer (light backs)
    # A game kit built with --exact-hands: its claim on the whole deck (kitgen.verification's
    # whole_deck_claim), on the cover and the validation pages.
    whole_deck: WholeDeckClaim | None = None
    # Built without --exact-hands, though its protocol could take it: the pages say where it is.
    whole_deck_offered: bool = False

    @property
    def game_rules(self) -> GameRules:
        """The game's rule set (a game booklet's chapters; a protocol booklet has none)."""
        if self.rules is None:
            raise TypeError(f"booklet {self.name} is not a game's")
        return self.rules

    def rules_as(self, kind: type[R]) -> R:
        """The game's rule set, as the kind its kit kind reads (a game booklet's chapters)."""
        if not isinstance(self.rules, kind):
            raise TypeError(f"booklet {self.name}: its rules are not {kind.__name__}")
        return self.rules

    def example_sizes(self) -> list[int]:
        """The worked example's hand sizes (``sizes``, the virtual player's first)."""
        params = self.example.get("params")
        sizes = params.get("sizes") if isinstance(params, dict) else None
        return [n for n in sizes if isinstance(n, int)] if isinstance(sizes, (list, tuple)) else []

    def example_weights(self) -> dict[str, int]:
        """The worked example's public weights of a weighted virtual player (empty: none)."""
        weights = self.example.get("weights")
        if not isinstance(weights, dict):
            return {}
        return {str(k): v for k, v in weights.items() if isinstance(v, int)}

    def table_plan(self) -> TablePlan | None:
        """The table plan of a game booklet: its seats and owners,
        the kind's places in the middle (``table_middle``), the worked example's hands, the bill of
        materials' spares and envelopes, the kit's table space. None without virtual players or
        figures."""
        space = self.table_space()
        if space is None or self.bom is None or not (self.virtual or self.footprint):
            return None
        items = self.bom.items
        owner_cards: list[Face] = next((i.faces for i in items if i.key == "seat"), [])
        spares = [
            (spare_words(i.faces[0], i.label), i.faces[0])
            for i in items
            if i.kind == "card" and i.key not in ("deck", "seat") and i.faces
        ]
        sizes = self.example_sizes()
        piles = {p.lower() for p in self.owners[self.players :]}
        return table_plan(
            space[0],
            self.owners[: self.players],
            self.virtual,
            self.owners[self.players :],
            [m for m in self.table_middle if m.lower() not in piles],
            sizes[: self.virtual],
            spares,
            sum(i.count for i in items if i.kind == "envelope"),
            owner_cards,
            space[1],
        )

    def table_space(self) -> tuple[Footprint, str] | None:
        """The largest turn's table space and its unit: the kit's figures', else its own."""
        if self.cost is not None and self.cost.footprint is not None:
            return self.cost.footprint, self.cost.unit
        return None if self.footprint is None else (self.footprint, self.unit)

    def face(self, name: str) -> Face:
        f = self.faces.get(name)
        if f is None:
            sym = symbol(name)
            f = symbol_face(name, sym.glyph if sym else name, self.owners, self.deck)
            self.faces[name] = f
        return f

    def card_codes(self) -> CardLegend | None:
        """The legend of the card codes a game booklet's pictures and worked example print
        (:mod:`kitgen.legend`); None for a protocol booklet (its cards are the protocol's own)."""
        if self.front is None:
            return None
        inputs = self.example.get("inputs")
        cards = inputs.get("cards", []) if isinstance(inputs, dict) else []
        pictures = (d for sec in self.sections for step in sec.steps for d in step.diagrams)
        shown = [str(c) for c in cards] + shown_cards(pictures)  # the worked example's hand first
        words = {k[len("legend_") :]: v for k, v in booklet_style().words.items() if k.startswith("legend_")}
        return card_legend(self.rules, shown, self.face, self.owners, words)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "booklet": self.name,
            "title": self.title,
            "kind": self.kind,
            "engine": VERSION,
            "game_example": self.example,
            "sections": [s.to_json() for s in self.sections],
            "validation": self.validation,
            "statistical": self.statistical,
            "table_time": self.cost.to_json() if self.cost is not None else None,
        }
        if self.whole_deck is not None:
            out["whole_deck"] = self.whole_deck
        if self.front is not None:
            out["front"] = [chapter.to_json() for chapter in self.front]
        codes = self.card_codes()
        if codes is not None:
            out["card_codes"] = codes.to_json()
        plan = self.table_plan()
        if plan is not None:
            out["table_plan"] = plan.to_json()
        return out


# --------------------------------------------------------------------------- examples


@dataclass
class Example:
    """A worked example: how to run the protocol once, and how to say what it is."""

    params: Params
    inputs: dict[str, object] | list[str]
    seed: int
    record: dict[str, object]
    text: str
    scenario: str | None = None
    context: dict[str, Callable[..., object]] | None = None  # game functions (``valid``)

    def run(self, library: Library, proto: Protocol) -> Simulation:
        return simulate(
            library, proto, self.params, self.inputs, self.seed, scenario=self.scenario, context=self.context
        )


def spec_example(proto: Protocol, library: Library | None = None, params: Params | None = None) -> Example:
    """The spec's ``booklet: example`` (with ``params`` instead of its own, when given); an
    input it does not give takes a middle value."""
    bt = proto.booklet
    use = dict(params) if params else dict(bt.example_params)
    if library is not None:
        inputs = example_inputs(library, proto, dict(params) if params else None)
    else:
        inputs = [f"{k}={v}" for k, v in bt.example_inputs.items()]
    given = dict(i.split("=", 1) for i in inputs)
    record: dict[str, object] = {
        "params": {k: list(v) if isinstance(v, tuple) else v for k, v in use.items()},
        "inputs": given,
        "seed": bt.example_seed,
        "scenario": bt.example_scenario,
    }
    words = Glossary(proto)
    parts = [words.quantity(k, v) for k, v in given.items()]
    parts += [words.quantity(k, v) for k, v in use.items() if not bt.example_scenario]
    given_words = [listing(parts)] if parts else []
    if bt.example_scenario:
        given_words.append(scenario_words(proto, bt.example_scenario))
    text = _("Worked example: ") + ("; ".join(given_words) or _("the spec's own inputs"))
    text += _(". The shuffles fall as a seeded random draw made them (seed {seed}).").format(
        seed=bt.example_seed
    )
    return Example(use, inputs, bt.example_seed, record, text, scenario=bt.example_scenario)


def scenario_words(proto: Protocol, name: str) -> str:
    """A scenario as a player reads it: ``a test deal of UNO (R1 G2 B7 Y5 W), dealt at random``."""
    sc = proto.scenarios[name]
    cards = " ".join(glyph(c) for c in sc.deal)
    return f"a {len(sc.deal)}-card test deal of {sc.game} ({cards}), dealt at random"


# --------------------------------------------------------------------------- building

SUBSCRIPT = re.compile(r"_(\{[^}]*\}|\([^)]*\)|\[[^\]]*\]|[A-Za-z0-9]+)")


def plain_text(text: str) -> str:
    """The sentence as printed, without markup: ``P_1`` -> ``P1``, ``x_{i}`` -> ``xi``."""
    return " ".join(SUBSCRIPT.sub(lambda m: m.group(1).strip("{}"), text).split())


def first_sentence(text: str) -> str:
    m = re.match(r"(.+?[.!?])(\s|$)", " ".join(text.split()))
    return m.group(1) if m else text


def _glyphs(names: list[str]) -> str:
    return " ".join(glyph(n) for n in names)


def _count_text(names: list[str]) -> str:
    counts = Counter(names)
    return ", ".join(f"{n} × {_glyphs([k])}" for k, n in sorted(counts.items(), key=lambda kv: kv[0]))


def handling_sentences(words: Glossary, handling: dict[str, str], called: bool) -> list[str]:
    """What the table does with the cards of an output at the end, where it matters: cards shown
    where they lie keep their order (everyone sees it); cards shown mixed are mixed face down
    first; a hand that a called protocol gives back is mixed by its holder before it is laid out
    (nobody knows the order of a hand). The verifier checks exactly these (see docs/verification.md)."""
    out = []
    for name, how in handling.items():
        what = words.output_name(name).rstrip(".")
        if how == "in-order":
            out.append(f"At the end, show {what}: turn these cards over where they lie, keeping their order.")
        elif how == "mixed":
            out.append(f"At the end, show {what}: mix these cards face down first, then turn them over.")
        elif called:
            out.append(
                f"Before these cards are laid out ({what}), their holder mixes them face down: "
                "nobody knows the order of a hand."
            )
    return out


@dataclass
class Run:
    """What one protocol's section shows of the worked example: its own events (the top
    protocol's run, or one call of a called protocol inside it), and what it said and gave."""

    record: dict[str, object]
    text: str
    events: list[Event]  # every event of the run, nested calls included
    depth: int  # the call depth of the protocol's own steps
    outcome: list[str]
    # How the table handles each card output at the end (machine.outputs.handling).
    handling: dict[str, str] = field(default_factory=dict)


def _events_by_step(events: list[Event], depth: int = 0) -> dict[str, list[Event]]:
    """The events of each step number at ``depth``; for a step inside a loop, its first pass only."""
    out: dict[str, list[Event]] = {}
    first_loop: dict[str, dict[str, JSONValue]] = {}
    for e in events:
        if e.depth != depth or e.step is None:
            continue
        if e.step not in first_loop:
            first_loop[e.step] = dict(e.loop)
        if e.loop == first_loop[e.step]:
            out.setdefault(e.step, []).append(e)
    return out


def repeated(items: list[str]) -> list[str]:
    """Each distinct item once, in order, saying how often it came when more than once
    (``["8 → 14", "8 → 14", "3 → 8"]`` -> ``["8 → 14, twice", "3 → 8"]``)."""
    counts = Counter(items)
    again = {2: "twice", 3: "three times"}
    return [i if counts[i] == 1 else f"{i}, {again.get(counts[i], f'{counts[i]} times')}" for i in counts]


def _notes(library: Library, events: list[Event], depth: int, pictured: bool = True) -> list[str]:
    notes = []
    calls: dict[str, list[dict[str, object]]] = {}
    for e in events:
        if e.action == "call" and e.depth == depth:
            calls.setdefault(e.detail["protocol"], []).append(dict(e.detail.get("params", {})))
    for name, uses in calls.items():
        callee = library.protocol(name)
        words = Glossary(callee)
        times = "" if len(uses) == 1 else f" {len(uses)} times"
        given = repeated([words.quantities(u) for u in uses if u])
        notes.append(
            f"This step runs the {callee.title}{times}" + (f" ({'; '.join(given)})" if given else "") + "."
        )
    for e in events:
        d = e.detail
        if e.depth != depth:
            continue
        if e.action == "shuffle":
            how = d.get("how") or ""
            notes.append(f"{how} ({_arrangements(int(d['size']))})".strip())
        elif e.action == "turn" and len(d.get("revealed", [])) > 16:
            shows = "; the picture shows some of them" if pictured else ""  # no picture: none to point to
            notes.append(f"{len(d['revealed'])} cards are turned over{shows}.")
        elif e.action == "return" and d.get("values") and e is events[-1]:
            callee = library.protocol(str(d.get("protocol") or e.protocol))
            words = Glossary(callee)
            said = [words.output(k, v) for k, v in d["values"].items()]
            notes.append("In the worked example it reports: " + " ".join(said))
    return notes


def _arrangements(n: int) -> str:
    if n <= 10**6:
        return f"Each of the {n} possible arrangements is equally likely."
    digits, power = str(n), str(len(str(n)) - 1).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"Each of the about {digits[0]}.{digits[1]} × 10{power} arrangements is equally likely."


def _boring(diagrams: list[Diagram], events: list[Event]) -> bool:
    """Pictures that show nothing new (a loop header, a decision)."""
    if any(e.action not in ("note", "for", "if", "let") for e in events):
        return False
    return not any(
        cell is not None and cell.changed
        for d in diagrams
        for r in d.regions
        for row in r.cells
        for cell in row
    )


def _unseen(diagrams: list[Diagram], events: list[Event]) -> bool:
    """A step whose cards turn only inside their sleeves: nothing changes that the table sees."""
    if not events or any(e.action not in ("turn", "note") for e in events):
        return False
    return not any(
        cell is not None and cell.changed
        for d in diagrams
        for r in d.regions
        for row in r.cells
        for cell in row
    )


def section_for(
    library: Library,
    proto: Protocol,
    run: Run,
    reveals: dict[tuple[str, str], Reveal],
    if_wrong: str,
    capacity: int,
    words: Glossary,
    people: int = 1,
    called: bool = False,
) -> Section:
    """One protocol's section: every numbered step with the pictures of ``run``."""
    by_step = _events_by_step(run.events, run.depth)
    blocks = []
    for step in proto.numbered_steps():
        assert step.number is not None
        events = by_step.get(step.number, [])
        diagrams = step_diagrams(events, capacity)
        if _boring(diagrams, events) and step is not proto.numbered_steps()[0]:
            diagrams = []  # the first step always shows the table the protocol starts from
        if step.table.get("all") == "kept":
            diagrams = []  # nothing changes at the table (the cards are already there, in sleeves)
        if _unseen(diagrams, events):
            diagrams = []  # cards turned inside their sleeves: the table sees no change
        diagrams = [d for d in diagrams if d.regions]
        for d in diagrams:  # the places in a player's words (the spec's booklet: names)
            for reg in d.regions:
                reg.title = words.place(reg.name)
                for lab in reg.labels:  # a place's name that stuck to its cards (x under x's pair)
                    lab["text"] = words.place(str(lab["text"]))
        say = spec_text(step.say.text) if step.say else ""
        block = StepBlock(
            proto.name,
            step.number,
            say,
            spec_text(step.brief) or first_sentence(plain_text(say)),
            diagrams,
            _notes(library, events, run.depth, bool(diagrams)),
            dict(events[0].loop) if events else {},
            ran=bool(events),
            paper=spec_text(step.paper or ""),
            loop_text=words.loop(events[0].loop) if events and events[0].loop else "",
        )
        reveal = reveals.get((proto.name, step.number))
        if reveal is not None:
            block.checks = [f.text for f in reveal.facts]
            turned = [n for e in events if e.action == "turn" for n in e.detail.get("revealed", [])]
            if any(f.kind == "same_cards" for f in reveal.facts) and 0 < len(set(turned)) <= 8:
                block.checks.append(f"In this example: {_count_text(turned)}.")
            block.if_wrong = if_wrong
        blocks.append(block)
    if blocks:
        blocks[-1].notes.extend(handling_sentences(words, run.handling, called))
    return Section(
        proto.name,
        spec_text(proto.title),
        spec_text(proto.summary),
        spec_text(proto.booklet.overview),
        proto.source.get("cite", ""),
        run.record,
        run.text,
        run.outcome,
        blocks,
        words.legend(),
        [c.protocol for c in proto.calls()],
        table_time(run.events, people, spec_hints(library.protocol)),
        proto.table,
        needs(run.events),
        notation=dict(proto.booklet.notation),
    )


def reading_order(library: Library, top: str) -> list[str]:
    """The protocol, then what it calls, depth first, each once."""
    seen: list[str] = []

    def visit(name: str) -> None:
        if name in seen:
            return
        seen.append(name)
        for call in library.protocol(name).calls():
            visit(call.protocol)

    visit(top)
    return seen


def top_run(library: Library, proto: Protocol, example: Example, words: Glossary) -> tuple[Run, Simulation]:
    """The worked example's run of the protocol a booklet teaches."""
    sim = example.run(library, proto)
    outcome = [words.output(k, v) for k, v in sim.trace.outputs.items()]
    return Run(example.record, example.text, list(sim.trace.events), 0, outcome, sim.handling), sim


def called_run(
    library: Library, sim: Simulation, proto: Protocol, caller_titles: dict[str, str]
) -> Run | None:
    """The first call of ``proto`` inside the worked example's run, as that protocol's own run:
    the same cards throughout the booklet. None if the example never calls it."""
    events = list(sim.trace.events)
    at = next(
        (i for i, e in enumerate(events) if e.action == "call" and e.detail.get("protocol") == proto.name),
        None,
    )
    if at is None:
        return None
    call = events[at]
    end = next(
        (
            j
            for j in range(at + 1, len(events))
            if events[j].depth == call.depth
            and events[j].action == "return"
            and events[j].detail.get("protocol") == proto.name
        ),
        None,
    )
    if end is None:
        return None
    words = Glossary(proto)
    inputs = {k: _read(proto, k, call.before, slots) for k, slots in call.detail.get("args", {}).items()}
    params = dict(call.detail.get("params", {}))
    where = f"at Step {call.step} of “{caller_titles.get(call.protocol, call.protocol)}”"
    if call.loop:
        where += f" ({Glossary(library.protocol(call.protocol)).loop(call.loop)})"
    given = [words.quantity(k, v) for k, v in params.items()] + [
        words.quantity(k, v) for k, v in inputs.items()
    ]
    text = f"Worked example, continued: the same run comes here {where}, with " + "; ".join(given) + "."
    ret = events[end]
    outcome = [words.output(k, v) for k, v in ret.detail.get("values", {}).items()]
    for out_name, region in ret.detail.get("results", {}).items():
        if out_name in proto.outputs and out_name not in ret.detail.get("values", {}):
            value = _read_region(proto, out_name, ret.after, str(region))
            if value is not None:
                outcome.append(words.output(out_name, value))
    record = {
        "within": sim.trace.protocol,
        "call_event": call.index,
        "params": {k: list(v) if isinstance(v, tuple) else v for k, v in params.items()},
        "inputs": {k: v if isinstance(v, int) else [str(x) for x in v] for k, v in inputs.items()},
    }
    return Run(record, text, events[at + 1 : end], call.depth + 1, outcome)


def _cell(snapshot: Snapshot, slot: str) -> str | None:
    where = parse_slot(slot)
    if where is None:
        return None
    name, r, c = where
    for reg in snapshot.regions:
        if reg["name"] == name and r <= reg["rows"] and c <= reg["cols"]:
            cell = reg["cells"][r - 1][c - 1]
            return str(cell["symbol"]) if cell else None
    return None


# Cards read back: an encoding's value (or values), else the cards' printed names.
Decoded = int | str | list[int | str] | list[str]


def _decode(proto: Protocol, encoding: str | None, names: list[str]) -> Decoded:
    """Cards read back as the encoding's values (a bit pair -> 0 or 1), else their printed names."""
    enc = proto.encodings.get(encoding or "")
    if enc is not None and enc.kind == "values" and enc.table:
        width = len(next(iter(enc.table.values())))
        back = {tuple(v): k for k, v in enc.table.items()}
        chunks = [tuple(names[i : i + width]) for i in range(0, len(names), width)]
        if chunks and all(ch in back for ch in chunks):
            values = [back[ch] for ch in chunks]
            return values[0] if len(values) == 1 else values
    return [glyph(n) for n in names]


def _read(proto: Protocol, name: str, snapshot: Snapshot, slots: list[str]) -> Decoded:
    names = [n for n in (_cell(snapshot, s) for s in slots) if n is not None]
    decl = proto.inputs.get(name)
    return _decode(proto, decl.encoding if decl else None, names)


def _read_region(proto: Protocol, output: str, snapshot: Snapshot, region: str) -> Decoded | None:
    for reg in snapshot.regions:
        if reg["name"] == region:
            names = [str(c["symbol"]) for row in reg["cells"] for c in row if c]
            return _decode(proto, proto.outputs[output].decode, names) if names else None
    return None


def sections(
    library: Library,
    top: Protocol,
    top_example: Example,
    capacity: int,
    style: BookletStyle,
    reveals: dict[tuple[str, str], Reveal] | None = None,
    owners: Sequence[str] = (),
    people: int = 1,
) -> list[Section]:
    """Every protocol's section, all from one worked example: the protocol's run, and each
    protocol it calls at its first call in that run (a protocol the run never calls gets its
    spec's own example). ``reveals`` are computed (an exact run) unless given. The worked
    examples' table times are for ``people`` sharing the work."""
    if reveals is None:
        reveals = possible_reveals(library, top)
    if_wrong = spec_text(top.booklet.if_wrong) or style.words["if_wrong"]
    top_words = Glossary(top, owners)
    first, sim = top_run(library, top, top_example, top_words)
    titles = {n: spec_text(library.protocol(n).title) for n in reading_order(library, top.name)}
    out = []
    for name in reading_order(library, top.name):
        proto = library.protocol(name)
        # On a called protocol's pages, "Step 8" of the recovery text means the top protocol's.
        here = if_wrong if name == top.name else name_steps(if_wrong, top.title)
        words = top_words if name == top.name else Glossary(proto)
        run = first if name == top.name else called_run(library, sim, proto, titles)
        if run is None:
            ex = spec_example(proto, library)
            run, _ = top_run(library, proto, ex, words)
        elif name != top.name:  # how the table handles its outputs (the same at every call)
            run.handling = spec_example(proto, library).run(library, proto).handling
        out.append(section_for(library, proto, run, reveals, here, capacity, words, people, name != top.name))
    return out


def name_steps(text: str, title: str) -> str:
    """``... as in Step 8 ...`` -> ``... as in Step 8 of the Card selection protocol ...``."""
    return re.sub(r"\b(Steps? \d+[a-z()]*(?:\s*(?:,|and|to)\s*\d+[a-z()]*)*)", rf"\1 of the {title}", text)


def protocol_booklet(
    library: Library,
    proto: Protocol,
    validation: list[ReportSummary],
    capacity: int,
    name: str,
    reveals: dict[tuple[str, str], Reveal] | None = None,
    params: Params | None = None,
) -> Booklet:
    """A booklet teaching one protocol and what it calls (a teacher's six-card AND booklet)."""
    style = booklet_style()
    secs = sections(library, proto, spec_example(proto, library, params), capacity, style, reveals)
    title, subtitle = spec_text(proto.title), spec_text(proto.summary)
    if len(secs) > 1:
        subtitle += " With the protocols it uses: " + ", ".join(s.title for s in secs[1:]) + "."
    return Booklet(name, title, subtitle, "protocol", secs, validation, owners=list(proto.booklet.owners))
