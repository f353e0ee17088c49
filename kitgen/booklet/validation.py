"""The booklet's validation appendix: what the reference engine verified, report by report, in the
active language (kitgen.booklet.writer sets it after the protocols' chapters).

kitgen's own sentences go through the catalogue; what the engine wrote stays as the engine wrote
it (a check's name and figure, a statistical report's notes, a scenario's public state, the
paper's counts and formulas): those are data quoted from the reports.
"""

from __future__ import annotations

import re
from typing import Protocol

from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Paragraph, Table

from reference_engine.api import Library, UsageError
from reference_engine.api import count_text as deal_count

from ..core.claims import report_title
from ..core.units import mm
from ..core.verification import WholeDeckClaim
from ..core.words import resources_sentence
from ..lang.catalogue import N_, SOURCE, _, kept, language, number
from ..paper.faces import Cell
from .book import Booklet
from .counts import by_title, count_text, param_text
from .figures import Names, said
from .glossary import Glossary
from .paragraphs import Heading

# The engine's method names and check names, in words (a check's figure stays the engine's).
METHODS = {"exact": N_("exact"), "statistical": N_("statistical")}
CHECKS = {"correct": N_("correct"), "secure": N_("secure"), "tidy": N_("tidy")}
EXPECT = "expect "  # a count the paper gives: "expect shuffles"
# The counts a spec's `expect:` gives, in words (English prints the key as the engine names it).
COUNTS = {
    "cards": N_("cards"),
    "shuffles": N_("shuffles"),
    "helper_cards": N_("helper cards"),
    "calls": N_("calls"),
    "table": N_("table"),
}


def count_name(key: str, english: str) -> str:
    """A count of the paper's (``helper_cards``) in the active language; ``english`` in English."""
    if language() == SOURCE:
        return english
    return _(COUNTS[key]) if key in COUNTS else kept(english)


def check_name(name: str) -> str:
    if name in CHECKS:
        return _(CHECKS[name])
    if name.startswith(EXPECT):
        key = name[len(EXPECT) :]
        return _("expect {count}").format(count=count_name(key, key.replace("_", " ")))
    return name


class Pages(Protocol):
    """What the appendix needs of the writer (kitgen.booklet.writer.Writer)."""

    b: Booklet
    small: ParagraphStyle
    width: float

    def heading(self, text: str, level: int = 0) -> Heading: ...
    def subheading(self, title: str) -> list[Flowable]: ...
    def part(self, title: str) -> list[Flowable]: ...
    def para(self, text: str, style: ParagraphStyle | None = None, spec: bool = False) -> Paragraph: ...
    def table(
        self, rows: list[list[Cell]], widths: list[float], header: bool = True, spec: bool = False
    ) -> Table: ...


ENGINE = re.compile(r"kitgen reference engine (?P<version>\S+)")  # a report's "engine"


def engine_name(engine: str) -> str:
    """A report's engine (``kitgen reference engine 0.1.0``) in the active language."""
    found = ENGINE.fullmatch(engine)
    return _("kitgen reference engine {version}").format(version=found["version"]) if found else engine


def method(name: str) -> str:
    return _(METHODS[name]) if name in METHODS else name


def verdict(ok: bool) -> str:
    return _("ok") if ok else _("FAILED")


def title_of(b: Booklet, protocol: str | None) -> str:
    """A protocol's title as its report gives it, in the active language."""
    return report_title(next((v["title"] for v in b.validation if v["protocol"] == protocol), str(protocol)))


def validation(w: Pages) -> list[Flowable]:
    """The appendix: the lead, each report, the whole deck's exact check, the statistical run and
    every step in the paper's words."""
    # It opens as a protocol's part does, below the last part's end when the page has room: the
    # identifier check (kitgen.booklet.jargon) leaves it out from its heading down, and checks
    # what stands above. (On a page of its own, a last "for the curious" box that ran over stood
    # alone on a page a sixth full.)
    out: list[Flowable] = w.part(_("Validation"))
    out.append(
        w.para(
            _(
                "Before this booklet was made, the reference engine verified every protocol in it. Exact "
                "verification runs every secret input through every outcome of every shuffle and keeps "
                "exact fractions: correct means every run gives the right output (and the lottery picks "
                "exactly uniformly); secure means what the table sees has the same distribution whatever "
                "the secret inputs, given the public outputs. A booklet whose protocols fail is never "
                "written."
            )
        )
    )
    checks_head: list[Cell] = [_("Check"), _("Verdict"), _("Figure")]
    library = w.b.protocols()
    for v in w.b.validation:
        out += w.subheading(report_title(v["title"]))
        params = ", ".join(f"{k} = {param_text(p)}" for k, p in v["params"].items()) or _("none")
        checked = _("{n} inputs").format(n=number(v["inputs"]))
        declared = v.get("declared_inputs", v["inputs"])
        if declared > v["inputs"]:
            checked = _("{n} of the {declared} declared inputs (only the admissible ones)").format(
                n=number(v["inputs"]), declared=number(declared)
            )
        setting = _("Spec: {spec}. Method: {method}; parameters: {params}; {checked}.").format(
            spec=v["protocol"], method=method(v["method"]), params=params, checked=checked
        )
        sc = v["scenario"]
        if sc:
            setting += _(" Scenario {name} of {game}: deal {deal}; {state}.").format(
                name=sc["name"], game=sc["game"], deal=" ".join(sc["deal"]), state=kept(sc["state"])
            )
        out.append(w.para(setting, w.small))
        rows: list[list[Cell]] = [list(checks_head)]
        names = names_of(library, v["protocol"])
        for ch in v["checks"]:
            rows.append([check_name(ch["name"]), verdict(ch["ok"]), figure_cell(w, ch["figure"], names)])
        out.append(w.table(rows, [mm(30), mm(16), w.width - mm(46)]))
        out.append(w.para(resources_sentence(v["resources"]), below_table(w)))
        if v["expect"]:
            rows = [[_("Paper's count"), _("Formula"), _("Paper"), _("Measured"), _("Match"), _("Citation")]]
            # Counts per called protocol name it by title: a spec name has no space to break at.
            titles = {sec.protocol: sec.title for sec in w.b.sections}
            for e in v["expect"]:
                rows.append(
                    [
                        count_name(e["name"], e["name"].replace("_", " ")),
                        kept(by_title(str(e.get("formula", "")), titles)),
                        kept(by_title(count_text(e["expected"]), titles)),
                        kept(by_title(count_text(e["measured"]), titles)),
                        _("yes") if e["match"] else _("NO"),
                        kept(str(e["cite"])),  # (None printed as 'None', as ever)
                    ]
                )
            wide = any(isinstance(e["expected"], dict) for e in v["expect"])  # counts per callee
            widths = (
                [mm(17), mm(33), mm(30), mm(30), mm(13)] if wide else [mm(24), mm(26), mm(14), mm(17), mm(12)]
            )
            out.append(w.table(rows, [*widths, w.width - sum(widths)]))
        out.append(w.para(_("Engine: {engine}.").format(engine=engine_name(v["engine"])), below_table(w)))
    whole = w.b.whole_deck
    if whole is not None:
        out += whole_deck(w, whole)
    stat = w.b.statistical
    if stat is not None:
        title = report_title(stat["title"])
        out += w.subheading(_("{title} on the full deck (statistical)").format(title=title))
        out.append(w.para(_("Method: {method}.").format(method=method(stat["method"])), w.small))
        rows = [list(checks_head)]
        names = names_of(library, stat.get("protocol"))
        for ch in stat["checks"]:
            rows.append([check_name(ch["name"]), verdict(ch["ok"]), figure_cell(w, ch["figure"], names)])
        out.append(w.table(rows, [mm(30), mm(16), w.width - mm(46)]))
        for note in stat.get("notes", []):  # the engine's own words (data of the report)
            out.append(w.para(kept(note), w.small))
        if w.b.whole_deck_offered:
            out.append(
                w.para(
                    _(
                        "Not run for this kit: the exact check of the {title} on the whole deck, every "
                        "possible deal and every outcome of every shuffle, by validity classes. Build the "
                        "kit again with --exact-hands N (kitgen build) to verify it for hands of 1 to N "
                        "cards and print the result here; it takes minutes, not seconds (the times "
                        "measured are in docs/verification.md)."
                    ).format(title=title),
                    w.small,
                )
            )
    out += paper_steps(w)
    return out


class SpecNames:
    """The names of a protocol the library does not know (a spec given by its path): as written."""

    def output_name(self, key: str) -> str:
        return key

    def input_name(self, key: str) -> str:
        return key


def names_of(library: Library, protocol: object) -> Names:
    """The words for players of a report's protocol (its spec's ``booklet: names``)."""
    try:
        return Glossary(library.protocol(str(protocol)))
    except UsageError:
        return SpecNames()


SPEC_INK = HexColor("#555555")


def below_table(w: Pages) -> ParagraphStyle:
    """The small text of a line right below a table, a little apart from its last rule (it
    touched it)."""
    return ParagraphStyle("below-table", parent=w.small, spaceBefore=3)


def figure_cell(w: Pages, figure: str, names: Names) -> list[Flowable]:
    """A check's figure in a reader's words, and below it, smaller, the engine's expressions it
    stands for (kitgen.booklet.figures.said): a player reads the first line, a cryptographer
    both. (The table printed the engine's ``[c[i] for i in 1..m if x[i] == 1]`` alone.)"""
    titles = {sec.protocol: sec.title for sec in w.b.sections}
    figure_said = said(figure, names, titles)
    out: list[Flowable] = [w.para(figure_said.words, w.small)]
    if figure_said.spec:
        size = w.small.fontSize - 1
        style = ParagraphStyle(
            "spec-figure", parent=w.small, fontSize=size, leading=size + 2, textColor=SPEC_INK
        )
        out.append(w.para(_("In the spec: {expressions}").format(expressions=kept(figure_said.spec)), style))
    return out


def paper_steps(w: Pages) -> list[Flowable]:
    """Every step as the paper writes it (its notation), where the spec keeps that wording."""
    out: list[Flowable] = []
    for sec in w.b.sections:
        rows: list[list[Cell]] = [[_("Step"), _("In the paper's words")]]
        rows += [[b.number, b.paper] for b in sec.steps if b.paper]
        if len(rows) > 1:
            out += w.subheading(_("{title}: the steps in the paper's words").format(title=sec.title))
            out.append(w.table(rows, [mm(14), w.width - mm(14)], spec=True))
    return out


def whole_deck(w: Pages, whole: WholeDeckClaim) -> list[Flowable]:
    """The section on an exact verification on the whole deck (a kit built with --exact-hands):
    what was verified, one row per hand size, the claim."""
    n = whole["exact_hands_up_to"]
    title = title_of(w.b, whole["protocol"])
    out: list[Flowable] = [
        *w.subheading(_("{title} on the full deck (exact)").format(title=title)),
        w.para(
            _(
                "Method: exact on the whole deck, by validity classes; {table}. Every deal of the cards "
                "in play and every outcome of every shuffle, with exact fractions: deals that give each "
                "player the same numbers of valid and invalid cards are verified together (see How "
                "verification works in the README)."
            ).format(table=whole["table"].rstrip(":")),
            w.small,
        ),
    ]
    rows: list[list[Cell]] = [[_("Hand"), _("Verdict"), _("Deals"), _("Verified as")]]
    for row in whole["hands"]:
        rows.append(
            [
                str(row["hand"]),
                verdict(bool(row["verified"])),
                deal_count(int(row["deals"])),
                _("{n} class deals").format(n=row["class_deals"]),
            ]
        )
    out.append(w.table(rows, [mm(16), mm(16), mm(50), w.width - mm(82)]))
    out.append(w.para(_("Exact for hands up to {n}.").format(n=n), below_table(w)))
    return out
