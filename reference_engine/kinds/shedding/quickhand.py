"""A hand's turns at rule level in one loop: what :meth:`~.play.Game.take_turn` does, in fewer steps.

When nobody watches a game (no observer, no record) and every virtual seat chooses uniformly
by a rule of the card alone (``Game.quick``), a turn needs no protocol run: the valid cards
of a hand are those whose ids a set per public state holds, and the choice is one draw of
the game's generator. :func:`play_turns` plays such a hand's turns with the game's state in
local names, and makes the same draws, log entries, statistics and final state as the
general loop (a test plays both on many seeds and rule sets and compares everything;
``python bench/rule_fingerprint.py`` hashes thousands of games to compare two versions).
The valid ids are looked up once per public state, the usual draw (one card, played if valid)
and the card effects are played in the loop (a challenged wild draw four and the other draw
rules call the game), and turns are logged as tuples.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from ... import randomness
from ...cards import Symbol
from ..virtual import Seat, VirtualStats
from .record import HandResult, Turn, TurnRow, draws_note
from .rules import Effect, RuleSet


class QuickGame(Protocol):
    """What :func:`play_turns` uses of a :class:`~.play.Game` (which plays its hands with it): a
    protocol, so that this module need not import the one that imports it. Read only but for
    ``color``, ``direction`` and ``after_play``, which the loop gives back."""

    color: str
    direction: int
    after_play: int

    @property
    def rules(self) -> RuleSet: ...
    @property
    def seats(self) -> list[Seat]: ...
    @property
    def hands(self) -> list[list[Symbol]]: ...
    @property
    def draw_pile(self) -> list[Symbol]: ...
    @property
    def discard(self) -> list[Symbol]: ...
    @property
    def log(self) -> list[Turn | TurnRow]: ...
    @property
    def stats(self) -> VirtualStats: ...
    @property
    def rng(self) -> random.Random: ...
    @property
    def below(self) -> Callable[[int], int]: ...
    @property
    def bluff(self) -> bool: ...
    @property
    def discard_owner(self) -> bool: ...
    @property
    def draw_in_run(self) -> bool: ...
    @property
    def virtual_draw(self) -> str: ...
    def validity(self, seat: int) -> Callable[[Symbol], bool]: ...
    def effects(
        self,
        seat: int,
        kind: str,
        effects: list[Effect],
        record: Turn,
        previous_color: str,
        hand: list[Symbol],
    ) -> None: ...
    def draw_cards(self, seat: int, count: int) -> list[Symbol]: ...
    def choose_color(self, seat: int) -> str: ...
    def went_out(self, seat: int, turn: int) -> HandResult: ...
    def blocked(self, turn: int, ended: bool = True) -> HandResult: ...
    @staticmethod
    def person_choice(hand: list[Symbol], candidates: list[Symbol]) -> Symbol: ...


def play_turns(game: QuickGame, current: int, max_turns: int) -> HandResult:
    """The turns of the hand ``game`` has dealt, ``current`` first, to the hand's end."""
    rules = game.rules
    n = len(game.seats)
    hands = game.hands
    virtual = [s.virtual for s in game.seats]
    bluffs = [s.virtual and game.bluff for s in game.seats]  # the rule each seat plays by
    stats = game.stats
    table = stats.tables.append
    chose = stats.raw_choices.append
    log = game.log.append
    allowed = rules.allowed_by_state
    played_as = rules._played
    rng = game.rng
    plain = randomness.plain(rng)
    bits = rng.getrandbits
    below = game.below
    discard_owner = game.discard_owner
    draw_in_run = game.draw_in_run
    # The draw rule of most rule sets, played here without a call: draw one card, play it if
    # it is valid (a virtual player too: one protocol run, or a second one).
    one_draw = rules.draw_until == 1 and rules.draw_count == 1 and rules.play_drawn == "if_valid"
    keep = game.virtual_draw == "keep"
    # For the card effects: the seats' names, the colours a virtual player names, whether a
    # reverse skips (two players), whether a wild draw four may be challenged.
    names = [s.name for s in game.seats]
    colors = list(rules.colors)
    choice = rng.choice
    reverse_skips = n == 2 and rules.two_player_reverse == "skip"
    challenge = rules.challenge
    # The game's state in local names, given back to the game before a call that reads it: the
    # piles (the same lists until a draw makes the discard pile the draw pile), the colour in
    # force, the direction, the seat after this turn's.
    draw_pile, discard = game.draw_pile, game.discard
    color, direction = game.color, game.direction
    # Per seat: the owners in the protocol's order at its turn (P_1 first, the draw pile last),
    # for the table sizes; made again when a draw makes the discard pile the draw pile.
    twice = hands + hands
    order = [(*twice[s : s + n], draw_pile) for s in range(n)]
    width = 0 if discard_owner else n  # 2-4: the table's sizes are spelt out below
    # The ids of the valid cards in the public state (top card, colour) without and with the
    # bluff rule: None until a turn asks, again after every card played.
    ok_plain: frozenset[int] | None = None
    ok_bluff: frozenset[int] | None = None
    passes = virtual_turns = 0
    after = current
    result: HandResult | None = None
    for turn in range(1, max_turns + 1):
        seat = current
        after = (seat + direction) % n
        bluff = bluffs[seat]
        ok = ok_bluff if bluff else ok_plain
        if ok is None:
            key = (discard[-1].id, color, bluff)
            ok = allowed.get(key)
            if ok is None:
                game.color = color
                ok = allowed[key] = rules.allowed_ids(game.validity(seat))
            if bluff:
                ok_bluff = ok
            else:
                ok_plain = ok
        hand = hands[seat]
        candidates: list[Symbol] = [c for c in hand if c.id in ok]
        m = len(candidates)
        card: Symbol | None = None
        if virtual[seat]:
            virtual_turns += 1
            o = order[seat]
            if width == 4:  # the sizes spelt out for the usual tables: a third of map's time
                table(((len(o[0]), len(o[1]), len(o[2]), len(o[3]), len(o[4])), m > 0))
            elif width == 3:
                table(((len(o[0]), len(o[1]), len(o[2]), len(o[3])), m > 0))
            elif width == 2:
                table(((len(o[0]), len(o[1]), len(o[2])), m > 0))
            elif discard_owner:
                table(((*map(len, o), len(discard) - 1), m > 0))
            else:
                table((tuple(map(len, o)), m > 0))
            if m:
                if plain:
                    k = m.bit_length()
                    r = bits(k)
                    while r >= m:
                        r = bits(k)
                else:
                    r = below(m)
                card = candidates[r]
                chose((candidates, card))
        elif m:
            card = game.person_choice(hand, candidates)
        if card is None:
            # The turn's one protocol run draws for a virtual player (the draw pile as it is).
            in_run = draw_in_run and virtual[seat] and bool(draw_pile)
            if one_draw and draw_pile:
                # Draw one card and play it if it is valid (what _draw does, without a call).
                card = draw_pile.pop()
                hand.append(card)
                drew = 1
                if card.id not in ok or (keep and virtual[seat]):
                    action, card = "draw", None
                else:
                    action = "draw-play"
                    if virtual[seat]:
                        if not in_run:  # the table runs the protocol again on the new table
                            if discard_owner:
                                table(((*map(len, order[seat]), len(discard) - 1), True))
                            else:
                                table((tuple(map(len, order[seat])), True))
                        if plain:  # the choice of one card draws a bit all the same
                            while bits(1):
                                pass
                        else:
                            below(1)
                        chose(([card], card))
                if card is None and virtual[seat] and not in_run and not keep:
                    if discard_owner:
                        table(((*map(len, order[seat]), len(discard) - 1), False))
                    else:
                        table((tuple(map(len, order[seat])), False))
            else:
                card, action, drew = _draw(game, seat, ok, in_run, order[seat][:n])
                if game.draw_pile is not draw_pile:  # the discard pile became the draw pile
                    draw_pile, discard = game.draw_pile, game.discard
                    order = [(*o[:n], draw_pile) for o in order]
            if card is None:
                log((turn, seat + 1, action, None, None, drew))
                passes = passes + 1 if not drew else 0
                if passes >= n:
                    result = game.blocked(turn)
                    break
                current = after
                continue
        else:
            action, drew = "play", 0
        i = 0
        while hand[i] is not card:  # the first card identical to it (see play._remove)
            i += 1
        del hand[i]
        discard.append(card)
        kind, now, effects = played_as.get(card.id) or rules.played_as(card)
        if effects and not (challenge and kind == "wild4"):
            # Game.effects without a call: the same draws, notes and state (a wild draw four
            # under the challenge rule takes the call).
            named: str | None = None
            note = ""
            skip = False
            for e in effects:
                what = e.kind
                if what == "choose_color":
                    now = named = choice(colors) if virtual[seat] else game.choose_color(seat)
                elif what == "reverse":
                    if reverse_skips:
                        skip = True
                    else:
                        direction = -direction
                        after = (seat + direction) % n
                elif what == "skip":
                    skip = True
                elif what == "draw":
                    victim = (seat + direction) % n
                    count = e.count
                    if len(draw_pile) >= count:
                        victim_hand = hands[victim]
                        for _ in range(count):
                            victim_hand.append(draw_pile.pop())
                    else:  # the discard pile is shuffled in
                        game.draw_cards(victim, count)
                        if game.draw_pile is not draw_pile:
                            draw_pile, discard = game.draw_pile, game.discard
                            order = [(*o[:n], draw_pile) for o in order]
                    note = f"{names[victim]} draws {count}"
            if skip:
                skipped = (seat + direction) % n
                after = (seat + 2 * direction) % n
                if skipped != seat:
                    who = names[skipped]
                    if draws_note(who).search(note):
                        note += " and misses a turn"
                    elif note:
                        note += f"; {who} misses a turn"
                    else:
                        note = f"{who} misses a turn"
            log((turn, seat + 1, action, card.glyph, named, drew, 0, note))
            color = now
        elif effects:
            record = Turn(turn, seat + 1, action, card.glyph, None, drew)
            game.color, game.direction, game.after_play = now, direction, after
            game.effects(seat, kind, effects, record, color, hand)
            log(record)
            if game.draw_pile is not draw_pile:
                draw_pile, discard = game.draw_pile, game.discard
                order = [(*o[:n], draw_pile) for o in order]
            color, direction, after = game.color, game.direction, game.after_play
        else:
            log((turn, seat + 1, action, card.glyph, None, drew))
            color = now
        ok_plain = ok_bluff = None
        if not hand:
            game.color = color
            result = game.went_out(seat, turn)
            break
        passes = 0
        current = after
    if result is None:
        result = game.blocked(max_turns, ended=False)
    game.color, game.direction, game.after_play = color, direction, after
    stats.virtual_turns += virtual_turns
    return result


def _draw(
    game: QuickGame, seat: int, ok: frozenset[int], in_run: bool, owners: tuple[list[Symbol], ...]
) -> tuple[Symbol | None, str, int]:
    """A turn of ``seat`` with no valid card (``ok``: the valid ids): it draws, one card at a time
    up to ``draw_until`` cards, until one may be played (``in_run``: the turn's one protocol run
    drew it). The card played of those drawn (or None), the action, the cards drawn."""
    rules = game.rules
    is_virtual = game.seats[seat].virtual
    hand = game.hands[seat]
    action, drew = "pass", 0
    for _ in range(rules.draw_until):
        drawn = game.draw_cards(seat, rules.draw_count)
        if not drawn:
            break
        action, drew = "draw", drew + len(drawn)
        if is_virtual and game.virtual_draw == "keep":
            break
        if rules.play_drawn != "if_valid":
            continue
        playable = [c for c in drawn if c.id in ok]
        card: Symbol | None = None
        if is_virtual:
            if not in_run:  # the table runs the protocol again on the new table
                sizes = (*map(len, owners), len(game.draw_pile))
                if game.discard_owner:
                    sizes += (len(game.discard) - 1,)
                game.stats.tables.append((sizes, bool(playable)))
            if playable:
                card = playable[game.below(len(playable))]
                game.stats.raw_choices.append((playable, card))
        elif playable:
            card = game.person_choice(hand, playable)
        if in_run or card is not None:
            return card, "draw-play" if card is not None else action, drew
    return None, action, drew
