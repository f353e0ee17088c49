"""A check's figure in the validation appendix said again in the active language
(kitgen.booklet.figures): English gives the engine's own sentence back exactly."""

from __future__ import annotations

import pytest

from kitgen.booklet.figures import Said, figure_text, resay, said
from kitgen.booklet.glossary import Glossary
from kitgen.booklet.jargon import Vocabulary
from kitgen.lang.catalogue import using_language
from reference_engine.api import Library

# Figures as the engine writes them (reference_engine/verify/checks.py, exact.py, statistical.py).
FIGURES = [
    "and = x and y; nand = (not x) and y: exact, for all 4 inputs and every shuffle outcome",
    "selected uniform over [c[i] for i in 1..m if x[i] == 1]; found = any(v == 1 for v in x): exact, "
    "for all 1 inputs and every shuffle outcome",
    "2 possible views (1 after merging views that are alike up to a constant factor), each equally likely "
    "under every input",
    "1 possible view, equally likely under every input",
    "8 possible views, each equally likely under every input given found",
    "14400 possible views (3 after merging views that are alike up to a constant factor), each equally "
    "likely under every input given played, found, drew and public inputs k",
    "every card ends in an output or back in the supply",
    "measured 6, paper 6  [Mizuki-Sone 2009: the six-card AND uses six cards]",
    "measured 1, paper 1",
    "measured [5], paper [5] (2 + len([n for n in [1, 2, 4] if n < sizes[1]]))  [kitgen: its shuffles]",
]


@pytest.mark.parametrize("figure", FIGURES)
def test_english_says_the_engine_figure_exactly(figure: str) -> None:
    assert resay(figure) == figure
    assert figure_text(figure) == figure


def test_the_pseudo_locale_wraps_the_words_and_keeps_the_data() -> None:
    with using_language("qps"):
        assert resay(FIGURES[0]) == (
            "⟦⟪and = x and y; nand = (not x) and y⟫: exact, for all ⟦4 inputs⟧ and every shuffle outcome⟧"
        )
        assert resay(FIGURES[4]) == (
            "⟦⟦⟦8 possible views⟧, each equally likely under every input⟧ given ⟪found⟫⟧"
        )
        assert resay(FIGURES[7]) == (
            "⟦measured ⟪6⟫, paper ⟪6⟫⟧  ⟪[Mizuki-Sone 2009: the six-card AND uses six cards]⟫"
        )
        # A figure of a shape it does not know is the report's data, quoted whole (never dropped).
        odd = "cards left on the table at the end: s[3]"
        assert resay(odd) == f"⟪{odd}⟫"


def test_japanese_says_the_figures_in_japanese() -> None:
    with using_language("ja"):
        said = [figure_text(f) for f in FIGURES[2:7]]
    merged = "（定数倍の違いしかない見え方をまとめると 1 通り）"
    assert said[0] == f"見え方 2 通り{merged}、どの入力でもそれぞれ同じ確率"
    assert said[4] == "どのカードも最後は出力になるか、予備に戻る"
    assert all("possible" not in s and "equally" not in s for s in said)


# --------------------------------------------------------------------------- in a reader's words


def _words(protocol: str) -> tuple[Glossary, Vocabulary]:
    proto = Library().protocol(protocol)
    return Glossary(proto), Vocabulary.of([proto])


@pytest.mark.parametrize(
    ("protocol", "figure", "words", "spec"),
    [
        (
            "six-card-and",
            FIGURES[0],
            'Always right: "both" (first AND second) and "2nd only" ((NOT first) AND second); for all 4 '
            "inputs and every shuffle outcome",
            "and = x and y; nand = (not x) and y",
        ),
        (
            "covert-lottery",
            FIGURES[1],
            "Exactly uniform: the picked card (face down); always right: ",
            "selected uniform over [c[i] for i in 1..m if x[i] == 1]; found = any(v == 1 for v in x)",
        ),
        (
            "card-selection-draw",
            FIGURES[5].replace(" and public inputs k", ""),
            "14400 possible views (3 after merging views that are alike up to a constant factor), each "
            "equally likely under every input given the card the virtual player plays (everyone sees it), "
            "whether the virtual player plays a card and whether the virtual player draws a card",
            "given played, found, drew",
        ),
        (
            "six-card-and",
            "1 possible view, equally likely under every input given and and public inputs x, y",
            '1 possible view, equally likely under every input given "both" (first AND second) and public '
            "inputs first bit and second bit",
            "given and; public inputs x, y",
        ),
        ("six-card-and", FIGURES[7], "measured 6, paper 6", ""),  # its citation: the count table's
        (
            "six-card-and",
            FIGURES[9],
            "measured [5], paper [5]",
            "2 + len([n for n in [1, 2, 4] if n < sizes[1]])",
        ),
        ("six-card-and", FIGURES[6], FIGURES[6], ""),
    ],
)
def test_a_figure_is_said_in_a_readers_words(protocol: str, figure: str, words: str, spec: str) -> None:
    """The Validation table printed the engine's ``[c[i] for i in 1..m if x[i] == 1]`` to a
    player: the words name outputs and inputs as the spec's booklet names them, and the engine's
    expressions stand apart, for the cryptographer."""
    names, vocabulary = _words(protocol)
    got = said(figure, names, {})
    assert got.words.startswith(words) and got.spec == spec
    assert vocabulary.findings(got.words) == []


def test_a_figure_of_another_shape_is_quoted_whole() -> None:
    """Hostile figures: an output's part that does not read as the engine writes it, an unknown
    shape. Nothing is dropped or half said: the figure whole, as figure_text says it."""
    names, _ = _words("six-card-and")
    for odd in (
        "and = x and y; the rest: exact, for all 4 inputs and every shuffle outcome",
        "cards left on the table at the end: s[3]",
        FIGURES[4] + "; and for Alice, whatever the others' inputs",
    ):
        assert said(odd, names, {}) == Said(figure_text(odd))


def test_japanese_says_a_figure_in_a_readers_words() -> None:
    names, _ = _words("six-card-and")
    with using_language("ja"):
        got = said(FIGURES[0], names, {})
        both = names.output_name("and")
    assert got.words.startswith(f"常に正しい：{both}") and "入力 4 通り" in got.words
    assert got.spec == "and = x and y; nand = (not x) and y" and both != '"both" (first AND second)'


def test_a_called_protocol_is_named_by_its_title() -> None:
    names, _ = _words("gakmoro-round")
    figure = "measured gakmoro-comparison [74], paper gakmoro-comparison [74]"
    assert (
        said(figure, names, {"gakmoro-comparison": "Comparison"}).words
        == "measured Comparison [74], paper Comparison [74]"
    )
