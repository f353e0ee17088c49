"""A hand's turns at rule level in one loop: what :meth:`~.play.Game.take_turn` does, in fewer steps.

When nobody watches a game (no observer, no record) and every virtual seat chooses uniformly
by a rule of the card alone (``Game.quick``), a turn needs no protocol run: the valid cards
of a hand are those whose ids a set per public state holds, and the choice is one draw of
the game's generator. :func:`play_turns` plays such a hand's turns with the game's state in
local names, and makes the same draws, log entries, statistics and final state as the
general loop (a test plays both on many seeds and rule sets and compares everything).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import randomness
from ...cards import Symbol
from .record import HandResult, Turn

if TYPE_CHECKING:
    from .play import Game


def play_turns(game: Game, current: int, max_turns: int) -> HandResult:
    """The turns of the hand ``game`` has dealt, ``current`` first, to the hand's end."""
    rules = game.rules
    seats = game.seats
    n = len(seats)
    hands = game.hands
    virtual = [s.virtual for s in seats]
    bluff = game.bluff
    stats = game.stats
    tables = stats.tables
    raw_choices = stats.raw_choices
    log = game.log
    allowed = rules.allowed_by_state
    played_as = rules._played
    rng = game.rng
    plain = randomness.plain(rng)
    bits = rng.getrandbits
    below = game.below
    discard_owner = game.discard_owner
    draw_in_run = game.draw_in_run
    keep = game.virtual_draw == "keep"
    draw_until = rules.draw_until
    draw_count = rules.draw_count
    if_valid = rules.play_drawn == "if_valid"
    # Per seat: the hands in the protocol's order at its turn (P_1 first), for the table sizes.
    order = [tuple(hands[(s + k) % n] for k in range(n)) for s in range(n)]
    passes = 0
    for turn in range(1, max_turns + 1):
        seat = current
        game.after_play = (seat + game.direction) % n
        top = game.discard[-1]
        is_virtual = virtual[seat]
        key = (top.id, game.color, is_virtual and bluff)
        ok = allowed.get(key)
        if ok is None:
            ok = allowed[key] = rules.allowed_ids(game.validity(seat))
        hand = hands[seat]
        candidates: list[Symbol] = [c for c in hand if c.id in ok]
        action = "play"
        drew = 0
        card: Symbol | None = None
        if is_virtual:
            stats.virtual_turns += 1
            in_run = draw_in_run and bool(game.draw_pile)
            sizes = (*map(len, order[seat]), len(game.draw_pile))
            if discard_owner:
                sizes += (len(game.discard) - 1,)
            tables.append((sizes, bool(candidates)))
            if candidates:
                m = len(candidates)
                if plain:
                    k = m.bit_length()
                    r = bits(k)
                    while r >= m:
                        r = bits(k)
                else:
                    r = below(m)
                card = candidates[r]
                raw_choices.append((candidates, card))
        else:
            in_run = False
            if candidates:
                card = game.person_choice(hand, candidates)
        if card is None:
            # Draw (one card at a time, up to draw_until cards, until one may be played).
            for _ in range(draw_until):
                drawn = game.draw_cards(seat, draw_count)
                if not drawn:
                    break
                action, drew = "draw", drew + len(drawn)
                if is_virtual and keep:
                    break
                if if_valid:
                    playable = [c for c in drawn if c.id in ok]
                    if in_run:
                        if playable:
                            m = len(playable)
                            card = playable[below(m)]
                            raw_choices.append((playable, card))
                            action = "draw-play"
                        break
                    if is_virtual:
                        sizes = (*map(len, order[seat]), len(game.draw_pile))
                        if discard_owner:
                            sizes += (len(game.discard) - 1,)
                        tables.append((sizes, bool(playable)))
                        if playable:
                            card = playable[below(len(playable))]
                            raw_choices.append((playable, card))
                    elif playable:
                        card = game.person_choice(hand, playable)
                    if card is not None:
                        action = "draw-play"
                        break
            if not drew or card is None:
                log.append(Turn(turn, seat + 1, "pass" if not drew else action, drew=drew))
                if not hand:
                    return game.went_out(seat, turn)
                passes = passes + 1 if not drew else 0
                if passes >= n:
                    return game.blocked(turn)
                current = game.after_play
                continue
        previous_color = game.color
        _remove(hand, card)
        game.discard.append(card)
        kind, game.color, effects = played_as.get(card.id) or rules.played_as(card)
        record = Turn(turn, seat + 1, action, card.glyph, None, drew)
        if effects:
            game.effects(seat, kind, effects, record, previous_color, hand)
        log.append(record)
        if not hand:
            return game.went_out(seat, turn)
        passes = 0
        current = game.after_play
    return game.blocked(max_turns, ended=False)


def _remove(cards: list[Symbol], card: Symbol) -> None:
    """``cards.remove(card)`` by identity (see :func:`.play._remove`)."""
    for i, c in enumerate(cards):
        if c is card:
            del cards[i]
            return
    cards.remove(card)
