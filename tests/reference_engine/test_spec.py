"""Spec validation: every problem in a file is reported at once, with file, line and key path."""

from __future__ import annotations

from pathlib import Path

import pytest

from reference_engine import spec
from reference_engine.errors import SpecError
from reference_engine.registry import Library, rulesets_dir
from reference_engine.schema import Checker, check_lengths
from reference_engine.source import Source
from reference_engine.stepparser import parse_template

BAD = """\
protocol: bad-one
title: A broken spec
symbols:
  alpha: {glyph: "α"}
  beta: {glyph: "β"}
encodings:
  bit: {values: {0: [alpha, beta], 1: [beta, gamma]}}
inputs:
  x: {encoding: bit}
  y: {encoding: bitt}
steps:
  - step: 1
    say: Place them.
    place:
      s: [x, "bit(0)", y]
  - step: 2
    say: Rearrange.
    rearrange:
      s: [1, 3, 3, 2, 5, 6]
  - step: 3
    say: Shuffle.
    shufle:
      scramble: ["s[1..3]", "s[4..6]"]
  - step: 4
    say: Call something.
    call: six-card-and
    with: {x: "s[1..2]", z: "s[3..4]"}
    results: {and: q}
  - step: 5
    say: Bad expression.
    turn: "s[1..2"
outputs:
  and: {cards: "s[3..4]", encoding: bit, equals: "x and w"}
"""


def problems_of(tmp_path: Path, text: str, name: str = "bad.yaml") -> list[tuple[int | None, str, str]]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        Library([tmp_path, rulesets_dir() / "protocols"]).protocol(str(path))
    for p in info.value.problems:
        assert p.file == str(path)
    return [(p.line, p.path, p.message) for p in info.value.problems]


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    found = problems_of(tmp_path, BAD)
    expected = [
        (7, "encodings.bit.values.1", "unknown card 'gamma'"),
        (10, "inputs.y.encoding", "unknown encoding 'bitt'"),
        (19, "steps[1].rearrange.s", "is not a permutation of 1..6"),
        (22, "steps[2].shufle", "did you mean 'shuffle'?"),
        (27, "steps[3].with", "missing argument 'y'"),
        (27, "steps[3].with", "has no input 'z'"),
        (28, "steps[3].results", "output 'nand' go"),
        (31, "steps[4].turn", "expected ']'"),
        (33, "outputs.and.equals", "unknown name 'w'"),
    ]
    assert len(found) == len(expected)
    for (line, path, msg), (eline, epath, emsg) in zip(found, expected):
        assert (line, path) == (eline, epath)
        assert emsg in msg


@pytest.mark.parametrize(
    ("snippet", "line", "message"),
    [
        ("  - step: 1\n    say: x\n    turn: s\n    discard: s\n", 12, "one action"),
        ("  - say: no number\n    turn: s\n", 12, "needs a number"),
        ("  - step: 1\n    turn: s\n", 12, "needs a sentence"),
        ("  - step: 1\n    say: x\n    shuffle: {scramble: s, cut: s}\n", 14, "exactly one kind"),
        ("  - step: 1\n    say: x\n    shuffle: {set: [[1, 1]], piles: s}\n", 14, "not a permutation"),
        ("  - step: 1\n    say: x\n    call: no-such-protocol\n", 12, "unknown protocol 'no-such-protocol'"),
        ('  - step: 1\n    say: x\n    turn: "frob(s)"\n', 14, "unknown function 'frob'"),
    ],
)
def test_single_problems(tmp_path: Path, snippet: str, line: int, message: str) -> None:
    head = BAD[: BAD.index("steps:")].replace("1: [beta, gamma]", "1: [beta, alpha]").replace("bitt", "bit")
    found = problems_of(tmp_path, head + "steps:\n" + snippet)
    assert any(message in m and ln == line for ln, _, m in found), found


def test_file_name_must_match_protocol_name(tmp_path: Path) -> None:
    text = (rulesets_dir() / "protocols" / "six-card-and.yaml").read_text()
    (tmp_path / "six-card-and.yaml").write_text(text.replace("protocol: six-card-and", "protocol: other"))
    with pytest.raises(SpecError, match="must match the file name"):
        Library([tmp_path]).protocol("six-card-and")


def test_calls_in_a_loop_are_rejected(tmp_path: Path) -> None:
    for a, b in (("p-one", "p-two"), ("p-two", "p-one")):
        (tmp_path / f"{a}.yaml").write_text(
            f"protocol: {a}\ntitle: t\nsteps:\n  - step: 1\n    say: x\n    call: {b}\n", encoding="utf-8"
        )
    with pytest.raises(SpecError, match="call each other in a loop"):
        Library([tmp_path]).protocol("p-one")


def test_builtin_specs_load_and_mirror_their_papers(library: Library) -> None:
    for name in library.names():
        proto = library.protocol(name)
        assert proto.source, f"{name} cites no source"
        numbered = proto.numbered_steps()
        assert numbered and all(s.say is not None and s.say.text.strip() for s in numbered)


def test_booklet_region_names(tmp_path: Path, library: Library) -> None:
    """``booklet: regions`` names places in a player's words; a name must be a string."""
    assert library.protocol("card-selection").booklet.regions["M"] == "the grid"
    head = BAD[: BAD.index("steps:")].replace("1: [beta, gamma]", "1: [beta, alpha]").replace("bitt", "bit")
    good = head + "steps:\n  - step: 1\n    say: x\n    turn: s\n"
    found = problems_of(tmp_path, good + "booklet:\n  regions: {s: [1, 2]}\n")
    assert any(path == "booklet.regions.s" for _, path, _ in found), found


def test_booklet_names_notation_and_owners(tmp_path: Path, library: Library) -> None:
    """``booklet: names`` gives a spec's names a player's words (values too), ``notation`` the
    paper's symbols, ``owners`` the worked example's owners; a name the spec does not declare,
    or a malformed entry, is an error with its key path."""
    lottery = library.protocol("covert-lottery-modified").booklet
    assert lottery.names["m"].name == "{} cards in the lottery"
    assert lottery.names["found"].values == {"true": "yes", "false": "no"}
    assert "X_i" in lottery.notation
    assert library.protocol("card-selection").booklet.owners[0] == "the virtual player"
    round_ = library.protocol("gakmoro-round").booklet.names["winner"]
    assert round_.values == {"1": "Alice wins", "-1": "Bob wins", "0": "a tie"}
    head = BAD[: BAD.index("steps:")].replace("1: [beta, gamma]", "1: [beta, alpha]").replace("bitt", "bit")
    good = head + "steps:\n  - step: 1\n    say: x\n    turn: s\n"
    found = problems_of(
        tmp_path, good + "booklet:\n  names: {q: a name, x: {values: {0: no}}}\n  owners: 3\n"
    )
    paths = {path: message for _, path, message in found}
    assert "is not a name of this spec" in paths["booklet.names.q"]
    assert "booklet.names.x" in paths and "booklet.owners" in paths, found


GOOD_HEAD = BAD[: BAD.index("steps:")].replace("1: [beta, gamma]", "1: [beta, alpha]").replace("bitt", "bit")
GOOD = GOOD_HEAD + "steps:\n  - step: 1\n    say: x\n    place: {s: [x, y]}\n"


@pytest.mark.parametrize(
    ("extra", "path", "message"),
    [
        ("players:\n  r: {virtual: true, knows: [x]}\n", "players.r.knows", "nobody knows its inputs"),
        ("players:\n  a: {hands: [1]}\n  b: {hands: [hand1]}\n", "players.b.hands[0]", "already held by a"),
        ("players:\n  a: {hands: [0]}\n", "players.a.hands[0]", "an owner number"),
        ("players:\n  a: {hands: ['not a name']}\n", "players.a.hands[0]", "an owner number"),
        ("players:\n  a: {knows: [z]}\n", "players.a.knows[0]", "unknown name 'z'"),
        ("players:\n  a: {knows: [x], sees: [1]}\n", "players.a.sees", "unknown key"),
        ("players:\n  a: {virtual: maybe}\n", "players.a.virtual", "true or false"),
        ("outputs:\n  o: {cards: s, encoding: cards, show: mixed}\n", "outputs.o.show", "'public: true'"),
        (
            "outputs:\n  o: {cards: s, encoding: cards, public: true, show: sorted}\n",
            "outputs.o.show",
            "in-order (the cards are turned over where they lie",
        ),
    ],
)
def test_players_and_shown_outputs_are_checked(tmp_path: Path, extra: str, path: str, message: str) -> None:
    found = problems_of(tmp_path, GOOD + extra)
    assert any(p == path and message in m for _, p, m in found), found


def test_players_default_to_none(library: Library) -> None:
    """Who holds which hand and knows which input is the spec's to say; by default nobody."""
    for name in library.names():
        proto = library.protocol(name)
        assert all(p.virtual or p.knows or p.hands for p in proto.players.values())
    assert library.protocol("card-selection").watched_hands() == {}


# --------------------------------------------------------------------------- checked protocols kept


@pytest.fixture
def own_store(monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty store of checked protocols of the test's own: the process-wide one starts afresh
    once full (spec._CHECKED_MAX), and with it nearly full (other files' specs checked before,
    under xdist) the test's own insert could drop a protocol it kept a moment ago."""
    monkeypatch.setattr(spec, "_CHECKED", {})


def test_a_second_library_gets_the_checked_protocol_without_parsing(
    own_store: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = Library().protocol("card-selection-arrow")

    def refuse(*args: object) -> object:
        raise AssertionError("parsed or checked again")

    monkeypatch.setattr(spec, "analyse", refuse)
    monkeypatch.setattr(spec, "load_text", refuse)
    again = Library()
    assert again.protocol("card-selection-arrow") is first
    assert again.protocol("knockout-lottery") is Library().protocol("knockout-lottery")


def test_a_store_filled_by_other_specs_starts_afresh_and_checks_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Why the tests above keep a store of their own: one short of full (other files' specs
    checked earlier in the process), the caller's callee starts it afresh and the caller is
    checked again by the next library: an equal protocol, not the same object."""
    full = {(f"/elsewhere/{i}.yaml", ""): None for i in range(spec._CHECKED_MAX - 1)}
    monkeypatch.setattr(spec, "_CHECKED", full)
    first = Library().protocol("card-selection-arrow")
    again = Library().protocol("card-selection-arrow")
    assert again is not first and repr(again) == repr(first)
    assert len(spec._CHECKED) < spec._CHECKED_MAX


CALLER = "protocol: caller\ntitle: t\nsteps:\n  - step: 1\n    say: x\n    call: callee\n"
CALLEE = (
    "protocol: callee\ntitle: t\nsymbols: {a: {}}\nsteps:\n  - step: 1\n    say: x\n    place: {s: [a]}\n"
)


def test_a_kept_protocol_is_linked_by_each_library(own_store: None, tmp_path: Path) -> None:
    """The protocol is kept; its calls are checked by every library: a callee gone since is
    an error in the next one."""
    (tmp_path / "caller.yaml").write_text(CALLER, encoding="utf-8")
    (tmp_path / "callee.yaml").write_text(CALLEE, encoding="utf-8")
    kept = Library([tmp_path]).protocol("caller")
    (tmp_path / "callee.yaml").unlink()
    with pytest.raises(SpecError, match="unknown protocol 'callee'"):
        Library([tmp_path]).protocol("caller")
    (tmp_path / "callee.yaml").write_text(CALLEE, encoding="utf-8")
    assert Library([tmp_path]).protocol("caller") is kept


def test_a_changed_file_is_read_again(own_store: None, tmp_path: Path) -> None:
    path = tmp_path / "callee.yaml"
    path.write_text(CALLEE, encoding="utf-8")
    first = Library([tmp_path]).protocol("callee")
    path.write_text(CALLEE.replace("title: t", "title: changed"), encoding="utf-8")
    second = Library([tmp_path]).protocol("callee")
    assert (first.title, second.title) == ("t", "changed")
    path.write_text(CALLEE.replace("[a]}", "[a}"), encoding="utf-8")
    with pytest.raises(SpecError, match="YAML syntax error"):
        Library([tmp_path]).protocol("callee")
    # The same name in another folder is another file.
    other = tmp_path / "other"
    other.mkdir()
    (other / "callee.yaml").write_text(CALLEE, encoding="utf-8")
    assert Library([other]).protocol("callee") is not first


def test_a_spec_with_problems_is_not_kept_and_its_problems_are_the_callers(tmp_path: Path) -> None:
    path = tmp_path / "bad-one.yaml"
    path.write_text(BAD, encoding="utf-8")
    problems = spec.load_protocol_checked(path)[1]
    assert problems
    problems.clear()
    assert spec.load_protocol_checked(path)[1]  # found again, not kept
    assert (str(path), BAD) not in spec._CHECKED


def test_the_kept_protocols_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spec, "_CHECKED", {})
    monkeypatch.setattr(spec, "_CHECKED_MAX", 3)
    for i in range(10):
        path = tmp_path / f"callee{i}.yaml"
        path.write_text(CALLEE.replace("callee", f"callee{i}"), encoding="utf-8")
        assert spec.load_protocol_checked(path)[0] is not None
        assert len(spec._CHECKED) <= 3


@pytest.mark.parametrize(
    ("sentence", "parts"),
    [
        ("Place {m} cards.", ["Place ", ("m",), " cards."]),
        ("{a}{b}", [("a",), ("b",)]),
        ("a {{x}} and a lone } stay; {{ {n + 1} }}", ["a {x} and a lone } stay; { ", ("n + 1",), " }"]),
        ("}}}{{{x}", ["}}{", ("x",)]),
        ("no expression at all", ["no expression at all"]),
    ],
)
def test_a_sentence_splits_into_text_and_expressions(sentence: str, parts: list[object]) -> None:
    """``{{`` and ``}}`` are braces, a lone ``}`` is itself, ``{...}`` an expression (the text
    between braces is taken whole: stepparser.parse_template)."""
    ck = Checker(Source("f.yaml", {}, {(): 1}))
    template = parse_template(ck, sentence, ("say",))
    assert template is not None and not ck.problems
    got = [p if isinstance(p, str) else (p.text,) for p in template.parts]
    assert got == parts


def test_an_unclosed_brace_names_its_character() -> None:
    ck = Checker(Source("f.yaml", {}, {(): 1}))
    assert parse_template(ck, "ok {{ then {m and", ("say",)) is None
    (p,) = ck.problems
    assert p.message == "unclosed '{' in sentence at character 12 (write {{ for a brace)"


def test_a_text_takes_the_limit_of_the_nearest_limited_key() -> None:
    """A text in a say's list is a say; a doc inside it takes the doc's limit; a key that is not
    limited (``x``) keeps the limit of the key above it, else the default (schema.check_lengths)."""
    data = {"say": ["a" * 11, {"doc": "b" * 6, "x": "c" * 11}], "x": "d" * 20, "y": "e" * 21}
    ck = Checker(Source("f.yaml", data, {(): 1}))
    assert not check_lengths(ck, data, {"say": 10, "doc": 5}, 20, 200)
    assert sorted((p.path, p.message) for p in ck.problems) == [
        ("say[0]", "the text has 11 characters; at most 10 here (say)"),
        ("say[1].doc", "the text has 6 characters; at most 5 here (doc)"),
        ("say[1].x", "the text has 11 characters; at most 10 here (say)"),
        ("y", "the text has 21 characters; at most 20 here"),
    ]
