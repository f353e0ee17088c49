"""The first chapters of a sealed-bid game's booklet: the kit, bundles, rules, a round."""

from __future__ import annotations

from reportlab.platypus import Flowable, PageBreak, Spacer

from ...booklet import Booklet
from ...faces import pdf_table
from ...typesetting import CardPicture, Writer
from ...units import mm


def front_matter(w: Writer, b: Booklet) -> list[Flowable]:
    return w.kit_contents() + bundles(w, b) + sealed_rules(w, b) + round_overview(w, b)


def bundles(w: Writer, b: Booklet) -> list[Flowable]:
    rules = b.rules
    out: list[Flowable] = [PageBreak(), w.heading("Making the bundles")]
    out.append(w.para(rules.dealerless_doc))
    stock = "cutout" if b.bom is None or b.bom.labels_cutout else "sticker"
    values = {
        "size": rules.bundle,
        "size_1": rules.bundle - 1,
        "count": len(rules.hand("dealerless")),
        "attach": w.st.words[f"label_attach_{stock}"],
        "detach": w.st.words[f"label_detach_{stock}"],
    }
    for n, text in enumerate(w.st.lists["bundle_steps"], 1):
        out.append(w.para(f"{n}. {text.format(**values)}", spec=True))
    example = [b.face("club")] * rules.bundle
    example[3] = b.face("heart")
    pics: list[Flowable] = [CardPicture(f, mm(10), b.ink_saver) for f in example]
    out.append(Spacer(1, mm(2)))
    out.append(pdf_table([pics], colWidths=[mm(12)] * len(pics), hAlign="LEFT"))
    out.append(w.para("The bundle of value 3, face up: the ♥ is at place 4 from the left.", w.small))
    return out


def sealed_rules(w: Writer, b: Booklet) -> list[Flowable]:
    rules = b.rules
    out: list[Flowable] = [PageBreak(), w.heading(f"The rules: {rules.title}")]
    if rules.source.get("cite"):
        out.append(w.para(f"Source: {rules.source['cite']}.", w.small))
    for text in rules.how_to_play:
        out.append(w.para(text))
    out.append(w.rich("With a dealer.", rules.dealer_doc))
    out.append(w.rich("Without a dealer.", rules.dealerless_doc))
    return out


def round_overview(w: Writer, b: Booklet) -> list[Flowable]:
    rules = b.rules
    top = b.sections[0]
    out: list[Flowable] = [PageBreak(), w.heading("A round without a dealer")]
    if top.overview:
        out.append(w.para(top.overview, spec=True))
    for n, text in enumerate(w.st.lists["round_steps"], 1):
        out.append(w.para(f"{n}. {text}", spec=True))
    out.append(w.para(f"{rules.names[0]} and {rules.names[1]} in this booklet are the two players.", w.small))
    return out
