"""The fuzz generator's specs (:mod:`specgen`) given sleeves and up-down cards, for the
differential test of the compiled path: some regions the generator makes are declared as lying
in sleeves (``sleeves:``), ``sleeve:`` steps turn them over and slide rows out and in at random
places, and a pair of up-down cards is laid out, given half turns (``rotate:``) and put away.
The generator does not model sleeves, so many of these runs are refused (a sleeve shows a
face-down card, a shuffle mixes part of a sleeve, a decision reads through a sleeve's back...):
both engines must refuse them alike, at the same step, and run the others alike."""

from __future__ import annotations

from typing import Any

import specgen
import yaml
from hypothesis import strategies as st

UP, DOWN = "fzup", "fzdn"  # up-down cards of these specs only (a half turn pairs them globally)
META = ("step", "say")


def _wrap(step: dict[str, Any], before: list[dict[str, Any]], after: list[dict[str, Any]]) -> dict[str, Any]:
    """``step`` with actions done before and after its own, as one ``do:``."""
    meta = {k: v for k, v in step.items() if k in META}
    action = {k: v for k, v in step.items() if k not in META}
    return {**meta, "do": [*before, *([action] if action else []), *after]}


@st.composite
def sleeved_libraries(draw: Any) -> specgen.GeneratedLibrary:
    lib: specgen.GeneratedLibrary = draw(specgen.libraries())
    name = f"{lib.main}.yaml"
    doc = yaml.safe_load(lib.files[name])
    steps: list[dict[str, Any]] = doc["steps"]
    features = set(lib.features)
    candidates = sorted(set(specgen.REGION_NAMES[:6]) | set(doc.get("inputs") or {}))
    sleeved = draw(st.lists(st.sampled_from(candidates), min_size=1, max_size=2, unique=True))
    declared: dict[str, Any] = {}
    for region in sleeved:
        rows = draw(st.sampled_from([[1], [1, 2], [2, 1], [2, 1, 3]]))
        frame: dict[str, Any] = {"rows": rows, "front": draw(st.lists(st.sampled_from(rows), unique=True))}
        if draw(st.booleans()):
            frame["side"] = "front"
        if len(rows) > 1 and draw(st.booleans()):
            frame["keeps"] = [rows[0]]
        declared[region] = frame
    doc["sleeves"] = declared
    features.add("sleeves")
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(steps) - 1))
        region = draw(st.sampled_from(sleeved))
        op: Any = draw(
            st.sampled_from(["front", "back", {"out": [1]}, {"in": [1]}, {"out": [2]}, {"in": [2]}])
        )
        sleeve_step = {"if": f"exists('{region}')", "then": [{"sleeve": {region: op}}]}
        first = draw(st.booleans())
        steps[at] = _wrap(steps[at], [sleeve_step] if first else [], [] if first else [sleeve_step])
        features.add(f"sleeve-{'side' if isinstance(op, str) else next(iter(op))}")
    if draw(st.booleans()):  # up-down cards: laid out, turned round, looked at, turned, put away
        doc["symbols"] = {**doc["symbols"], UP: {"rotated": DOWN}, DOWN: {"rotated": UP}}
        if "helpers" in doc:
            doc["helpers"] = {**doc["helpers"], UP: 2}  # the supply holds the pair (one card)
        laid = [
            {"place": {"FZ": f"[new({UP}), new({DOWN})]"}},
            {"rotate": "FZ[1, 1]"},
            {"turn": "FZ[1, 2]"},
            {"rotate": f"[FZ[1, 2]] if FZ[1, 2] == {UP} else []"},
        ]
        put_away = [{"rotate": "FZ[1, *]"}, {"discard": "FZ"}]
        if draw(st.booleans()):
            put_away.insert(0, {"rotate": "up()"})  # every face-up card: most look the same
        steps[0] = _wrap(steps[0], laid, [])
        steps[-1] = _wrap(steps[-1], [], put_away)
        features.add("rotate")
    files = dict(lib.files)
    files[name] = specgen.dump(doc)
    return specgen.GeneratedLibrary(files, lib.main, features)
