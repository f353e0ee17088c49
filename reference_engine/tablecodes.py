"""A card-level game's table as whole numbers, kept from one card selection run to the next.

A card selection run (:mod:`.selection`) starts from every owner's cards as codes (each card's
``id << 1``, face down) and gives every owner back a new list of cards, read from the cells the
run left. A game hands those very lists to its next run: the draw pile as it came back, less the
cards drawn off its end; the other hands as they came back, more the cards drawn onto their end.
Worked out card by card in Python, a code costs ~570 instructions and a face ~490: with a UNO
table of ~108 cards, ~115,000 instructions a turn, most of them on cards whose codes the last
run had in its cells already.

:class:`Returns` keeps, for each list the last run gave back (and proved, by codes, to hold the
owner's cards), a copy of its cards and their codes. An owner that is that very list takes the
kept codes for the cards it still holds as the copy has them, compared in C (each card first by
identity; a card not the copy's own compares by the card's equality, which for a card is its
name and id: the same code). The rest (a hand the played card left in its middle, the draw pile
refilled from the discard pile, a card that is not a :class:`~.cards.Symbol` itself) is worked
out as before. An owner whose cells come back as they started (most hands) gets the kept cards
back, the faces of those very codes; any other faces are read through one table of every code
(:func:`faces`), in C. The same codes and the same cards either way; the kept lists are the last
run's alone (bounded by its owners).
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import SYMBOLS, Symbol

Kept = tuple[list[Symbol], list[Symbol], tuple[int, ...], list[int] | None]
"""A list a run gave back, a copy of its cards as they were, their codes, and those sorted (where
the proof of the run's return worked them out)."""


class Returns:
    """The lists the last run of a game gave back, with their cards and codes (see the module docs)."""

    __slots__ = ("kept", "ordered", "proofs")

    def __init__(self) -> None:
        self.kept: dict[int, Kept] = {}  # by the list's id (the list itself kept: no id reused)
        # This run's: per owner, its codes sorted where the kept ones give them (:meth:`codes`),
        # and each owner's proof (:meth:`back`): whether it holds, its cells at the end sorted.
        self.ordered: list[list[int] | None] = []
        self.proofs: list[tuple[bool, list[int] | None]] = []

    def codes(self, owners: list[list[Symbol]]) -> tuple[tuple[int, ...], list[list[Symbol] | None]] | None:
        """The codes of every owner's cards in a row (each ``id << 1``, face down), and per owner
        the kept cards its codes begin with where they are all of its cards (else None); None
        where a card is not a :class:`Symbol` itself (no subclass: the frame's way then)."""
        kept = self.kept
        out: list[int] = []
        known: list[list[Symbol] | None] = []
        self.ordered = ordered = []
        self.proofs = []
        for owner in owners:
            hit = kept.get(id(owner))
            if hit is not None and hit[0] is owner:
                _, cards, codes, order = hit
                n, k = len(owner), len(cards)
                if n == k and owner == cards:
                    out += codes
                    known.append(cards)
                    ordered.append(order)
                    continue
                if n < k and owner == cards[:n]:  # cards drawn off its end
                    out += codes[:n]
                    known.append(cards)
                    if order is not None:
                        order = list(order)
                        for c in codes[n:]:
                            order.remove(c)
                    ordered.append(order)
                    continue
                if n > k and owner[:k] == cards:  # cards drawn onto its end
                    more = [c.id << 1 for c in owner[k:] if type(c) is Symbol]
                    if len(more) != n - k:
                        return None
                    out += codes
                    out += more
                    known.append(None)
                    ordered.append(None if order is None else sorted(order + more))
                    continue
            part = [c.id << 1 for c in owner if type(c) is Symbol]
            if len(part) != len(owner):
                return None
            out += part
            known.append(None)
            ordered.append(None)
        return tuple(out), known

    def back(self, i: int, got: tuple[int, ...], start: tuple[int, ...], lost: list[int]) -> bool:
        """:func:`proof` for owner ``i`` of this run (the owners in order), with its codes sorted
        where :meth:`codes` had them; noted for :meth:`keep`."""
        ordered = self.ordered
        proof = codes_back(got, start, lost, ordered[i] if i < len(ordered) else None)
        self.proofs.append(proof)
        return proof[0]

    def keep(self, returned: list[list[Symbol]], got: list[tuple[int, ...]]) -> None:
        """Keep this run's lists (``returned``, each owner's) whose cells (``got``) :meth:`back`
        proved to be its cards' codes (face down, no empty slot), one card a code; the last run's
        are dropped."""
        kept = self.kept
        kept.clear()
        for cards, back, (ok, order) in zip(returned, got, self.proofs):
            if ok and len(cards) == len(back):
                kept[id(cards)] = (cards, list(cards), back, order)
        self.proofs = []


def codes_back(
    got: tuple[int, ...], start: tuple[int, ...], lost: list[int], ordered: list[int] | None = None
) -> tuple[bool, list[int] | None]:
    """Whether an owner's cells at the end (``got``) and the codes it lost (``lost``) are, in any
    order, its codes at the start (``start``, each a card's ``id << 1``; ``ordered``: those
    sorted, where known): then the faces it got back hold the same cards, each as many times, as
    those it is owed (its cards without the ones it lost, which the run's checks found among
    them), by their ids, the first answer of :func:`~.selection._same_faces`. Whole numbers
    compared in C: the same order first, else sorted (a hand or draw pile the run gave back in
    another order: most). False decides nothing (the cards are checked then): a face-up card, an
    empty slot. Also ``got`` sorted, where worked out (the next run's ``ordered``)."""
    if len(got) + len(lost) != len(start):
        return False, None
    if not lost and got == start:
        return True, ordered
    mine = sorted(got)
    whole = sorted(mine + lost) if lost else mine
    return whole == (sorted(start) if ordered is None else ordered), mine


_FACES: dict[int, Symbol] = {}  # every code (face down and face up) of the symbols met so far
_FACE = _FACES.__getitem__


def faces(codes: Sequence[int]) -> list[Symbol]:
    """``SYMBOLS.faces(codes)``: a code's face looked up in one table, in C (an empty slot or a
    symbol not yet in the table: ``SYMBOLS.faces`` itself, the table brought up to date). The
    table only grows: a symbol's id never changes, and the symbol table keeps every symbol."""
    try:
        return list(map(_FACE, codes))
    except KeyError:
        for sid in range(len(_FACES) >> 1, len(SYMBOLS)):
            sym = SYMBOLS.by_id(sid)
            _FACES[sid << 1] = sym
            _FACES[sid << 1 | 1] = sym
        return SYMBOLS.faces(codes)
