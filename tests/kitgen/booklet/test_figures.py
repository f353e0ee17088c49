"""A check's figure in the validation appendix said again in the active language
(kitgen.booklet.figures): English gives the engine's own sentence back exactly."""

from __future__ import annotations

import pytest

from kitgen.booklet.figures import figure_text, resay
from kitgen.lang.catalogue import using_language

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
