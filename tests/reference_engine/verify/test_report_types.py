"""A report's JSON forms, typed where the engine makes them (issue 27): what kits keep (the
summary) is the full JSON less the timings, key for key and in order, and reads back the same."""

from __future__ import annotations

import json

from reference_engine.api import Check, Report


def _report() -> Report:
    return Report(
        protocol="p",
        title="A protocol",
        params={"sizes": (2, 1)},
        method="exact",
        inputs=4,
        checks=[
            Check("correct", True, "every run right"),
            Check("secure", True, "3 possible views", {"views": 3, "views_after_merging": 2}),
        ],
        resources={"cards": 6, "shuffles": 1, "calls": {"q": [1, 2]}},
        expect=[
            {"name": "cards", "expected": 6, "measured": 6, "match": True, "formula": "2 * n", "cite": None}
        ],
        stats={"final_states": 8, "seconds": 0.25},
        notes=["a note"],
        source={"cite": "a paper"},
        scenario={"name": "s", "doc": "", "game": "uno", "deal": ["R1", "G2"], "state": ""},
        reduction={"deals": 30, "class_deals": 2, "classes": [], "cards": 3, "sizes": [2, 1], "table": "t"},
    )


def test_the_summary_is_the_json_without_the_timings_in_the_same_order() -> None:
    report = _report()
    full = dict(report.to_json())
    assert full.pop("stats") == {"final_states": 8, "seconds": 0.25}
    assert list(report.summary().items()) == list(full.items())
    assert list(full)[-1] == "reduction"  # only when there is one, last


def test_a_check_keeps_its_detail_on_its_own_line() -> None:
    line = Check("secure", True, "ok", {"views": 3, "players": ["alice"]}).to_json()
    assert list(line) == ["name", "ok", "figure", "views", "players"]


def test_the_json_reads_back_to_the_same_report() -> None:
    data = json.loads(json.dumps(_report().to_json()))
    again = Report.from_json(data)
    assert again.to_json() == data
    assert again.check("secure") is not None and again.secure and again.declared_inputs == 4
