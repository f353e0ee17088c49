"""The verification by validity classes against the naive enumerator, on generated game protocols.

``gamegen.py`` changes parts of the card selection protocol (markers, shuffles, reveal, bits,
lottery, how the cards go back). For every generated spec the class verifier either refuses the
reduction (a precondition fails) or gives the enumerator's verdicts (correct, secure, tidy, or
"cannot be carried out") and, for every deal of the physical cards, the enumerator's exact output
distribution seen through the classes (each card as its validity and its owner): the class deal's
distribution. The enumerator (``enumerator.py``) shares no code with the engine's exact mode and
runs every deal through every permutation of every shuffle.

A few examples by default (each takes seconds: the enumerator is slow by design);
KITGEN_CLASS_FUZZ_EXAMPLES raises it. Derandomized, like test_fuzz.py.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings

HERE = Path(__file__).resolve().parents[1]
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import enumerator  # noqa: E402
import gamegen  # noqa: E402

from reference_engine.errors import ReductionRefused, SimulationError  # noqa: E402
from reference_engine.registry import Library, rulesets_dir  # noqa: E402
from reference_engine.verify import Table, outcome_distribution, verify  # noqa: E402
from reference_engine.verify.classes import freeze_state  # noqa: E402

EXAMPLES = int(os.environ.get("KITGEN_CLASS_FUZZ_EXAMPLES", "10"))
STATE = freeze_state({"top": "red5", "color": "red"})


def _settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def _class_key(glyph: str) -> tuple[str, int]:
    """``[not valid card of P2]`` -> ("not valid", 2)."""
    label, _, owner = glyph.strip("[]").rpartition(" card of P")
    return label, int(owner)


def project(value: Any, card: Callable[[Any], tuple[str, int] | None]) -> Any:
    """An output value with every card as (its validity, its owner); a group of cards as the sorted
    list of those (hands and multisets are unordered)."""
    if isinstance(value, tuple):
        items = [project(v, card) for v in value]
        cards = items and all(isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str) for v in items)
        return tuple(sorted(items)) if cards else tuple(items)
    if isinstance(value, enumerator.DecodeFailure):
        return "decode failure"
    seen = card(value)
    return value if seen is None else seen


def _engine_card(v: Any) -> tuple[str, int] | None:
    return _class_key(v.glyph) if hasattr(v, "glyph") and hasattr(v, "id") else None


def compare(spec: gamegen.GameSpec, folder: Path) -> str:
    """What happened: 'refused', 'stuck' or 'verdict' (after checking they agree)."""
    (folder / "gen-selection.yaml").write_text(spec.text, encoding="utf-8")
    (folder / "leaky-lottery.yaml").write_text(gamegen.LEAKY, encoding="utf-8")
    lib = Library([folder, rulesets_dir() / "protocols"])
    proto = lib.protocol("gen-selection")
    table = Table("uno", STATE, spec.deck, spec.sizes, "generated")
    game = enumerator.Game(spec.deck, {"valid": gamegen.VALID.__getitem__})
    try:
        report = verify(lib, proto, None, table=table)
    except ReductionRefused:
        return "refused"
    except SimulationError as stuck:  # some run cannot be carried out: refused with its step
        with pytest.raises(enumerator.RunError):
            enumerator.enumerate_protocol(lib, proto, {"sizes": list(spec.sizes)}, game)
        assert ".yaml:" in str(stuck), (spec, str(stuck))  # located: file and line
        return "stuck"
    try:
        naive = enumerator.enumerate_protocol(lib, proto, {"sizes": list(spec.sizes)}, game)
    except enumerator.RunError as exc:
        raise AssertionError(f"the enumerator cannot carry out a run, verify did: {exc}; {spec}") from None
    assert (report.correct, report.secure) == (naive.correct, naive.secure), (spec, report.checks, naive)
    assert report.check("tidy").ok == naive.tidy, spec  # type: ignore[union-attr]
    # Every deal's exact distribution through the classes is its class deal's distribution.
    by_class: dict[Any, dict[Any, Fraction]] = {}
    for values, dist in outcome_distribution(lib, proto, table=table):
        counts = tuple(sorted(_class_key(s.glyph) for s in values["cards"]))
        projected: dict[Any, Fraction] = defaultdict(Fraction)
        for outs, p in dist.items():
            projected[tuple(project(v, _engine_card) for v in outs)] += p
        by_class[counts] = dict(projected)
    names = list(proto.outputs)
    for values, dist in zip(naive.assignments, naive.distributions):
        owner: dict[str, int] = {}
        i = 0
        for n, size in enumerate(spec.sizes, 1):
            for sym in values["cards"][i : i + size]:
                owner[sym.name] = n
            i += size

        def naive_card(v: Any, owner: dict[str, int] = owner) -> tuple[str, int] | None:
            if not isinstance(v, enumerator.Sym):
                return None
            return ("valid" if gamegen.VALID[v.name] else "not valid", owner[v.name])

        counts = tuple(sorted(naive_card(s) or ("", 0) for s in values["cards"]))
        seen: dict[Any, Fraction] = defaultdict(Fraction)
        for outs, p in dist.items():
            seen[tuple(project(v, naive_card) for v in outs)] += p
        assert dict(seen) == by_class[counts], (spec, names, values, dict(seen), by_class[counts])
    return "verdict"


@_settings(EXAMPLES)
@given(spec=gamegen.game_specs())
def test_the_classes_agree_with_the_enumerator(spec: gamegen.GameSpec) -> None:
    with tempfile.TemporaryDirectory(prefix="kitgen-classes-") as tmp:
        event(compare(spec, Path(tmp)))


@pytest.mark.parametrize(
    "choices",
    [
        {},  # the protocol itself: verified, correct and secure
        {"lottery": "leaky-lottery"},  # insecure, found by both
        {"bits": "not-valid"},  # wrong, found by both
        {"back": "all-to-2"},  # the other hands go to P_2: wrong
    ],
)
def test_chosen_specs_agree_with_the_enumerator(choices: dict[str, str], tmp_path: Path) -> None:
    """The generator's parts that must give a verdict (not a refusal), each checked once."""
    base = {
        "thetas": "owners",
        "first": True,
        "reveal": "M[1, *]",
        "bits": "valid",
        "second": True,
        "lottery": "covert-lottery-modified",
        "back": "owners",
    }
    base.update(choices)
    text = gamegen.HEAD.format(sizes=[2, 1], thetas=gamegen.THETAS[str(base["thetas"])])
    text += gamegen.SCRAMBLE.format(n=4) + gamegen.REVEAL.format(rows=base["reveal"])
    text += gamegen.BITS.format(test=gamegen.TESTS[str(base["bits"])]) + gamegen.SCRAMBLE.format(n=8)
    text += gamegen.TAIL.format(lottery=base["lottery"], back=gamegen.BACK[str(base["back"])])
    spec = gamegen.GameSpec(text, ("red1", "green2", "wild"), (2, 1), ())
    assert compare(spec, tmp_path) == "verdict"
