"""A call's callee frames (:class:`reference_engine.compiled.calls._Frames`): kept by the values
of the call's parameters in the call's own order, each the frame the runner binds for them."""

from __future__ import annotations

from reference_engine.compiled.calls import _Frames
from reference_engine.machine import Runner
from reference_engine.registry import Library


def test_a_calls_frames_are_kept_by_its_parameters_values() -> None:
    library = Library()
    callee = library.protocol("knockout-lottery")
    runner = Runner(library, "sample")
    frames = _Frames(callee)
    three = frames.get(runner, {"m": 3, "shuffled": 1}, (3, 1))
    assert three is runner.frame(callee, callee.resolve_params({"m": 3, "shuffled": 1}))
    assert frames.kept[(3, 1)] is three
    four = frames.get(runner, {"m": 4, "shuffled": 1}, (4, 1))
    assert four is not three and four.params["m"] == 4 and four.params["shuffled"] == 1
    assert frames.get(runner, {"m": 3, "shuffled": 1}, (3, 1)) is three
    unshuffled = frames.get(runner, {"m": 3, "shuffled": 0}, (3, 0))
    assert unshuffled is not three and unshuffled.params["shuffled"] == 0
    assert set(frames.kept) == {(3, 1), (4, 1), (3, 0)}
