"""A block that reads no card, replayed per shape (:mod:`reference_engine.compiled.pure`): which
blocks qualify, and that a replay is the block's steps on both engines, run for run: the
knockout lottery's slide of arrows (4(a)), hostile variants (a card read, a card slid out face
up, a budget or limit of steps reached inside the block), and kept effects tampered with
(``ev.CHECKED`` refuses them)."""

from __future__ import annotations

import gc
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from reference_engine import steps as st
from reference_engine.cards import SYMBOLS
from reference_engine.compiled import evaluate as compiled_evaluate
from reference_engine.compiled import pure
from reference_engine.registry import Library
from reference_engine.spec import Protocol

HERE = Path(__file__).parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from runs import lottery_run  # noqa: E402

LOTTERY = Path(__file__).resolve().parents[3] / "rulesets" / "protocols" / "knockout-lottery.yaml"


def _step(steps: list[st.Step], number: str) -> st.Step:
    return next(s for s in st.walk(steps) if s.number == number)


def test_the_lottery_slide_of_arrows_reads_no_card() -> None:
    proto = Library().protocol("knockout-lottery")
    slide = _step(proto.steps, "4(a)")
    assert isinstance(slide, st.Do)
    names = pure.pure_names(slide.body)
    assert names is not None
    # h is set before it is read, i is the loop's: neither is part of the key.
    assert names.read == {"alive", "down"} and names.sel == {"P", "alive"}
    assert names.written == {"h", "i"}
    # The match's decision reads the arrows; the spin draws: neither qualifies.
    decide = _step(proto.steps, "4(c)")
    assert isinstance(decide, st.Do) and pure.pure_names(decide.body) is None
    assert pure.pure_names([_step(proto.steps, "4(b)")]) is None
    # Step 1 lays the candidates (cards of the table), not new cards only.
    assert pure.pure_names([_step(proto.steps, "1")]) is None


def _pures(kind: type = pure.Pure) -> list[Any]:
    """The kept blocks of ``kind`` alive."""
    return [o for o in gc.get_objects() if isinstance(o, kind)]


Counts = dict[int, tuple[Any, int]]


def counts(kind: type, attr: str = "hits") -> Counts:
    """Each live object of ``kind`` with its counter ``attr`` now, the object held so that its
    ``id`` stays its own. A plain sum over the live objects is not a counter: an object that an
    earlier test left (a program the table of programs dropped, a cycle not yet collected) can be
    freed between two sums and take its count with it (CI saw -2905 hits, then 197 < 279 slides)."""
    return {id(o): (o, getattr(o, attr)) for o in _pures(kind)}


def counted_since(before: Counts, kind: type, attr: str = "hits") -> int:
    """What the objects of ``kind`` alive now counted since ``before`` (new ones from zero)."""
    return sum(
        getattr(o, attr) - (before[k][1] if k in before else 0) for k, (o, _) in counts(kind, attr).items()
    )


_LIBRARIES: dict[str, tuple[Library, Protocol]] = {}
_TMP = tempfile.TemporaryDirectory(prefix="kitgen-pure-")  # kept for the module's tests


def _library(text: str) -> tuple[Library, Protocol]:
    """One library per spec text, kept (its compiled program, and the effects it keeps, with it)."""
    got = _LIBRARIES.get(text)
    if got is None:
        folder = Path(_TMP.name, f"spec{len(_LIBRARIES)}")
        folder.mkdir()
        Path(folder, "ko-pure.yaml").write_text(
            text.replace("protocol: knockout-lottery", "protocol: ko-pure")
        )
        library = Library([folder])
        got = _LIBRARIES[text] = (library, library.protocol("ko-pure"))
    return got


def _compare(
    text: str,
    runs: int,
    lo: int = 5,
    hi: int = 7,
    face_up: float = 0.0,
    units: int | None = None,
    checked: bool = False,
    kind: type = pure.Pure,
) -> tuple[set[str], int]:
    """Runs ``text`` (a knockout lottery, maybe altered) on both engines (the compiled one checked
    every other run, or every run), on random candidates and arrows (face up with probability
    ``face_up``); returns how the runs ended and how many replays the compiled runs made."""
    library, proto = _library(text)
    up, down = SYMBOLS.intern("up").id, SYMBOLS.intern("down").id
    faces = [SYMBOLS.intern(f"pure-face-{i}").id for i in range(12)]
    gen = random.Random(7)
    ended: set[str] = set()
    before = counts(kind)
    for i in range(runs):
        m = gen.randrange(lo, hi + 1)
        cards = tuple(gen.choice(faces) << 1 for _ in range(m))
        arrows = tuple(gen.choice([up, down]) << 1 | (gen.random() < face_up) for _ in range(m))
        codes = (cards, arrows)
        want = lottery_run(library, proto, m, codes, i, "interpreter", units)
        engine = "compiled-checked" if checked or i % 2 else "compiled"
        got = lottery_run(library, proto, m, codes, i, engine, units)
        assert got == want, f"run {i}, m={m}, {codes}"
        ended.add(str(want[0]) if want[0] == "ran" else f"{want[1]}: {want[2]}")
    return ended, counted_since(before, kind)


def test_replayed_slides_run_as_the_interpreter() -> None:
    ended, hits = _compare(LOTTERY.read_text(), 120, 5, 6)
    assert ended == {"ran"}
    assert hits > 60  # most slides are replays


def test_a_slide_that_reads_a_region_is_never_replayed() -> None:
    """Hostile: a ``let`` in the slide reads a card (a region named where a variable would be):
    the key refuses it, and the runs are the interpreter's."""
    text = LOTTERY.read_text().replace(
        '                  h: "len(alive) // 2"\n',
        '                  h: "len(alive) // 2"\n              - let:\n                  seen: "len(U)"\n',
    )
    text = text.replace(
        '              - for: {i: "1..h"}\n',
        '              - let:\n                  peek: "sel"\n              - for: {i: "1..h"}\n',
    )
    ended, hits = _compare(text, 30)
    assert hits == 0, ended
    assert ended  # both engines alike, whatever the runs did


def test_a_slide_that_lands_an_arrow_face_up_fails_alike() -> None:
    """Hostile: some arrows lie face up in their sleeves, so sliding them out lands them wrongly
    (an error in the slide); the places' faces are part of the key, so a replay never skips it."""
    ended, hits = _compare(LOTTERY.read_text(), 120, 5, 6, face_up=0.15)
    assert "ran" in ended and len(ended) > 1, ended
    assert hits > 0


@pytest.mark.parametrize("units", [12, 17, 23, 31, 40])
def test_a_budget_reached_inside_a_slide_stops_alike(units: int) -> None:
    """An exploration's budget running out within the slide: the same step, the same count."""
    _compare(LOTTERY.read_text(), 60, 5, 6)  # the slides' effects kept
    ended, _ = _compare(LOTTERY.read_text(), 40, 5, 6, units=units)
    assert any("OverBudget" in e for e in ended), ended


def _kept_effects() -> list[tuple[pure.Pure, Any]]:
    _compare(LOTTERY.read_text(), 30, 5, 5)
    kept = [(p, e) for p in _pures() for e in p.kept.values()]
    assert kept
    return kept


@pytest.mark.parametrize("field", ["consts", "count", "observations", "meters_after", "env", "current"])
def test_a_tampered_effect_is_refused_when_checked(field: str) -> None:
    """Mutants: every kept effect made wrong in one respect; ``ev.CHECKED`` runs the steps too
    and refuses the replay."""
    kept = _kept_effects()
    for _, effect in kept:
        wrong = {
            "consts": tuple(c + 2 if c >= 0 else c for c in effect.consts),
            "count": effect.count + 1,
            "observations": (*effect.observations, ("let", (("x", 1),))),
            "meters_after": effect.meters,
            "env": (*effect.env, ("h", 99)),
            "current": "9",
        }[field]
        setattr(effect, field, wrong)
    try:
        with pytest.raises(compiled_evaluate.Mismatch):
            _compare(LOTTERY.read_text(), 30, 5, 5, checked=True)
    finally:
        for block, _ in kept:
            block.kept.clear()


def _spec(steps: str) -> str:
    """The lottery's header (its parameters, symbols and inputs) with other steps."""
    text = LOTTERY.read_text()
    return text[: text.index("steps:\n")] + "steps:\n" + steps


_FACE_UP = """\
  - step: 1
    say: Lay the arrows.
    place:
      Q: {columns: "[[x[i]] for i in 1..m]"}
  - step: 2
    say: Turn them over.
    turn: Q
"""


def test_a_block_recorded_inside_another_keeps_the_cards_tagged() -> None:
    """Hostile: a slide whose places are a ``do`` within the ``do`` (both read no card): the
    inner block's recording, made inside the outer's, must hand the outer its tags back (a plain
    card would be kept as a new one: the next replay laid the first run's arrows)."""
    text = LOTTERY.read_text().replace(
        '              - for: {i: "1..h"}\n                do:\n                  - place:\n'
        '                      "P[2, alive[2 * i - 1]]": "new(down)"\n',
        '              - do:\n                  - for: {i: "1..h"}\n                    do:\n'
        '                      - place:\n                          "P[2, alive[2 * i - 1]]": "new(down)"\n',
    )
    assert text != LOTTERY.read_text()
    ended, hits = _compare(text, 60, 5, 6)
    assert ended == {"ran"} and hits > 30
    ended, hits = _compare(text, 20, 5, 6, checked=True)
    assert ended == {"ran"} and hits > 10


def test_a_card_of_a_region_the_block_makes_is_never_kept() -> None:
    """Hostile: the block moves a face-up arrow into a region it makes, then reads it (``let``):
    the region is not on the table when the key is made, so the block is refused."""
    block = '      - move: {W: "[Q[1, 1]]"}\n      - let:\n          peek: "W[1]"\n'
    text = _spec(_FACE_UP + "  - step: 3\n    say: Look.\n    do:\n" + block)
    step = _step(_library(text)[1].steps, "3")
    assert isinstance(step, st.Do) and pure.pure_names(step.body) is None
    ended, _ = _compare(text, 30, 5, 6)
    assert ended == {"ran"}


def test_a_variable_dropped_over_a_region_is_never_kept() -> None:
    """Hostile: a variable named as a region (``Q``) is a ``for``'s, dropped inside the block, so
    the block's later ``Q[1, 1]`` reads the region's card: a name read that names a region is
    refused, whatever variable hides it when the key is made."""
    block = (
        '      - for: {Q: "1..1"}\n        do:\n          - note: x\n'
        '      - let:\n          peek: "Q[1, 1]"\n'
    )
    text = _spec(
        _FACE_UP
        + '  - step: 3\n    say: Q.\n    let: {Q: "1"}\n  - step: 4\n    say: Look.\n    do:\n'
        + block
    )
    ended, hits = _compare(text, 30, 5, 6)
    assert ended == {"ran"} and hits == 0


def _lax(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mutant: :func:`~reference_engine.compiled.pure.pure_names` made to pass a block's ``turn``
    and ``rotate`` of a region (steps that make each card's code afresh, ``c ^ 1`` or its other
    face, where the others move the cards they are given), the region a name it selects."""
    real = pure.pure_names

    def lax(steps: list[st.Step]) -> pure.Names | None:
        others = [s for s in steps if not isinstance(s, (st.Turn, st.Rotate))]
        names = real(others)
        if names is not None:
            for s in steps:
                if isinstance(s, (st.Turn, st.Rotate)):
                    assert s.what is not None
                    names.sel |= s.what.names()
        return names

    monkeypatch.setattr(pure, "pure_names", lax)


@pytest.mark.parametrize("step", ["turn", "rotate"])
def test_a_block_that_makes_codes_afresh_is_never_kept(monkeypatch: pytest.MonkeyPatch, step: str) -> None:
    """Mutant: a block let through whose step makes the cards' codes afresh instead of moving
    them (a turn or a half turn of the arrows laid by step 1, cards the key never sees): its
    cards end untagged, as new ones would, but none was taken from the supply, so its effect is
    never kept (kept, every replay laid the first run's arrows: these runs differed from the
    interpreter's, or ``ev.CHECKED`` refused them)."""
    _lax(monkeypatch)
    block = f"      - {step}: Q\n      - note: x\n"
    text = _spec(_FACE_UP.replace("    turn: Q\n", "    do:\n" + block))
    assert text != _spec(_FACE_UP)
    ended, hits = _compare(text, 40, 5, 6)
    assert ended == {"ran"} and hits == 0
    ended, hits = _compare(text, 10, 5, 6, checked=True)
    assert ended == {"ran"} and hits == 0


def test_a_new_card_rotated_in_the_block_is_still_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The refusal's other side: a card the block takes from the supply and then gives a half
    turn ends untagged with its other face, the same card of the supply (an up-down card's two
    faces are one), so the effect is kept and replayed, run for run as the interpreter."""
    _lax(monkeypatch)
    block = '      - place:\n          W: "[new(down)]"\n      - rotate: W\n'
    text = _spec(_FACE_UP + "  - step: 3\n    say: Lay one more.\n    do:\n" + block)
    ended, hits = _compare(text, 40, 5, 6)
    assert ended == {"ran"} and hits > 20
    ended, hits = _compare(text, 10, 5, 6, checked=True)
    assert ended == {"ran"} and hits > 5


class _Counter:
    """An object with a counter, in a cycle (freed by the collector only)."""

    def __init__(self, hits: int) -> None:
        self.hits = hits
        self.me = self


def test_a_counter_freed_between_two_counts_takes_nothing_away() -> None:
    """The tests' hit counts (:func:`counts`, :func:`counted_since`): an object that is garbage
    at the first count and collected before the second would take its count out of a plain sum of
    the live counters; ``counted_since`` holds it and counts only what was counted since, a new
    object from zero."""
    gc.disable()
    try:
        _Counter(1000)  # garbage now, in a cycle: alive to gc.get_objects() until collected
        plain = sum(o.hits for o in _pures(_Counter))
        before = counts(_Counter)
        made = _Counter(3)
        gc.collect()
        assert counted_since(before, _Counter) == 3
        del before
        gc.collect()
        assert sum(o.hits for o in _pures(_Counter)) - plain == made.hits - 1000  # the plain sum's fault
    finally:
        gc.enable()
