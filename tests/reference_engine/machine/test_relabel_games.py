"""Attacks on the small calls' merged laws and kept plans (w48-attack1): whole card-level UNO
games in one process, where equal cards (the deck's two of each colour and number) reach the
knockout lottery, must play exactly as when every call is enumerated plainly; a callee whose
shuffle compares the cards' codes never has its law merged."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from pathlib import Path

import pytest

from reference_engine.cards import SYMBOLS, code
from reference_engine.kinds.shedding import Game, load_rules
from reference_engine.machine import Runner, Shared
from reference_engine.machine import relabel as rl
from reference_engine.machine.subruns import _sub_outcomes
from reference_engine.registry import Library, rulesets_dir
from reference_engine.selection import ENGINE

SEEDS = (4, 8, 0)  # games in which equal cards meet a lottery pattern met all different before


@pytest.fixture(autouse=True)
def _fresh(relabel_fresh: None) -> None:
    """Every test starts with nothing kept."""


def uno_card_games(seeds: Iterable[int], library: Library | None = None) -> list[str]:
    """Whole card-level UNO games of ``seeds``, all seats virtual, on ``library`` (a fresh one by
    default): each game's log and final random state (also used by test_lawcache.py and
    compiled/test_program_sharing.py)."""
    rules = load_rules("uno")
    library = Library() if library is None else library
    token = ENGINE.set("compiled")
    try:
        out = []
        for seed in seeds:
            game = Game(rules, library, players=4, virtual=4, level="card", seed=seed)
            game.play()
            out.append(repr(game.log) + repr(game.rng.getstate()))
        return out
    finally:
        ENGINE.reset(token)


def test_games_with_equal_cards_in_the_lottery_play_as_plainly_enumerated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    merged = uno_card_games(SEEDS)
    assert any(cost < 0 for _, _, cost in rl._KEPT.values())  # equal cards met: laws merged
    monkeypatch.setattr(rl, "_KEPT", {})
    monkeypatch.setattr(rl, "_EVALUATORS", {})
    monkeypatch.setattr(rl, "_PLANS_OF", {})
    monkeypatch.setattr(rl, "_merged", lambda *args: None)  # every new pattern enumerated
    monkeypatch.setattr(rl, "_plans_of", lambda sub: {})  # no plans kept across games
    assert uno_card_games(SEEDS) == merged


def test_a_callee_whose_shuffle_compares_codes_is_never_merged(tmp_path: Path) -> None:
    """The knockout lottery with a pile-shifting shuffle of its sleeves first: the shift's
    enumeration compares the cards' codes, so no law is merged, and every call on equal cards
    gets the plain enumeration's outcomes."""
    text = (rulesets_dir() / "protocols" / "knockout-lottery.yaml").read_text(encoding="utf-8")
    text = text.replace("protocol: knockout-lottery", "protocol: shifted-lottery")
    step3 = text.index("  - step: 3\n")
    text = (
        text[:step3]
        + '  - step: 2x\n    say: mix\n    shuffle:\n      shift: "columns(P)"\n      how: x\n'
        + text[step3:]
    )
    (tmp_path / "shifted-lottery.yaml").write_text(text, encoding="utf-8")
    lib = Library([tmp_path, rulesets_dir() / "protocols"])
    proto = lib.protocol("shifted-lottery")
    up, down = (code(SYMBOLS.get(n)) for n in ("up", "down"))  # type: ignore[arg-type]
    pool = [SYMBOLS.intern(f"relabel_games_card_{i}") for i in range(3)]
    rng = random.Random(5)
    merged, plain = Runner(lib, "sample", shared=Shared()), Runner(lib, "sample", shared=Shared())
    params = proto.resolve_params({"m": 3, "shuffled": 1})
    for shape in ((0, 1, 2), (0, 0, 1), (0, 1, 0), (0, 0, 0)):
        for bits in itertools.product((0, 1), repeat=3):
            faces = rng.sample(pool, 3)
            codes = (tuple(code(faces[i]) for i in shape), tuple(up if b else down for b in bits))
            got = rl.small_outcomes(merged, merged.frame(proto, params), codes, None)
            want = _sub_outcomes(plain, plain.frame(proto, params), codes)
            assert [(p, r) for p, _, r in got] == [(p, r) for p, _, r in want]
    assert rl._KEPT and all(cost >= 0 for _, _, cost in rl._KEPT.values())
