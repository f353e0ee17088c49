"""A new game kind is one engine package and one kitgen module (docs/architecture.md, "Adding a
game kind"): this test writes exactly the files that checklist lists, for a throwaway kind, into a
copy of the project in a temporary folder, then plays a game of it (rule and card level) and
builds its kit there. Nothing else of the project is edited: if the checklist misses a file, or
the kind base asks for more than it says, this fails."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"

ENGINE_RULES = '''"""Match-up: play a card of the suit or the rank of the top card, or draw one."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from ...cards import Symbol
from ..deck import parse_deck
from ..table import DeckRules, open_rule_set, table_fields, table_keys
from ..virtual import one_card

KIND = "matching"
KEYS = table_keys("deck", "matching", hand_size=True)


@dataclass(kw_only=True)
class MatchingRules(DeckRules):
    kind: ClassVar[str] = KIND
    hand_size: int

    def validity(self, top: Symbol) -> Any:
        def valid(card: Any) -> bool:
            c = one_card(card)
            return bool(c.attrs["color"] == top.attrs["color"] or c.attrs["rank"] == top.attrs["rank"])

        return valid


def load_matching(path: Path, expected_name: str | None) -> MatchingRules:
    f = open_rule_set(path, ("game", "kind", "title", "deck", "matching"), KEYS, "a matching game")
    deck = parse_deck(f.ck, f.doc["deck"])
    hand = f.ck.integer(f.doc.get("hand_size", 5), ("hand_size",), minimum=1) or 5
    spec = f.ck.mapping(f.doc["matching"], ("matching",), optional=("doc",)) or {}
    fields = table_fields(f, expected_name, protocol="card-selection", doc=str(spec.get("doc", "")))
    return MatchingRules(deck_def=deck, hand_size=hand, **fields)
'''

ENGINE_PLAY = '''"""A game of Match-up on the game base: deal, then turns until a hand is empty."""

from __future__ import annotations

from typing import Any

from ...cards import Symbol
from ..game import TableGame
from ..result import LogResult, VirtualWork
from .rules import MatchingRules


class MatchUpGame(TableGame[MatchingRules]):
    def setup(self) -> None:
        self.virtual = self.selection_players()
        self.hands: list[list[Symbol]] = []
        self.pile: list[Symbol] = []
        self.top: Symbol | None = None
        self.log: list[dict[str, Any]] = []

    def deal(self) -> None:
        deck = self.rules.deck()
        self.rng.shuffle(deck)
        size, n = self.rules.hand_size, len(self.seats)
        self.hands = [deck[i * size : (i + 1) * size] for i in range(n)]
        self.top, self.pile = deck[n * size], deck[n * size + 1 :]

    def owners(self, seat: int) -> list[list[Symbol]]:
        n = len(self.seats)
        return [list(self.hands[(seat + k) % n]) for k in range(n)] + [list(self.pile)]

    def turn(self, seat: int) -> None:
        assert self.top is not None
        valid = self.rules.validity(self.top)
        n = len(self.seats)
        if self.seats[seat].virtual:
            self.virtual.stats.virtual_turns += 1
            decision = self.virtual.decide(self.owners(seat), valid, f"{self.seats[seat].name}'s turn")
            for k, cards in enumerate(decision.owners[:n]):
                self.hands[(seat + k) % n] = cards
            self.pile = decision.owners[n]
            card = decision.played
        else:
            card = next((c for c in self.hands[seat] if valid(c)), None)
            if card is not None:
                self.hands[seat].remove(card)
        if card is not None:
            self.top = card
            self.log.append({"seat": seat + 1, "played": card.glyph})
        elif self.pile:
            self.hands[seat].append(self.pile.pop())
            self.log.append({"seat": seat + 1, "drew": 1})

    def play(self) -> LogResult:
        self.deal()
        seat = 0
        for _ in range(500):
            self.turn(seat)
            if not self.hands[seat]:
                break
            seat = (seat + 1) % len(self.seats)
        winner = min(range(len(self.seats)), key=lambda s: (len(self.hands[s]), s))
        return LogResult(
            **self.result_head(),
            winner=winner + 1,
            winner_name=self.seats[winner].name,
            turns=len(self.log),
            work=VirtualWork.of(self.virtual.stats),
            log=self.log,
        )
'''

ENGINE_KIND = '''"""Match-up, a throwaway kind: a card of the suit or the rank of the top card."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from ...registry import Library
from ..game import MOMENT_SEEDS, TableKind
from ..kind import Deal, GameRules, PlaySettings, Validity, register
from ..virtual import Moment, split
from .play import MatchUpGame
from .rules import KIND, MatchingRules, load_matching


@register
class Matching(TableKind[MatchingRules, MatchUpGame]):
    name = KIND
    summary = "play a card of the suit or the rank of the top card, or draw one (Match-up)"
    rules_type = MatchingRules

    def load(self, path: Path, expected_name: str | None) -> GameRules:
        return load_matching(path, expected_name)

    def game(self, rules: GameRules, library: Library, settings: PlaySettings) -> MatchUpGame:
        return MatchUpGame(self.rules_of(rules), library, **self.table(settings, self.default_level))

    def measure_tables(self, rules: GameRules, library: Library, seating: PlaySettings) -> dict[str, Any]:
        players, _ = self.seats(rules, seating)
        hands, pile = [0] * players, 0
        for seed in range(20):
            game = self.rule_game(rules, library, seating, seed)
            game.play()
            hands = [max(h, len(game.hands[s])) for s, h in enumerate(hands)]
            pile = max(pile, len(game.pile))
        deck = len(self.rules_of(rules).deck())
        return {"games": 20, "hands": hands, "draw_pile": pile, "table_seen": deck, "table": deck}

    def example_moment(self, rules: GameRules, library: Library, seating: PlaySettings) -> Moment:
        mu = self.rules_of(rules)
        for seed in range(1, MOMENT_SEEDS):
            game = self.rule_game(rules, library, seating, seed)
            game.deal()
            assert game.top is not None
            valid = mu.validity(game.top)
            if 1 <= sum(1 for c in game.hands[0] if valid(c)) < len(game.hands[0]):
                return Moment(seed, game.owners(0), valid, {"top": game.top})
        raise self.no_moment(mu)

    def two_deals(self, rules: GameRules, players: int, rng: random.Random) -> tuple[Deal, Deal, Validity]:
        mu = self.rules_of(rules)
        while True:
            deck = mu.deck()
            rng.shuffle(deck)
            top, rest = deck[0], deck[1:]
            valid = mu.validity(top)
            sizes = [mu.hand_size] * players + [len(rest) - mu.hand_size * players]
            a = split(rest, sizes)
            other = list(rest)
            rng.shuffle(other)
            b = split(other, sizes)
            if any(valid(c) for c in a[0]) and any(valid(c) for c in b[0]):
                return Deal(a, f"top card {top.glyph}"), Deal(b, f"top card {top.glyph}"), valid
'''

KIT_KIND = '''"""The kit of Match-up: the standard deck, the card selection table and a booklet."""

from __future__ import annotations

from reference_engine.api import GameRules, Moment

from .kind import register
from .table import TableKit


@register
class MatchingKit(TableKit):
    kind = "matching"
    default_card_size = "poker"
    piles = ("draw pile",)

    def moment_text(self, rules: GameRules, moment: Moment, owners: list[str]) -> str:
        return (
            f"Worked example (game seed {moment.seed}): it is {owners[0]}'s turn and the top card is "
            f"{moment.public['top'].glyph}."
        )
'''

RULE_SET = """game: match-up
kind: matching
title: Match-up
summary: Play a card of the suit or the rank of the top card, or draw one.
players: {min: 2, max: 4, default: 3}
hand_size: 5
deck: standard-52
matching:
  doc: A card matches when it has the suit or the rank of the top card.
booklet:
  how_to_play:
    - Play a card of the suit or the rank of the top card; if you cannot, draw one.
"""

PROGRAM = """
import json, sys
from pathlib import Path
from reference_engine.api import PlaySettings, play
from kitgen.cli.main import main

out = {}
for level in ("rule", "card"):
    r = play("match-up", settings=PlaySettings(players=3, virtual=1, level=level, seed=4)).to_json()
    keys = ("game", "players", "virtual", "level", "protocol", "winner", "protocol_runs")
    out[level] = {k: r[k] for k in keys}
print(json.dumps(out))
sys.argv = ["kitgen", "build", "match-up", "--players", "3", "--virtual", "1", "--no-previews",
            "--no-cache", "--output", sys.argv[1]]
main()
"""


def checklist() -> str:
    text = DOC.read_text(encoding="utf-8")
    return text[text.index("## Adding a game kind") :].split("\n## ")[0]


def test_the_checklist_names_the_files_this_test_writes() -> None:
    steps = checklist()
    for path in (
        "reference_engine/kinds/<kind>/",
        "rules.py",
        "play.py",
        "__init__.py",
        "reference_engine/kinds/__init__.py",
        "kitgen/kinds/<kind>.py",
        "kitgen/kinds/__init__.py",
        "rulesets/games/<game>.yaml",
    ):
        assert path in steps, path


def _add_import(init: Path, name: str) -> None:
    """The one import line the checklist asks for: the kind joins the package's import of its kinds."""
    text = init.read_text(encoding="utf-8")
    line = re.search(r"^from \. import climbing, ", text, re.M)
    assert line is not None, f"{init}: no import of the built-in kinds"
    text = text.replace(line.group(0), line.group(0) + f"{name}, ", 1)
    init.write_text(text, encoding="utf-8")


def test_a_throwaway_kind_plays_and_builds_a_kit(tmp_path: Path) -> None:
    project = tmp_path / "project"
    for folder in ("reference_engine", "kitgen", "rulesets", "templates"):
        shutil.copytree(ROOT / folder, project / folder, ignore=shutil.ignore_patterns("__pycache__"))
    # 1. The engine package.
    engine = project / "reference_engine" / "kinds" / "matching"
    engine.mkdir()
    (engine / "rules.py").write_text(ENGINE_RULES, encoding="utf-8")
    (engine / "play.py").write_text(ENGINE_PLAY, encoding="utf-8")
    (engine / "__init__.py").write_text(ENGINE_KIND, encoding="utf-8")
    _add_import(project / "reference_engine" / "kinds" / "__init__.py", "matching")
    # 2. The kitgen module.
    (project / "kitgen" / "kinds" / "matching.py").write_text(KIT_KIND, encoding="utf-8")
    _add_import(project / "kitgen" / "kinds" / "__init__.py", "matching")
    # 3. A rule set of the kind.
    (project / "rulesets" / "games" / "match-up.yaml").write_text(RULE_SET, encoding="utf-8")

    kit = tmp_path / "kit"
    env = {**os.environ, "PYTHONPATH": str(project)}
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, str(kit)],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    played = json.loads(done.stdout.splitlines()[0])
    assert played["rule"]["game"] == "match-up" and played["rule"]["protocol_runs"] == 0
    assert played["card"]["protocol"] == "card-selection" and played["card"]["protocol_runs"] > 0
    assert played["rule"]["winner"] in (1, 2, 3)
    manifest = json.loads(next(kit.rglob("manifest.json")).read_text(encoding="utf-8"))
    assert "match-up" in json.dumps(manifest)
    pdfs = {p.name for p in kit.rglob("*.pdf")}
    assert any("booklet" in n for n in pdfs) and any("cards" in n for n in pdfs), pdfs
