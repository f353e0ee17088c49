"""compiled/collect.py: a compiled callee's results read back with what depends on its final
layout kept per frame. Attacks: an output naming a variable that differs from run to run on
the same layout, an output that reads a card, a card left over; both engines alike."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import runs  # noqa: E402
from test_differential import _assignments  # noqa: E402

from reference_engine.compiled import Program, collect, program_for  # noqa: E402
from reference_engine.registry import Library, rulesets_dir  # noqa: E402

BITS = """\
symbols:
  alpha: {glyph: "α"}
  beta: {glyph: "β"}
encodings:
  bit:
    values: {0: [alpha, beta], 1: [beta, alpha]}
"""

LOOKER = (
    """\
protocol: looker
title: Looker
summary: Looks at its first bit.
params:
  m: {default: 5, min: 1}
"""
    + BITS
    + """\
inputs:
  x: {encoding: bit, count: m}
steps:
  - step: 1
    say: Turn the first bit up, remember it, turn it back.
    do:
      - turn: "x[1]"
      - let: {v: "x[1]"}
      - turn: "x[1]"
outputs:
  out: {cards: "x", encoding: bit, equals: x}
  seen: {value: v, public: true, equals: "x[1]"}
"""
)

CALLER = (
    """\
protocol: caller
title: Caller
summary: Calls the looker on ten cards (run step by step, not enumerated).
"""
    + BITS
    + """\
inputs:
  y: {encoding: bit, count: 5}
steps:
  - step: 1
    say: Call the looker.
    call: looker
    params: {m: 5}
    with: {x: y}
    results: {out: z, seen: w}
outputs:
  w: {value: w, public: true, equals: "y[1]"}
"""
)


def _seen(tmp_path: Path, looker: str, caller: str = CALLER) -> tuple[list[str], list[tuple[object, ...]]]:
    """Both engines' differences on every 4th input of the caller, and the compiled runs."""
    (tmp_path / "looker.yaml").write_text(looker, encoding="utf-8")
    (tmp_path / "caller.yaml").write_text(caller, encoding="utf-8")
    library = Library([tmp_path, rulesets_dir() / "protocols"])
    proto = library.protocol("caller")
    assert isinstance(program_for(library, proto), Program)
    st, assignments = _assignments(library, "caller", 8)
    found = runs.differences(library, proto, st.params, assignments, range(2))
    got = [runs.single(library, proto, st.params, a, 0, "compiled") for a in assignments]
    return found, got


def _reader(name: str) -> collect._Reader:
    (reader,) = [r for r in collect._READERS.values() if r.frame.proto.name == name]
    return reader


def test_a_variable_an_output_names_keys_what_is_kept(tmp_path: Path) -> None:
    """The same final layout, ``v`` the first card's face: each run reads its own (kept by v)."""
    collect._READERS.clear()
    found, got = _seen(tmp_path, LOOKER)
    assert not found, "\n".join(found)
    assert {r[0] for r in got} == {"ran"}
    assert len({repr(r[8]["w"]) for r in got}) == 2  # both faces seen, never a kept one
    reader = _reader("looker")
    assert reader.names == ("v",) and reader.kept  # the kept path was taken


def test_an_output_that_reads_a_card_is_read_plainly(tmp_path: Path) -> None:
    """The first bit left face up and read by the output itself: read plainly at every call."""
    collect._READERS.clear()
    looker = LOOKER.replace('      - turn: "x[1]"\noutputs', "outputs").replace("value: v,", 'value: "x[1]",')
    assert looker.count("turn:") == 1
    found, got = _seen(tmp_path, looker)
    assert not found, "\n".join(found)
    assert {r[0] for r in got} == {"ran"}
    assert len({repr(r[8]["w"]) for r in got}) == 2
    assert _reader("looker").names is None


def test_a_card_left_over_fails_on_both_engines_alike(tmp_path: Path) -> None:
    """An output that takes the first bit only: the other cards are left over, at every call
    (the second on a kept reading), with collect's message."""
    collect._READERS.clear()
    whole = 'out: {cards: "x", encoding: bit, equals: x}'
    looker = LOOKER.replace(whole, 'out: {cards: "x[1]", encoding: bit}')
    found, got = _seen(tmp_path, looker)
    assert not found, "\n".join(found)
    assert len(got) > 1 and all(r[0] == "error" and "left on the table" in str(r[2]) for r in got), got[:1]


def test_a_variable_set_in_some_runs_only_keys_its_absence(tmp_path: Path) -> None:
    """``t`` set (to a list) where the first bit shows alpha, unset otherwise: where it is unset
    the output's ``t`` is no name (an error on both engines), never the reading kept where it
    was set to a value that looks like the key's mark of an absent name."""
    collect._READERS.clear()
    looker = LOOKER.replace(
        '      - let: {v: "x[1]"}\n',
        '      - let: {v: "x[1]"}\n      - if: "x[1, 1] == alpha"\n        then:\n'
        "          - let: {t: \"['absent']\"}\n",
        1,
    ).replace('seen: {value: v, public: true, equals: "x[1]"}', "seen: {value: t, public: true}", 1)
    assert "let: {t:" in looker and "value: t," in looker
    found, got = _seen(tmp_path, looker, CALLER.replace(', equals: "y[1]"', "", 1))
    assert not found, "\n".join(found)
    kinds = {r[0] for r in got}
    assert kinds == {"ran", "error"}, got  # both cases met
    assert all("unknown name 't'" in str(r[2]) for r in got if r[0] == "error")
    assert all(r[8]["w"] == ("absent",) for r in got if r[0] == "ran")


SEEN = 'seen: {value: v, public: true, equals: "x[1]"}'

# name -> the looker's ``seen`` output replaced by
HELD: dict[str, str] = {
    # a face-down region as a value: its cards read (an error on both engines, never kept)
    "a-region-as-a-value": "seen: {value: x, public: true}",
    # a region's size and a parameter: the layout's and the frame's
    "a-region-and-a-parameter": 'seen: {value: "len(x) + ncols(x) + m", public: true}',
    # a region's name in quotes (the layout's) and a variable's size
    "a-name-in-quotes": "seen: {value: \"[exists('x'), len(v)]\", public: true}",
}


@pytest.mark.parametrize("case", sorted(HELD))
def test_outputs_read_from_the_layout_the_frame_or_a_card_run_alike(tmp_path: Path, case: str) -> None:
    collect._READERS.clear()
    assert SEEN in LOOKER
    found, got = _seen(
        tmp_path, LOOKER.replace(SEEN, HELD[case], 1), CALLER.replace(', equals: "y[1]"', "", 1)
    )
    assert not found, "\n".join(found)
    if case == "a-region-as-a-value":
        assert all(r[0] == "error" and "face down" in str(r[2]) for r in got), got[:1]
    else:
        assert {r[0] for r in got} == {"ran"}, got[:1]
