"""One seeded run of a protocol, with its trace (``kitgen simulate``)."""

from __future__ import annotations

import contextlib
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .cards import SYMBOLS, Symbol
from .errors import SimulationError, UsageError
from .expressions import MAX_NUMBER, EvalError, equal, plain
from .kinds import load_game
from .machine import ONE, DecodeFailure, Frame, Runner, handling, leftovers, read_outputs, shown
from .registry import Library
from .seating import Seats
from .spec import Params, Protocol
from .table import State
from .trace import Trace
from .verify import describe_inputs, describe_value, input_assignments, setting, value_scope
from .verify.checks import _wanted, expected_values, matches


@dataclass
class Simulation:
    trace: Trace
    final: State
    outputs: dict[str, Any]
    # What this run shows wrong: an output the spec's ``equals`` (or ``uniform``) does not allow
    # for these inputs, cards left on the table. A protocol that passes verification never has any.
    wrong: list[str] = field(default_factory=list)
    values: dict[str, Any] = field(default_factory=dict)  # the inputs, as the engine holds them
    # What the table saw, in order: cards turned, decisions, discards, each called protocol's own
    # view, the cards each person saw come into their hands, the public card outputs as shown.
    observations: list[Any] = field(default_factory=list)
    # How the table handles each card output of several cards (see machine.outputs.handling).
    handling: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = self.trace.to_json()
        data["outputs"] = {k: _json_value(v) for k, v in self.outputs.items()}
        data["wrong"] = list(self.wrong)
        return data


def _json_value(v: Any) -> Any:
    if isinstance(v, Symbol):
        return v.name
    if isinstance(v, (list, tuple)):
        return [_json_value(x) for x in v]
    if v is None or isinstance(v, (int, str, bool)):
        return v
    return str(v)


WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")  # digits with an optional sign; not 1_0, ١٢ or 1e3
MAX_LIST = 1_000  # numbers in one --param list


def parse_whole(text: str, what: str = "") -> int:
    """``text`` as a whole number (digits with an optional sign, at most 10^15 in size), or a
    :class:`UsageError` naming ``what``. Python's ``int()`` would also take ``1_0`` (10), ``١٢``
    (Arabic-Indic digits), spaces, and numbers of thousands of digits."""
    head = f"{what}: " if what else ""
    if not WHOLE_NUMBER.fullmatch(text):
        quoted = repr(text) if len(text) <= 40 else f"{text[:30]!r}... ({len(text):,} characters)"
        raise UsageError(f"{head}{quoted} is not a whole number (digits, with - for a negative one)")
    digits = len(text.lstrip("+-"))
    if digits > 16 or abs(int(text)) > MAX_NUMBER:
        quoted = text if digits <= 24 else f"a number of {digits:,} digits"
        raise UsageError(f"{head}{quoted} is too large (numbers are at most 10^15 in size)")
    return int(text)


def parse_params(raw: tuple[str, ...] | list[str]) -> Params:
    """``["m=5", "sizes=7,7,79"]`` -> ``{"m": 5, "sizes": (7, 7, 79)}``, or a clear error."""
    out: Params = {}
    for item in raw:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise UsageError(f"«param» takes NAME=NUMBER (or NAME=N,N,...), got {item!r}")
        if name in out:
            raise UsageError(f"«param» {name} is given twice")
        texts = value.split(",")
        if len(texts) > MAX_LIST:
            raise UsageError(
                f"«param» {name}: {len(texts):,} numbers, more than a list may hold ({MAX_LIST:,})"
            )
        parts = [parse_whole(v, f"«param» {name}") for v in texts]
        out[name] = tuple(parts) if "," in value else parts[0]
    return out


def parse_inputs(
    frame: Frame,
    raw: tuple[str, ...] | list[str],
    deal: list[Symbol] | None = None,
    rng: random.Random | None = None,
    cards: dict[str, Symbol] | None = None,
    copies: dict[str, int] | None = None,
    deck: str = "the deck",
) -> dict[str, Any]:
    """``["x=1", "c=..."]`` -> input values; arrays are comma-separated.

    A grouped card input (a game protocol's table) that is not given is a random deal of
    ``deal`` (the scenario's deck), drawn with ``rng``; given, it names cards of the game
    (``cards``), each at most as often as ``copies`` (the scenario's deck, called ``deck`` in
    a refusal) holds it: a game protocol's table holds every card in play, so its deal is one
    the deck it runs in can make.
    """
    given: dict[str, str] = {}
    for item in raw:
        name, sep, value = item.partition("=")
        if not sep:
            raise UsageError(f"«input» takes NAME=VALUE, got {item!r}")
        if name not in frame.proto.inputs:
            raise UsageError(
                f"{frame.proto.name} has no input {name!r} (inputs: {', '.join(frame.proto.inputs)})"
            )
        given[name] = value
    missing = [
        f"«input» {n}=... ({_domain_hint(frame, n, frame.input_count(n))})"
        for n in frame.proto.inputs
        if n not in given
        and not (deal is not None and frame.groups(n) is not None)
        and frame.domain_size(n) != 1
    ]
    if missing:
        raise UsageError("give " + " ".join(missing))
    values: dict[str, Any] = {}
    for name, decl in frame.proto.inputs.items():
        count = frame.input_count(name)
        if deal is not None and frame.groups(name) is not None:
            values[name] = _deal(
                name, given.get(name), count, deal, rng or random.Random(0), cards or {}, copies or {}, deck
            )
            continue
        if name not in given:
            if frame.domain_size(name) == 1:
                values[name] = frame.domain(name)[0]
                continue
            raise UsageError(f"give «input» {name}=... ({_domain_hint(frame, name, count)})")
        parts = given[name].split(",") if count is not None else [given[name]]
        if count is not None and len(parts) != count:
            raise UsageError(f"«input» {name} needs {count} comma-separated values, got {len(parts)}")
        b = frame.bound(decl.encoding)
        parsed = []
        for i, text in enumerate(parts, 1):
            options = b.domain(i if count is not None else None)
            match = [v for v in options if _text(v) == text.strip()]
            if not match:
                raise UsageError(
                    f"«input» {name}: {text!r} is not one of {', '.join(_text(v) for v in options)}"
                )
            parsed.append(match[0])
        values[name] = parsed if count is not None else parsed[0]
    return values


def _impossible(name: str, card: str, given: int, held: int, deck: str) -> str:
    """Why a deal that names ``card`` ``given`` times cannot be dealt from ``deck``."""
    if not held:
        return f"«input» {name}: {card} is not in {deck}"
    times = "once" if given == 1 else f"{given} times"
    return f"«input» {name}: {card} is given {times}, but {deck} holds {held} {_copies(held)} of it"


def _copies(n: int) -> str:
    return "copy" if n == 1 else "copies"


def _deal(
    name: str,
    text: str | None,
    count: int | None,
    deal: list[Symbol],
    rng: random.Random,
    cards: dict[str, Symbol],
    copies: dict[str, int],
    deck: str = "the deck",
) -> list[Symbol]:
    if text is None:
        dealt = list(deal)
        rng.shuffle(dealt)
        return dealt
    chosen = []
    for part in text.split(","):
        sym = cards.get(part.strip())
        if sym is None:
            quoted = repr(part.strip()) if len(part) <= 40 else repr(part.strip()[:30] + "...")
            raise UsageError(f"«input» {name}: {quoted} is not a card of the game")
        chosen.append(sym)
    if count is not None and len(chosen) != count:
        raise UsageError(
            f"«input» {name} needs {count} cards (the sizes add up to {count}), got {len(chosen)}"
        )
    given = Counter(s.name for s in chosen)
    for card, n in sorted(given.items()):
        if copies and n > copies.get(card, 0):
            raise UsageError(_impossible(name, card, n, copies.get(card, 0), deck))
    return chosen


def _deck_words(scenario: str, deal: list[Symbol], chosen: bool) -> str:
    """``the deck of scenario mini (R1 RS G2 Y5 W)``, saying when it was not chosen by --deck."""
    cards = " ".join(c.glyph for c in deal[:20]) + (" ..." if len(deal) > 20 else "")
    which = "" if chosen else ", the first; «deck» picks another"
    return f"the deck of scenario {scenario} ({cards}{which})"


def _text(v: Any) -> str:
    return v.name if isinstance(v, Symbol) else str(v)


def _domain_hint(frame: Frame, name: str, count: int | None) -> str:
    b = frame.bound(frame.proto.inputs[name].encoding)
    options = ", ".join(_text(v) for v in b.domain(1 if count is not None else None))
    if count is not None:
        return f"{count} comma-separated values, each one of {options}"
    return f"one of {options}"


def simulate(
    library: Library,
    proto: Protocol,
    params: Params | None = None,
    inputs: tuple[str, ...] | list[str] | dict[str, Any] = (),
    seed: int | None = None,
    rng: random.Random | None = None,
    scenario: str | None = None,
    context: dict[str, Any] | None = None,
) -> Simulation:
    """Run ``proto`` once with a seeded RNG and return its trace and outputs.

    A game protocol (one that needs game functions such as ``valid``) runs in one of its
    scenarios (the first by default) unless ``context`` gives the functions directly; with
    no ``--input`` for its table, the scenario's deck is dealt at random with the seed.
    """
    rng = rng or random.Random(seed if seed is not None else 0)
    deal: list[Symbol] | None = None
    cards: dict[str, Symbol] = {}
    copies: dict[str, int] = {}
    deck = "the deck"
    if context is None and (proto.context or scenario is not None):
        st_ = setting(proto, params, scenario)
        params, context, deal = st_.params, st_.context, st_.deal
        if st_.scenario is not None:
            rules = load_game(st_.scenario["game"])
            cards = rules.cards_by_name()
            # The table is every card in play: its deal comes from the scenario's deck (a reduced
            # one), and where the scenario deals none, from the game's.
            copies = dict(Counter(c.name for c in deal)) if deal else rules.copies()
            deck = _deck_words(st_.scenario["name"], deal, scenario is not None) if deal else deck
    params = proto.resolve_params(params)
    events: list[Any] = []
    runner = Runner(library, "sample", rng=rng, events=events, context=context)
    runner.seat(Seats.top(proto))  # what each person sees come into their hands, calls included
    frame = runner.frame(proto, params)
    runner.limits = frame.helpers
    values = (
        inputs if isinstance(inputs, dict) else parse_inputs(frame, inputs, deal, rng, cards, copies, deck)
    )
    _check_admissible(frame, values, deal)
    try:
        state = frame.initial_state(values)
    except EvalError as exc:
        raise UsageError(str(exc)) from None
    final = runner.run(frame, {state: ONE})
    (end,) = final
    outputs = read_outputs(runner, frame, end)
    trace = Trace(proto.name, params, {k: _json_value(v) for k, v in values.items()}, seed, events)
    trace.outputs = {k: describe_value(v) for k, v in outputs.items()}
    wrong = _wrong(proto, frame, values, outputs)
    stray = leftovers(runner, frame, end)
    if stray:
        wrong.append(f"cards are left on the table at the end: {', '.join(stray[:8])}")
    seen = runner.views.expanded(end.view) + shown(runner, frame, end, outputs)
    return Simulation(
        trace,
        end,
        outputs,
        wrong=wrong,
        values=values,
        observations=seen,
        handling=handling(runner, frame, end),
    )


def _wrong(proto: Protocol, frame: Frame, values: dict[str, Any], outputs: dict[str, Any]) -> list[str]:
    """The outputs of one run that the spec does not allow for its inputs (as verify's
    ``correct`` check reads them: ``equals`` of the inputs, or one of the values a ``uniform``
    or ``weighted`` choice may take)."""
    expected = expected_values(proto, frame, [values])
    out: list[str] = []
    for name, decl in proto.outputs.items():
        got = outputs[name]
        if decl.equals is not None:
            want = expected(0, name, outputs)
            if isinstance(got, DecodeFailure) or not matches(decl, got, want):
                said = f"{decl.equals.text} = {_shown(want)}"
                out.append(f"output {name} is {_shown(got)}, but the spec says {said}")
        elif decl.choice is not None:  # uniform or weighted: one of the values it may choose
            try:
                choices = list(_wanted(decl, expected(0, name, {})))
            except EvalError as exc:
                raise SimulationError("", proto.src.problem(decl.path, str(exc))) from None
            if isinstance(got, DecodeFailure) or not any(equal(got, c) for c in choices):
                allowed = ", ".join(describe_value(c) for c in choices) or "none"
                out.append(f"output {name} is {_shown(got)}, but the spec allows only {allowed}")
    return out


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return str(int(value))  # ``(not x) and y`` is a truth value; bits read 0 and 1
    return str(value) if isinstance(value, DecodeFailure) else describe_value(value)


def _check_admissible(frame: Frame, values: dict[str, Any], deal: list[Symbol] | None) -> None:
    """A run on an input the spec's ``admissible`` excludes is refused: the verifier never
    checked it (and a spec that admits no input at all is refused as verify refuses it)."""
    admissible = frame.proto.admissible
    if admissible is None:
        return
    try:
        ok = plain(admissible(value_scope(frame, values)))
    except EvalError as exc:
        raise SimulationError("", frame.proto.src.problem(("admissible",), str(exc))) from None
    if not ok:
        # No admissible input at all: the spec error verify gives. Too many inputs to list
        # them: the input itself is refused below.
        with contextlib.suppress(UsageError):
            input_assignments(frame, deal)
        raise UsageError(
            f"{describe_inputs(values)} is not admissible ({admissible.text!r} is false for it): "
            "the protocol is verified only for admissible inputs"
        )


def glyph(name: str) -> str:
    sym = SYMBOLS.get(name)
    return sym.glyph if sym else name


__all__ = ["Simulation", "SimulationError", "parse_inputs", "parse_params", "parse_whole", "simulate"]
