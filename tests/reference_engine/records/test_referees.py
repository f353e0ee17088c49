"""The referees are independent of the engine: they share no code with how a kind plays, and they
catch a wrong engine (a slip in a rule set file or in a kind's Python) that playing the game
again cannot, since the engine repeats its own mistake."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from reference_engine.api import Library, PlaySettings, games_dir, record_game, replay_record
from reference_engine.errors import RecordError, SpecError
from reference_engine.kinds import kinds
from reference_engine.records.referee import books_dir, load_book

from .conftest import schema_valid

ROOT = Path(__file__).resolve().parents[3]
KINDS = ROOT / "reference_engine" / "kinds"
# What a referee may use: the records' shared referee helpers, and nothing of how games are played.
FORBIDDEN = (
    ".play",
    ".rules",
    ".record",
    "..deck",
    "..virtual",
    "...expressions",
    "...selection",
    "...machine",
)


def _imports(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            yield "." * node.level + (node.module or "")
        elif isinstance(node, ast.Import):
            yield from (a.name for a in node.names)


@pytest.mark.parametrize("kind", sorted(n for n, k in kinds().items() if k.records))
def test_a_referee_shares_no_code_with_how_its_kind_plays(kind: str) -> None:
    folder = KINDS / kind.replace("-", "_")
    referee = folder / "referee.py"
    assert referee.is_file()
    for name in _imports(referee):
        assert not name.startswith(FORBIDDEN) and "kinds" not in name, f"{referee.name} imports {name}"
        assert not name.startswith("reference_engine") or name.startswith("reference_engine.records.referee")


def test_every_built_in_game_of_a_recording_kind_has_a_rule_book() -> None:
    for path in sorted(games_dir().glob("*.yaml")):
        found = re.search(r"^kind: (\S+)", path.read_text(encoding="utf-8"), re.M)
        kind = found.group(1) if found else "shedding"
        if not kinds()[kind].records:
            continue  # puzzles are not played; a kind without records has no referee yet
        book = books_dir() / f"{path.stem}.yaml"
        assert book.is_file(), path.stem
        assert load_book(path.stem, kind, _keys(book)) is not None


def _keys(book: Path) -> tuple[str, ...]:
    return tuple(re.findall(r"^([a-z_]+):", book.read_text(encoding="utf-8"), re.M))


def test_a_broken_rule_book_names_file_line_and_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "uno.yaml").write_text("game: uno\nkind: shedding\nsource: x\nplayer: [2, 4]\n")
    monkeypatch.setattr("reference_engine.records.referee.books_dir", lambda: tmp_path)
    with pytest.raises(SpecError) as info:
        load_book("uno", "shedding", ("players",))
    (problem,) = info.value.problems
    assert problem.line == 4 and problem.path == "player" and "players" in problem.message


def test_a_record_naming_a_game_of_another_kind_is_not_a_record(recorded: Any) -> None:
    record = recorded("sevens", "rule")
    record["game"]["kind"] = "shedding"
    with pytest.raises(RecordError) as info:
        replay_record(record, Library(), rerun=False)
    assert info.value.exit_code == 2 and "sevens is a shedding game; it is a layout game" in str(info.value)


# --------------------------------------------------------------------------- a wrong engine


def _copy_rules(tmp_path: Path, name: str, old: str, new: str) -> str:
    """The built-in rule set ``name`` with one passage changed, as a file of the same name."""
    text = (games_dir() / f"{name}.yaml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / f"{name}.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return str(path)


def _judged(source: str, level: str = "rule", seed: int = 1, virtual: int = 2, **options: Any) -> Any:
    settings = PlaySettings(virtual=virtual, level=level, seed=seed, options=options)
    _, record = record_game(source, Library(), settings)
    report = replay_record(schema_valid(record), Library())
    assert report.rerun is None  # the engine repeats its own mistake: playing again agrees
    return report.verdict.finding


def test_the_referee_catches_sevens_opening_with_the_wrong_seven(tmp_path: Path) -> None:
    """The third slip, put back: the rule set opening with 7♥ (a lossy rendering of the paper)."""
    source = _copy_rules(tmp_path, "sevens", "first: diamonds7", "first: hearts7")
    found = _judged(source)
    assert found is not None and "diamonds7" in found.message


def test_the_referee_catches_a_validity_rule_that_lets_anything_through(tmp_path: Path) -> None:
    source = _copy_rules(
        tmp_path,
        "uno",
        "valid: \"card.color == 'black' or card.color == color or card.face == top.face\"",
        'valid: "true"',
    )
    found = _judged(source)
    assert found is not None and "may not be played" in found.message


def test_the_referee_catches_a_wrong_effect(tmp_path: Path) -> None:
    source = _copy_rules(tmp_path, "uno", "draw2: [{draw: 2}, skip]", "draw2: [skip]")
    found = None
    for seed in range(1, 20):
        found = _judged(source, seed=seed)
        if found is not None:
            break
    assert found is not None and "the rules call for" in found.message


def test_the_referee_catches_the_official_wild_draw_four_slip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first slip, put back: W+4 on W+4 let through by the face clause although the player
    holds the colour in force. People who play a wild draw four whenever the rule set allows it
    show it; with the fixed rule set the same people never break the rule."""
    from reference_engine.kinds.shedding import Game

    fixed = "    or (card.kind != 'wild4' and (card.color == color or card.face == top.face))\n"
    slipped = "    or card.color == color or card.face == top.face\n"
    source = _copy_rules(tmp_path, "uno-official", fixed, slipped)

    def eager(self: Game, seat: int, valid: Any, record: Any, only: Any = None) -> Any:
        options = [c for c in (only if only is not None else self.hands[seat]) if valid(c)]
        wild4 = [c for c in options if c.attrs["kind"] == "wild4"]
        return (wild4 or options or [None])[0]

    monkeypatch.setattr(Game, "choose", eager)
    # The first seed whose game shows the slip (judging every later seed too cost ~8 s of CPU).
    first, found = next(
        ((s, j) for s in range(40) if (j := _judged(source, seed=s, virtual=0, hands=1)) is not None),
        (None, None),
    )
    assert first is not None and found is not None
    assert "wild4 may not be played on wild4" in found.message and "colour is held" in found.message
    for seed in range(first + 1):
        assert _judged("uno-official", seed=seed, virtual=0, hands=1) is None


def test_the_referee_catches_a_kind_that_does_not_follow_suit(monkeypatch: pytest.MonkeyPatch) -> None:
    from reference_engine.kinds.trick.rules import TrickRules

    monkeypatch.setattr(TrickRules, "validity", lambda self, led, broken=True: lambda card: True)
    found = _judged("hearts", rounds=1)
    assert found is not None and "the led suit is" in found.message


def test_the_referee_catches_a_tile_that_fits_no_end(monkeypatch: pytest.MonkeyPatch) -> None:
    from reference_engine.kinds.tiles.rules import TileRules

    monkeypatch.setattr(TileRules, "fits", staticmethod(lambda tile, value: True))
    found = _judged("dominoes")
    assert found is not None and "match" in found.message and "end" in found.message


def test_the_referee_catches_a_wrong_announcement(monkeypatch: pytest.MonkeyPatch) -> None:
    import reference_engine.kinds.sealed_bid.play as sealed

    monkeypatch.setattr(sealed, "plain_winner", lambda a, b: (sum(a) < sum(b)) - (sum(a) > sum(b)))
    found = None
    for seed in range(10):
        found = _judged("gakmoro", seed=seed, variant="dealer")
        if found is not None:
            break
    assert found is not None and "the announcement is" in found.message


def test_a_rule_set_without_a_book_is_checked_for_everything_but_legality(tmp_path: Path) -> None:
    text = (games_dir() / "uno.yaml").read_text(encoding="utf-8").replace("game: uno\n", "game: my-uno\n")
    (tmp_path / "my-uno.yaml").write_text(text, encoding="utf-8")
    _, record = record_game(
        str(tmp_path / "my-uno.yaml"), Library(), PlaySettings(virtual=2, level="card", seed=2)
    )
    report = replay_record(schema_valid(record), Library())
    assert report.ok and not report.verdict.rules and "no rule book for 'my-uno'" in report.verdict.note
    first = next(e for e in record["events"] if e["type"] == "turn" and e["public"]["draws"])
    first["hidden"]["draws"][0] = ["no_such_card"] * len(first["hidden"]["draws"][0])
    found = replay_record(schema_valid(record), Library(), rerun=False).verdict.finding
    assert found is not None and "not in the draw pile" in found.message
