"""What the final states of a protocol's runs add up to: the outputs each view sees under each
input (:data:`Aggregate`), stray cards, and the resources used (:class:`Outcomes`). Exact
verification reads them once (:mod:`.exact`, or each partition in :mod:`.partition`) and the
checks (:mod:`.checks`) judge them.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from ..machine import DecodeFailure, Frame, Frontier, Runner, _add, _freeze, leftovers, read_outputs, shown

LEFT_EXAMPLES = 5  # how many descriptions of stray cards a report keeps (the smallest)

# (view, output values) -> (denominator, {input: numerator}): what every final state adds up to.
Aggregate = dict[tuple[int, tuple[Any, ...]], tuple[int, dict[int, int]]]


@dataclass
class Outcomes:
    """The final states read once: outputs per view, stray cards, and the resources used."""

    agg: Aggregate = field(default_factory=dict)
    left: list[str] = field(default_factory=list)  # the first few (sorted) descriptions of stray cards
    shuffles: list[int] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    peak: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    kinds: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    calls: dict[tuple[int, str], int] = field(default_factory=dict)  # (position, callee) -> most cards
    input_cards: dict[str, int] = field(default_factory=dict)  # most input cards of each symbol

    @classmethod
    def read(cls, runner: Runner, frame: Frame, final: Frontier) -> Outcomes:
        out = cls()
        names = list(frame.proto.outputs)
        owned: set[int] = set()
        for state, vec in final.items():
            outs = read_outputs(runner, frame, state)
            stray = leftovers(runner, frame, state)
            if stray:  # keep the smallest few descriptions: the same whatever the partitions
                text = ", ".join(stray)
                if text not in out.left and (len(out.left) < LEFT_EXAMPLES or text < out.left[-1]):
                    bisect.insort(out.left, text)
                    del out.left[LEFT_EXAMPLES:]
            out.shuffles.append(state.meters.shuffles)
            out.turns.append(state.meters.turns)
            for sid, n in state.meters.peak:
                out.peak[sid] = max(out.peak[sid], n)
            for k, n in state.meters.kinds:
                out.kinds[k] = max(out.kinds[k], n)
            for i, (callee, n) in enumerate(state.meters.calls):
                out.calls[(i, callee)] = max(out.calls.get((i, callee), 0), n)
            values = tuple(outs[n] if isinstance(outs[n], DecodeFailure) else _freeze(outs[n]) for n in names)
            view = state.view
            for obs in shown(runner, frame, state, outs):  # the public card outputs, as shown
                view = runner.views.extend(view, obs)
            _add(out.agg, (view, values), vec, owned)
        return out
