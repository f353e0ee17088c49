"""Who holds a called protocol's hands: people and hands followed through calls, explicitly.

A hand (``return`` makes one) is held by somebody, who sees every card come into it (see
``players`` in docs/specs.md). A called protocol numbers and names its hands its own way: its
``hand(1)`` is *its* P_1's, who is nobody in particular until the call says who. So a call says
who holds the hands of the protocol it calls, with explicit parameters:

* ``hands: {1: alice}``: the callee's ``hand(1)`` is the hand ``alice`` here (``2`` is
  ``hand(2)``, a name is a named hand): whoever holds ``alice`` here holds it;
* ``players: {dealer: bob}``: the callee's player ``dealer`` (declared in its ``players``) is
  the player ``bob`` here, and holds the callee's hands that ``dealer`` holds.

A protocol that seats people (``players``, not only virtual ones) whose calls reach a callee
that fills hands, without one of these, is refused with the call's file, line and key
(:func:`seating_problems`): the callee's P_1 is never taken to be the caller's P_1 silently. A
call that gives a mapping must give a holder to every hand its callee fills: a run that puts a
card into a hand the call left out stops with the callee's step (:meth:`Seats.check`). A hand
mapped to a hand nobody holds here (or a virtual player's) is seen by nobody.

At run time a :class:`Seats` says, for one protocol of a run, which of its hands a followed
person holds (their view adds the cards that come into them) and which player of it is which
person at the top; :meth:`Seats.into` gives a callee's from a call. The exact verifier follows
one person per run (:func:`observers` lists those who see anything of their own); a single run
(``simulate``) follows every person at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol as Shape

from .declarations import Protocol
from .errors import Problem
from .steps import Call, Return, walk


class Library(Shape):
    """What seating needs of the registry's library (no import of it: the registry imports this
    module): a protocol by name."""

    def protocol(self, name: str) -> Protocol: ...


def fills_hands(proto: Protocol) -> bool:
    """Whether ``proto`` itself puts cards into hands (it has a ``return``: only a return makes a
    hand; a ``move`` or a call's results only add to one it made)."""
    return any(isinstance(s, Return) for s in walk(proto.steps))


def seating_problems(library: Library, proto: Protocol) -> list[Problem]:
    """The calls, anywhere below ``proto``, that leave unsaid who holds the hands of the protocol
    they call, when ``proto`` seats people (none when it seats nobody: no view but the table's is
    checked, and the table does not see into hands)."""
    if not proto.people():
        return []
    out: list[Problem] = []
    seen: set[str] = set()

    def visit(caller: Protocol) -> None:
        if caller.name in seen:
            return
        seen.add(caller.name)
        for call in (s for s in walk(caller.steps) if isinstance(s, Call)):
            callee = library.protocol(call.protocol)
            if fills_hands(callee) and not call.hands and not call.players:
                out.append(
                    caller.src.problem(
                        call.path + ("call",),
                        f"{callee.name} puts cards into hands, and {proto.name} seats people: say who "
                        f"holds them, with 'hands:' (a hand of {callee.name} -> a hand here, e.g. "
                        f"hands: {{1: {_example(proto)}}}) or 'players:' (a player {callee.name} "
                        "declares -> a player here); a called protocol's P_1 is not the caller's "
                        "unless the call says so",
                    )
                )
            visit(callee)

    visit(proto)
    return out


def _example(proto: Protocol) -> str:
    held = [h for p in proto.players.values() for h in p.hands]
    return held[0] if held else "1"


def seen_hands(library: Library, proto: Protocol) -> dict[str, list[str]]:
    """What each person of ``proto`` sees come in of their own: the hands they hold here, and
    those of called protocols they hold through a call's ``hands`` or ``players``
    (``deal's hand1``), by person in the order ``players`` lists them; a person who holds no
    hand anywhere sees only the table. Each person who sees something of their own gets an
    exact run of their own (see ``verify.exact``)."""
    seen: dict[str, list[str]] = {p.name: list(p.hands) for p in proto.people()}
    visited: set[tuple[str, tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]] = set()

    def visit(caller: Protocol, persons: dict[str, str], holders: dict[str, str]) -> None:
        key = (caller.name, tuple(sorted(persons.items())), tuple(sorted(holders.items())))
        if key in visited:
            return
        visited.add(key)
        for call in (s for s in walk(caller.steps) if isinstance(s, Call)):
            callee = library.protocol(call.protocol)
            sub_persons, sub_holders, _ = Seats.mapping(call, callee, persons, holders)
            for hand, person in sorted(sub_holders.items()):
                named = f"{callee.name}'s {hand}"
                if named not in seen[person]:
                    seen[person].append(named)
            visit(callee, sub_persons, sub_holders)

    visit(
        proto, {p.name: p.name for p in proto.people()}, {h: p.name for p in proto.people() for h in p.hands}
    )
    return seen


def observers(library: Library, proto: Protocol) -> list[str]:
    """The people who see something of their own (see :func:`seen_hands`)."""
    return [name for name, hands in seen_hands(library, proto).items() if hands]


@dataclass(frozen=True)
class Seats:
    """Who sees into the hands of one protocol of a run.

    ``watched``: hand -> the followed person who holds it (what comes into it joins the view);
    ``persons``: a player of this protocol -> the person at the top it is (people only);
    ``holders``: hand -> the person at the top who holds it, followed or not (people only);
    ``given``: the hands a call gave holders to (None at the top, or for a call that gave no
    mapping because nobody is seated); ``followed``: the people whose views the run follows;
    ``call``: the call that gave them, in words, for an error."""

    watched: tuple[tuple[str, str], ...] = ()
    persons: tuple[tuple[str, str], ...] = ()
    holders: tuple[tuple[str, str], ...] = ()
    given: frozenset[str] | None = None
    followed: frozenset[str] = frozenset()
    call: str = ""

    @classmethod
    def top(cls, proto: Protocol, followed: frozenset[str] | None = None) -> Seats:
        """The seats of a protocol run on its own, following ``followed`` (default: everybody)."""
        people = proto.people()
        follow = frozenset(p.name for p in people) if followed is None else followed
        holders = {h: p.name for p in people for h in p.hands}
        return cls(
            watched=tuple(sorted((h, p) for h, p in holders.items() if p in follow)),
            persons=tuple(sorted((p.name, p.name) for p in people)),
            holders=tuple(sorted(holders.items())),
            followed=follow,
        )

    def watching(self) -> dict[str, str]:
        return dict(self.watched)

    @staticmethod
    def mapping(
        call: Call, callee: Protocol, persons: dict[str, str], holders: dict[str, str]
    ) -> tuple[dict[str, str], dict[str, str], set[str]]:
        """The callee's persons and hand holders from a call's ``players`` and ``hands``, and
        the hands the call gives holders to."""
        sub_persons: dict[str, str] = {}
        sub_holders: dict[str, str] = {}
        given: set[str] = set()
        for theirs, mine in call.players.items():
            decl = callee.players.get(theirs)
            person = persons.get(mine)
            if decl is None:
                continue
            given.update(decl.hands)
            if person is not None and not decl.virtual:
                sub_persons[theirs] = person
                for h in decl.hands:
                    sub_holders[h] = person
        for theirs, mine in call.hands.items():
            given.add(theirs)
            if mine in holders:
                sub_holders[theirs] = holders[mine]
            else:
                sub_holders.pop(theirs, None)
        return sub_persons, sub_holders, given

    def into(self, call: Call, callee: Protocol, where: str) -> Seats:
        """The seats of ``callee`` run by ``call`` (``where``: the call in words)."""
        persons, holders, given = self.mapping(call, callee, dict(self.persons), dict(self.holders))
        mapped = bool(call.hands or call.players)
        return Seats(
            watched=tuple(sorted((h, p) for h, p in holders.items() if p in self.followed)),
            persons=tuple(sorted(persons.items())),
            holders=tuple(sorted(holders.items())),
            given=frozenset(given) if mapped else None,
            followed=self.followed,
            call=where,
        )

    def key(self) -> tuple[tuple[str, str], ...] | None:
        """What a cached sub-run depends on: the hands it watches (None: none)."""
        return self.watched or None

    def check(self, hand: str) -> str | None:
        """Why a card may not go into ``hand`` (a hand the call that runs this protocol left
        without a holder), or None."""
        if self.given is None or hand in self.given:
            return None
        named = ", ".join(sorted(self.given)) or "none"
        return (
            f"{hand} is a hand, and {self.call} does not say who holds it (its 'hands:' and "
            f"'players:' give holders to {named}): add {hand} to the call's 'hands:'"
        )


__all__ = ["Seats", "fills_hands", "observers", "seating_problems", "seen_hands"]
