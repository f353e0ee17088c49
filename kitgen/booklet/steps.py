"""A booklet's sections from a seeded run: the steps, what they show, their notes, and
the runs of called protocols.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from reference_engine.api import (
    Event,
    JSONValue,
    Library,
    Protocol,
    Reveal,
    Simulation,
    Snapshot,
    glyph,
    possible_reveals,
    walk_steps,
)

from ..cost.consumables import needs
from ..cost.tabletime import table_time
from ..cost.tablework import spec_hints
from ..lang.catalogue import _, aside, ngettext
from ..lang.overlay import spec_text
from .checks import check_text
from .diagram import Diagram, parse_slot, step_diagrams
from .examples import Example, spec_example
from .glossary import Glossary
from .parts import BookletStyle, Section, StepBlock
from .prose import first_sentence, handling_sentences, plain_text, tally_text


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
    return [
        i if counts[i] == 1 else _("{item}, {times}").format(item=i, times=_times(counts[i])) for i in counts
    ]


def _times(n: int) -> str:
    """``twice``, ``three times``, ``4 times``."""
    if n == 2:
        return _("twice")
    if n == 3:
        return _("three times")
    return ngettext("{n} time", "{n} times", n).format(n=n)


def _notes(library: Library, events: list[Event], depth: int, pictured: bool = True) -> list[str]:
    notes = []
    calls: dict[str, list[dict[str, object]]] = {}
    for e in events:
        if e.action == "call" and e.depth == depth:
            calls.setdefault(e.detail["protocol"], []).append(dict(e.detail.get("params", {})))
    for name, uses in calls.items():
        callee = library.protocol(name)
        words = Glossary(callee)
        given = repeated([words.quantities(u) for u in uses if u])
        runs = (
            _("This step runs the {title}")
            if len(uses) == 1
            else ngettext(
                "This step runs the {title} {n} time", "This step runs the {title} {n} times", len(uses)
            )
        ).format(title=spec_text(callee.title), n=len(uses))
        notes.append(runs + (_(" ({given})").format(given="; ".join(given)) if given else "") + _("."))
    for e in events:
        d = e.detail
        if e.depth != depth:
            continue
        if e.action == "shuffle":
            how = spec_text(str(d.get("how") or ""))  # the spec's shuffle words, through its overlay
            notes.append(shuffle_note(how, d))
        elif e.action == "turn" and len(d.get("revealed", [])) > 16:
            n = len(d["revealed"])
            notes.append(  # no picture: none to point to
                # "shows its face", not "is turned over": a step may show a card by sliding it half
                # out of its sleeve (the arrow kit's step 9), which its sentence says.
                ngettext(
                    "{n} card shows its face; the picture shows some of them.",
                    "{n} cards show their faces; the picture shows some of them.",
                    n,
                ).format(n=n)
                if pictured
                else ngettext("{n} card shows its face.", "{n} cards show their faces.", n).format(n=n)
            )
        elif e.action == "return" and d.get("values") and e is events[-1]:
            callee = library.protocol(str(d.get("protocol") or e.protocol))
            words = Glossary(callee)
            said = [words.output(k, v) for k, v in d["values"].items()]
            notes.append(_("In the worked example it reports: ") + " ".join(said))
    return notes


def shuffle_note(how: str, detail: Mapping[str, object]) -> str:
    """A shuffle's words and how many arrangements it makes, each equally likely. Shuffles done at
    once, one per group (``each``: every group's piles mixed apart), carry no size of their own
    (the engine writes 0): theirs is the product of each group's orders. A count of one or none
    is not said (Daifugō's tickets mixed rank by rank read "Each of the 0 possible arrangements")."""
    size = int(str(detail.get("size") or 0))
    groups = detail.get("groups")
    if not size and detail.get("kind") == "each" and isinstance(groups, list):
        size = math.prod(math.factorial(int(g)) for g in groups)
    return f"{how}{aside(_arrangements(size))}".strip() if size > 1 else how


def _arrangements(n: int) -> str:
    if n <= 10**6:
        return ngettext(
            "Each of the {n} possible arrangements is equally likely.",
            "Each of the {n} possible arrangements is equally likely.",
            n,
        ).format(n=n)
    digits, power = str(n), str(len(str(n)) - 1).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return _("Each of the about {n} arrangements is equally likely.").format(
        n=f"{digits[0]}.{digits[1]} × 10{power}"
    )


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
    step_labels = {text for s in walk_steps(proto.steps) for _, text in s.labels}  # its overlay's words
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
                    text = str(lab["text"])  # or a step's own `labels:` ("both"): its overlay's words
                    said = words.place(text)
                    lab["text"] = spec_text(text) if said == text and text in step_labels else said
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
            block.checks = [check_text(f, reveal.proto) for f in reveal.facts]
            turned = [n for e in events if e.action == "turn" for n in e.detail.get("revealed", [])]
            if any(f.kind == "same_cards" for f in reveal.facts) and 0 < len(set(turned)) <= 8:
                block.example = _("In this example: {cards}.").format(cards=tally_text(turned))
                block.checks.append(block.example)
            block.if_wrong = if_wrong
        blocks.append(block)
    if blocks:
        blocks[-1].notes.extend(handling_sentences(words, run.handling, called))
    return Section(
        proto.name,
        spec_text(proto.title),
        spec_text(proto.summary),
        spec_text(proto.booklet.overview),
        spec_text(proto.source.get("cite", "")),
        run.record,
        run.text,
        run.outcome,
        blocks,
        words.legend(),
        [c.protocol for c in proto.calls()],
        table_time(run.events, people, spec_hints(library.protocol)),
        spec_text(proto.table),
        needs(run.events),
        notation={k: spec_text(v) for k, v in proto.booklet.notation.items()},
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
    loop = Glossary(library.protocol(call.protocol)).loop(call.loop) if call.loop else ""
    given = [words.quantity(k, v) for k, v in params.items()] + [
        words.quantity(k, v) for k, v in inputs.items()
    ]
    # i18n: a called protocol's worked example: where the caller's run reaches it ({loop}: " (pile 1)"
    # when it is called in a loop, else empty) and what it is given ({given}: quantities joined by "; ")
    text = _(
        "Worked example, continued: the same run comes here at Step {step} of “{title}”{loop}, with {given}."
    ).format(
        step=call.step,
        title=caller_titles.get(call.protocol, call.protocol),
        loop=_(" ({loop})").format(loop=loop) if loop else "",
        given=_("; ").join(given),
    )
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
