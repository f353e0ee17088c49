"""Verification before printing, and the cache that spares rebuilding kits from verifying again."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from kitgen.cli.main import main
from kitgen.core.verification import (
    VerificationCache,
    VerificationFailed,
    protocols_to_verify,
    verify_protocols,
    verify_statistically,
)
from reference_engine.registry import Library
from reference_engine.verify import Report, verify

pytestmark = pytest.mark.fresh_cache  # it counts, damages or expects cold cache entries


def test_a_report_survives_its_json_form(library: Library) -> None:
    report = verify(library, library.protocol("covert-lottery-modified"), {"m": 3})
    again = Report.from_json(json.loads(json.dumps(report.to_json())))
    assert again.to_json() == json.loads(json.dumps(report.to_json()))
    assert again.ok and again.correct and again.secure
    assert [c.name for c in again.checks] == [c.name for c in report.checks]


def test_the_second_verification_comes_from_the_cache(library: Library, tmp_path: Path) -> None:
    names = protocols_to_verify(library, "covert-lottery-modified")
    assert names == ["six-card-and", "covert-lottery-modified"]
    cold = VerificationCache(tmp_path)
    first = verify_protocols(library, names, reveals_of="covert-lottery-modified", cache=cold)
    assert (cold.hits, cold.misses) == (0, 2) and len(list(tmp_path.glob("*.json"))) == 2
    warm = VerificationCache(tmp_path)
    second = verify_protocols(Library(), names, reveals_of="covert-lottery-modified", cache=warm)
    assert (warm.hits, warm.misses) == (2, 0)
    assert [r.to_json() for r in second] == [r.to_json() for r in first]
    # The booklet's "what can go wrong" comes from the recorded reveals: they are kept too.
    assert first[1].reveals and second[1].reveals == first[1].reveals
    # Without a cache the same reports are made (and nothing is read or written).
    fresh = verify_protocols(Library(), names, reveals_of="covert-lottery-modified", cache=None)
    assert [r.to_json()["checks"] for r in fresh] == [r.to_json()["checks"] for r in first]


def test_statistical_reports_are_keyed_by_runs_and_seed(library: Library, tmp_path: Path) -> None:
    cache = VerificationCache(tmp_path)
    a = verify_statistically(library, "card-selection", 20, 1, cache=cache)
    b = verify_statistically(library, "card-selection", 20, 1, cache=cache)
    c = verify_statistically(library, "card-selection", 20, 2, cache=cache)
    assert (cache.hits, cache.misses) == (1, 2)
    assert a.to_json() == b.to_json() and a.method == "statistical"
    assert c.params == a.params


def test_a_changed_spec_is_verified_again_and_still_refused(
    library: Library, variant: Callable[..., Library], tmp_path: Path
) -> None:
    cache = VerificationCache(tmp_path)
    verify_protocols(library, ["six-card-and"], cache=cache)
    broken = variant("six-card-and", ('"bit(0)"', '"bit(1)"'))
    with pytest.raises(VerificationFailed, match="six-card-and fails verification"):
        verify_protocols(broken, ["six-card-and"], cache=cache)
    assert cache.misses == 2 and cache.hits == 0
    assert len(list(tmp_path.glob("*.json"))) == 1  # a failing report is never kept


def test_an_unreadable_entry_is_verified_again(library: Library, tmp_path: Path) -> None:
    verify_protocols(library, ["six-card-and"], cache=VerificationCache(tmp_path))
    (entry,) = tmp_path.glob("*.json")
    for damaged in (
        '{"report": {"protocol": "six-card-and"',
        '{"report": {"checks": [1]}, "reveals": null}',
        "[]",
    ):
        entry.write_text(damaged, encoding="utf-8")
        cache = VerificationCache(tmp_path)
        (report,) = verify_protocols(library, ["six-card-and"], cache=cache)
        assert report.ok and cache.misses == 1
    assert json.loads(entry.read_text(encoding="utf-8"))["record"]["report"]["protocol"] == "six-card-and"


def test_booklets_with_and_without_the_cache_are_identical(tmp_path: Path, verification_cache: Path) -> None:
    outputs = []
    for i, extra in enumerate(([], [], ["--no-cache"])):
        out = tmp_path / f"b{i}"
        result = CliRunner().invoke(
            main, ["booklet", "covert-lottery-modified", "-o", str(out), "--no-previews", *extra]
        )
        assert result.exit_code == 0, result.output
        outputs.append({f: (out / f).read_bytes() for f in ("booklet.pdf", "booklet.json", "manifest.json")})
        if i == 0:
            stored = sorted(verification_cache.glob("*.json"))
            assert len(stored) == 2
    assert outputs[0] == outputs[1] == outputs[2]
    assert sorted(verification_cache.glob("*.json")) == stored
