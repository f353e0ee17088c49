"""The parts of a booklet: its style, its sections and their step blocks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from reference_engine.api import (
    Checker,
    GameRules,
    JSONValue,
    SpecError,
    load_file,
)

from ..core.templates import templates_dir
from ..core.units import Length
from ..cost.consumables import Need
from ..cost.tabletime import TableTime
from ..lang.catalogue import _, per_language
from .diagram import Diagram

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
    example: str = ""  # the check that counts this example's cards (one of ``checks``; not on quick pages)

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
