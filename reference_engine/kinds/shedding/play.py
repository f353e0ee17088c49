"""Playing a whole game from a rule set, with human seats and virtual players.

Human seats follow a simple fixed policy (they stand in for people). A virtual player
chooses uniformly among its valid cards:

* at ``rule`` level the engine draws that choice directly;
* at ``card`` level every virtual turn runs the rule set's protocol spec (the card
  selection protocol) on the simulated table: every hand and the draw pile are laid out,
  theta and alpha/beta cards come from the supply, and after each run the engine checks
  that the played card was valid (or that none was), that every other card went back to
  its owner, that no card was created or lost, that every helper card went back to the
  supply, and that the run used the shuffles and helper cards the paper states.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from ... import randomness
from ...cards import Symbol
from ...collector import paused
from ...errors import CheckFailure, UsageError
from ...records.recorder import Recorder
from ...registry import Library
from ...selection import CallCache, check_fallback, check_selection, draw_pile, run_selection
from ..game import TableGame
from ..result import Json, ScoredResult, VirtualWork
from ..strategy import WEIGHTED_PROTOCOL, Strategy, weighted_pick
from ..virtual import VirtualStats
from .quickhand import play_turns
from .record import HandResult, SheddingRecord, Turn, TurnRow, draws_note, logged
from .rules import Effect, RuleSet, hand_dependence_message

MAX_TURNS = 5000


@dataclass
class Stats(VirtualStats):
    # The largest table a virtual turn saw: cards per seat, in the draw pile, under the top card.
    largest_hand: dict[int, int] = field(default_factory=dict)
    largest_draw: int = 0
    largest_discard: int = 0
    largest_table: int = 0


@dataclass
class SheddingResult(ScoredResult):
    """A shedding game: its hands (each with its winner, turns and points), the scores of a game
    to a target score, and the virtual players' strategy when it is not the uniform one."""

    json_keys = "scores hands turns *work strategy? hand_results log"

    hands: int
    strategy: Json | None
    hand_results: list[Json]
    # Every hand's turns, as the game logged them: made into JSON only when asked (to_json).
    entries: list[list[Turn | TurnRow]]

    @property
    def weights(self) -> Json | None:
        weights = self.strategy.get("weights") if self.strategy else None
        return weights if isinstance(weights, dict) and weights else None

    @property
    def log(self) -> list[list[Json]]:
        return [[logged(t).to_json() for t in hand] for hand in self.entries]

    def rounds_log(self) -> list[list[Json]]:
        return self.log


class Game(TableGame[RuleSet]):
    """One game: hands until someone reaches the target score (or one hand without scoring)."""

    def __init__(
        self,
        rules: RuleSet,
        library: Library | None = None,
        *,
        players: int | None = None,
        virtual: int = 1,
        level: str = "card",
        seed: int = 0,
        wild4: str = "strict",
        discard_owner: bool = False,
        protocol: str | None = None,
        hands: int | None = None,
        recorder: Recorder | None = None,
        virtual_draw: str | None = None,
        strategy: Strategy | None = None,
        weighted_seats: Collection[int] | None = None,
    ):
        super().__init__(
            rules,
            library or Library(),
            players=players,
            virtual=virtual,
            level=level,
            seed=seed,
            protocol=protocol,
            recorder=recorder,
        )
        if wild4 not in ("strict", "bluff"):
            raise UsageError(f"«wild4» is strict or bluff, not {wild4!r}")
        if virtual and rules.hand_dependent and wild4 != "bluff":
            raise UsageError(hand_dependence_message(rules))
        if wild4 == "bluff" and rules.bluff_valid is None:
            raise UsageError(f"{rules.name} has no bluff rule for virtual players («wild4» bluff)")
        self.bluff = wild4 == "bluff"
        self.discard_owner = discard_owner
        # A virtual player's strategy (issue 28): uniform among its valid cards (the paper), or
        # weighted by public weights, which the weighted selection protocol runs at card level.
        self.strategy = strategy or Strategy()
        self.weight: Callable[[Any], int] | None = None
        self.protocol_params: dict[str, Any] = {}
        if self.strategy.weights is not None:
            self.strategy.weights.check_names(rules.weight_names(), rules.name)
            self.weight = self.strategy.weights.function(rules.classify)
            self.protocol_params = {"w": self.strategy.weights.largest}
        # The virtual seats (1, 2, ...) that follow the weights; the others choose uniformly. Only at
        # rule level can seats differ (a card-level game runs one protocol): bench/strategy.py
        # plays a weighted virtual player against a uniform one.
        self.weighted_seats = set(range(1, virtual + 1) if weighted_seats is None else weighted_seats)
        if (
            weighted_seats is not None
            and level == "card"
            and self.weighted_seats != set(range(1, virtual + 1))
        ):
            raise UsageError("at card level every virtual player follows the same strategy")
        default_protocol = WEIGHTED_PROTOCOL if self.strategy.weighted else rules.virtual_protocol
        self.protocol_name = protocol or default_protocol
        self.max_hands = hands
        self.virtual_draw = virtual_draw or rules.virtual_draw
        if self.virtual_draw not in ("play", "keep"):
            raise UsageError(f"virtual_draw is play or keep, not {self.virtual_draw!r}")
        if self.virtual_draw == "keep" and (rules.play_drawn != "if_valid" or rules.draw_until > 1):
            raise UsageError(f"in {rules.name} a virtual player cannot keep a drawn card it may not play")
        # Whether a virtual player's turn with the draw rule is one protocol run (a spec that
        # draws for P_1 itself, card-selection-draw): the drawn card is a random sleeve of the
        # draw pile, set aside in the same run, and played if it is valid. Else a virtual player
        # with no valid card draws like a person and the table runs the protocol again (the UNO
        # paper, Section 3.2) or, with "keep", keeps the card.
        self.draw_in_run = False
        if virtual and self.protocol_name != WEIGHTED_PROTOCOL:
            spec = self.library.protocol(self.protocol_name)
            if draw_pile(spec, 2, {"draw": 1}) is not None:
                self.draw_in_run = draws_in_run(rules, self.virtual_draw)
                self.protocol_params = {"draw": int(self.draw_in_run), "discard": int(discard_owner)}
        self.drawn_in_run: Symbol | None = None  # the card the last run drew for P_1 (draw_in_run)
        self.stats = Stats()
        # Called at every virtual decision before the choice: observer(game, seat, valid). When it
        # returns True the game stops there (see run_until): ``stopped`` holds (seat, valid).
        self.observer: Callable[[Game, int, Any], bool | None] | None = None
        self.stopped: tuple[int, Any] | None = None
        self.cache = CallCache()  # outcomes of small sub-protocols (the six-card AND), kept for the game
        # Whether a validity rule (plain or bluff) reads the hand; if not, Game.validity keeps
        # one rule per public state (top card, colour).
        self.hand_rule = rules.valid.uses("hand") or (
            rules.bluff_valid is not None and rules.bluff_valid.uses("hand")
        )
        self.validities = rules.by_state
        self.below: Callable[[int], int] = randomness.drawer(self.rng)  # randrange(n), same numbers
        self.quick = [False] * len(self.seats)  # per seat: choices on the quick path (set by play)
        self.quick_hands = False  # whether hands take the quick loop (set by play)
        self.scores = [0] * len(self.seats)
        self.results: list[HandResult] = []
        self.rec = SheddingRecord(recorder, self) if recorder is not None else None
        if virtual and level == "card":
            self.protocol = self.library.protocol(self.protocol_name)
            check_selection(self.protocol)  # the validity rule, the hands, the card played
            check_fallback(self.protocol, False, rules.name, rules.virtual_protocol)
            takes_weights = "weight" in self.protocol.context
            if self.strategy.weighted and not takes_weights:
                raise UsageError(
                    f"{self.protocol_name} chooses uniformly; «strategy» weighted needs a protocol that "
                    f"takes the weights ('weight'), such as {WEIGHTED_PROTOCOL}"
                )
            if takes_weights and not self.strategy.weighted:
                raise UsageError(
                    f"{self.protocol_name} needs weights: give «strategy» weighted «weights» ..."
                )

    # -- the whole game ----------------------------------------------------------------
    def play(self) -> SheddingResult | None:
        # Per seat: whether its choices take the quick path (see quick_choice).
        quick = self.level == "rule" and self.observer is None and not self.hand_rule
        self.quick = [
            quick and s.virtual and not (self.weight is not None and s.number in self.weighted_seats)
            for s in self.seats
        ]
        # Whether whole hands take the quick loop (quickhand.py): every virtual seat is quick and
        # nobody records the game.
        self.quick_hands = (
            quick and self.rec is None and all(q or not s.virtual for q, s in zip(self.quick, self.seats))
        )
        if self.level == "card":
            # The cyclic collector waits for the end of a card-level game, and what the game
            # leaves (the compiled steps' kept plans and answers) goes to the oldest generation
            # unwalked (see collector.py).
            with paused(promote=True):
                return self._play()
        return self._play()

    def _play(self) -> SheddingResult | None:
        target = self.rules.target_score
        while True:
            result = self.play_hand()
            if result is None:  # stopped by the observer
                return self.summary() if self.results else None
            self.results.append(result)
            self.scores[result.winner - 1] += result.points
            if self.rec:
                self.rec.hand_end(result)
            if target is None or max(self.scores) >= target:
                break
            if self.max_hands is not None and len(self.results) >= self.max_hands:
                break
        return self.summary()

    def summary(self) -> SheddingResult:
        if self.rules.target_score is not None:
            best = max(range(len(self.scores)), key=lambda i: (self.scores[i], -i))
            winner = best + 1
        else:
            winner = self.results[-1].winner
        return SheddingResult(
            **self.result_head(),
            winner=winner,
            winner_name=self.seats[winner - 1].name,
            turns=sum(r.turns for r in self.results),
            work=VirtualWork.of(self.stats),
            points=self.scores if self.rules.target_score is not None else None,
            hands=len(self.results),
            strategy=self.strategy.describe() if self.strategy.weighted else None,
            hand_results=[
                {"winner": r.winner, "turns": r.turns, "points": r.points, "reason": r.reason}
                for r in self.results
            ],
            entries=[r.log for r in self.results],
        )

    # -- one hand ---------------------------------------------------------------------
    def run_until(self, stop: Callable[[Game, int, Any], bool]) -> tuple[int, Any] | None:
        """Play until ``stop(game, seat, valid)`` holds at a virtual decision, and stop there:
        (the seat, its validity rule), or None when the game ended first. The game's state
        (hands, piles, top card) is that moment's."""
        self.observer = stop
        self.play()
        return self.stopped

    def play_hand(self) -> HandResult | None:
        rules = self.rules
        n = len(self.seats)
        deck = rules.deck()
        randomness.shuffle(self.rng, deck)
        size = rules.hand_size_for(n)
        self.hands: list[list[Symbol]] = _deal(deck, size, n)
        self.draw_pile = deck
        self.discard: list[Symbol] = []
        self.direction = 1
        self.log: list[Turn | TurnRow] = []
        current = self.rng.randrange(n)
        if self.rec:
            self.rec.deal()
        turned = []
        # The first card of the discard pile.
        while True:
            top = self.draw_pile.pop()
            turned.append(top)
            self.discard.append(top)
            effects = rules.first_card.get(str(top.attrs["kind"]), [])
            if any(e.kind == "redraw" for e in effects):
                self.draw_pile.insert(0, self.discard.pop())
                self.rng.shuffle(self.draw_pile)
                continue
            break
        self.color = str(top.attrs["color"])
        if self.rec:
            self.rec.first_card(turned, current)
        skip_first = False
        for e in effects:
            if e.kind == "choose_color":
                self.color = self.choose_color(current)
            elif e.kind == "reverse":
                # "If this card is turned up at the beginning of play, the dealer goes first, then
                # play moves to the right" (official rules): the dealer sits before the first
                # player, with two players as with more.
                self.direction = -1
                current = (current - 1) % n
            elif e.kind == "draw":
                self.draw_cards(current, e.count)
            elif e.kind == "skip":
                skip_first = True
        if skip_first:
            self.log.append(
                Turn(0, current + 1, "skipped", note=f"the first card {top.glyph} skips this player")
            )
            if self.rec:
                self.rec.first_card_done(current)
            current = self.next_seat(current)
        elif self.rec:
            self.rec.first_card_done(None)
        if self.quick_hands:
            return play_turns(self, current, MAX_TURNS)
        passes = 0
        for turn in range(1, MAX_TURNS + 1):
            action = self.take_turn(turn, current)
            if action == "stopped":
                return None
            if not self.hands[current]:
                return self.went_out(current, turn)
            passes = passes + 1 if action == "pass" else 0
            if passes >= n:
                return self.blocked(turn)
            current = self.after_play
        return self.blocked(MAX_TURNS, ended=False)

    def went_out(self, seat: int, turn: int) -> HandResult:
        """The hand's result when ``seat`` has played its last card at ``turn``."""
        points = sum(self.rules.points(h) for i, h in enumerate(self.hands) if i != seat)
        return HandResult(seat + 1, turn, points, "went out", self.log)

    def blocked(self, turn: int, ended: bool = True) -> HandResult:
        """The hand's result when nobody could play or draw for a whole round at ``turn`` (``ended``
        False: it was stopped after MAX_TURNS turns): the fewest points win."""
        rules, hands = self.rules, self.hands
        winner = min(range(len(hands)), key=lambda i: (rules.points(hands[i]), i))
        if not ended:
            return HandResult(winner + 1, turn, 0, f"stopped after {turn} turns", self.log)
        points = sum(rules.points(h) for i, h in enumerate(hands) if i != winner)
        return HandResult(winner + 1, turn, points, "nobody could play or draw", self.log)

    def next_seat(self, seat: int, steps: int = 1) -> int:
        return (seat + self.direction * steps) % len(self.seats)

    @property
    def top(self) -> Symbol:
        return self.discard[-1]

    def validity(self, seat: int) -> Any:
        virtual = self.seats[seat].virtual
        if not self.hand_rule:  # the rule reads only the card and the public state: cached per state
            top = self.discard[-1]
            bluff = virtual and self.bluff
            key = (top.id, self.color, bluff)
            hit = self.validities.get(key)
            if hit is None:
                hit = self.validities[key] = self.rules.validity(top, self.color, None, bluff=bluff)
            return hit
        return self.rules.validity(self.top, self.color, self.hands[seat], bluff=virtual and self.bluff)

    # -- a turn -----------------------------------------------------------------------
    def take_turn(self, index: int, seat: int) -> str:
        self.after_play = (seat + self.direction) % len(self.seats)
        valid = self.validity(seat)
        record = Turn(index, seat + 1, "play")
        rec = self.rec
        if rec:
            rec.begin_turn(index, seat)
        if self.seats[seat].virtual:
            self.stats.virtual_turns += 1
        # A virtual turn with the draw rule in one run: the run itself draws when the draw pile
        # holds a card (with an empty one, the discard pile is shuffled in by the draw below,
        # and the protocol runs again, as the paper does).
        in_run = self.seats[seat].virtual and self.draw_in_run and bool(self.draw_pile)
        self.drawn_in_run = None
        if self.quick[seat]:
            card = self.quick_choice(seat, valid)
        else:
            card = self.choose(seat, valid, record)
            if self.stopped is not None:
                return "stopped"
        if in_run and self.level == "card":
            drawn_card = self.drawn_in_run
            if drawn_card is not None:  # the run drew it: played (card), or now in the hand
                record.action, record.drew = ("draw-play" if card is not None else "draw"), 1
                if self.rec:
                    self.rec.drew(seat, [drawn_card], 1, None)
            elif card is None:
                raise CheckFailure(f"turn {index}: the protocol played no card and drew none")
            if card is None:
                self.log_turn(record, None)
                return "draw"
        elif card is None:
            # Draw (one card at a time, up to draw_until cards, until one may be played).
            for _ in range(self.rules.draw_until):
                drawn = self.draw_cards(seat, self.rules.draw_count)
                if not drawn:
                    break
                record.action, record.drew = "draw", record.drew + len(drawn)
                if self.seats[seat].virtual and self.virtual_draw == "keep":
                    break  # it may play the drawn card, and keeps it: no second run
                if self.rules.play_drawn == "if_valid":
                    valid = self.validity(seat)
                    if in_run:
                        # Rule level: the one run of the turn set this card aside and turned its
                        # pair; no second run (the choice draws the same numbers as a second run).
                        card = self.choose(seat, valid, record, only=drawn, run=False)
                        if card is not None:
                            record.action = "draw-play"
                        break
                    # A person looks at the drawn card. Nobody can look at a virtual player's:
                    # the table runs the protocol again every time (UNO paper, Section 3.2),
                    # and only its public outcome says whether the drawn card is played.
                    if self.seats[seat].virtual or any(valid(c) for c in drawn):
                        card = self.choose(seat, valid, record, only=drawn)
                        if self.stopped is not None:
                            return "stopped"
                        if card is not None:
                            record.action = "draw-play"
                            break
            if not record.drew:
                record.action = "pass"
                self.log_turn(record, None)
                return "pass"
            if card is None:
                self.log_turn(record, None)
                return "draw"
        previous_color = self.color
        hand = self.hands[seat]  # a protocol run gives every hand back as a new list
        _remove(hand, card)
        self.discard.append(card)
        record.card = card.glyph
        kind, self.color, effects = self.rules.played_as(card)
        if effects:
            self.effects(seat, kind, effects, record, previous_color, hand)
        self.log.append(record)
        if rec:
            rec.end_turn(record, card)
        return "play"

    def effects(
        self,
        seat: int,
        kind: str,
        effects: list[Effect],
        record: Turn,
        previous_color: str,
        hand: list[Symbol],
    ) -> None:
        """What playing a card of ``kind`` does besides going on the discard pile."""
        skip = False
        seats = self.seats
        n = len(seats)
        for e in effects:
            what = e.kind
            if what == "choose_color":
                self.color = record.color = self.choose_color(seat)
            elif what == "reverse":
                if n == 2 and self.rules.two_player_reverse == "skip":
                    skip = True
                else:
                    self.direction = -self.direction
                    self.after_play = (seat + self.direction) % n
            elif what == "skip":
                skip = True
            elif what == "draw":
                victim = (seat + self.direction) % n
                if kind == "wild4" and self.rules.challenge and self.challenges(victim):
                    guilty = any(c.attrs["color"] == previous_color for c in hand)
                    record.challenge = (victim, guilty)
                    if guilty:
                        self.draw_cards(seat, e.count)
                        who = seats[seat].name
                        record.note = f"challenged: the wild draw four was a bluff, {who} draws {e.count}"
                        skip = False
                        break
                    self.draw_cards(victim, e.count + 2)
                    record.note = f"challenged without reason: {seats[victim].name} draws {e.count + 2}"
                    continue
                self.draw_cards(victim, e.count)
                record.note = f"{seats[victim].name} draws {e.count}"
        if skip:
            skipped = (seat + self.direction) % n
            self.after_play = (seat + 2 * self.direction) % n
            if skipped != seat:
                who = seats[skipped].name
                # Keep what the note says already (a draw, a challenge's outcome).
                if draws_note(who).search(record.note):
                    record.note += " and misses a turn"
                elif record.note:
                    record.note += f"; {who} misses a turn"
                else:
                    record.note = f"{who} misses a turn"

    def quick_choice(self, seat: int, valid: Any) -> Symbol | None:
        """:meth:`choose` for a virtual seat at rule level choosing uniformly with a rule of the
        card alone and nobody watching: the same draws and statistics, in fewer steps."""
        ok = self.rules.allowed_ids(valid)
        candidates: list[Symbol] = [c for c in self.hands[seat] if c.id in ok]
        lens = tuple(map(len, self.hands))  # the owners' sizes (see owners), not copies of them
        sizes = lens[seat:] + lens[:seat] + (len(self.draw_pile),)
        if self.discard_owner:
            sizes += (len(self.discard) - 1,)
        stats = self.stats
        stats.tables.append((sizes, bool(candidates)))
        if not candidates:
            return None
        pick: Symbol = candidates[self.below(len(candidates))]
        stats.raw_choices.append((candidates, pick))
        return pick

    def log_turn(self, record: Turn, card: Symbol | None) -> None:
        self.log.append(record)
        if self.rec:
            self.rec.end_turn(record, card)

    def challenges(self, seat: int) -> bool:
        """Human seats challenge a wild draw four half of the time; virtual players never do."""
        return not self.seats[seat].virtual and self.rng.random() < 0.5

    def draw_cards(self, seat: int, count: int) -> list[Symbol]:
        drawn: list[Symbol] = []
        reshuffled = None
        for _ in range(count):
            if not self.draw_pile:
                if len(self.discard) <= 1:
                    break
                top = self.discard.pop()
                self.draw_pile = self.discard
                randomness.shuffle(self.rng, self.draw_pile)
                self.discard = [top]
                reshuffled = (len(drawn), len(self.draw_pile))
            drawn.append(self.draw_pile.pop())
        self.hands[seat].extend(drawn)
        if self.rec:
            self.rec.drew(seat, drawn, count, reshuffled)
        return drawn

    def choose_color(self, seat: int) -> str:
        colors = list(self.rules.colors)
        if self.seats[seat].virtual:
            return self.rng.choice(colors)
        counts = Counter(str(c.attrs["color"]) for c in self.hands[seat] if c.attrs["color"] in colors)
        return max(colors, key=lambda c: (counts[c], -colors.index(c)))

    # -- choosing a card ----------------------------------------------------------------
    def choose(
        self, seat: int, valid: Any, record: Turn, only: list[Symbol] | None = None, run: bool = True
    ) -> Symbol | None:
        """The card ``seat`` plays (of ``only``, the cards it drew, when given), or None. A virtual
        seat's choice is a protocol run (at rule level, drawn directly); ``run`` False: the
        turn's one run already decided it (a rule-level draw inside card-selection-draw)."""
        hand = self.hands[seat]
        cards = only if only is not None else hand
        candidates: list[Symbol]
        if self.hand_rule:
            candidates = list(filter(valid, cards))
        else:
            ok = self.rules.allowed_ids(valid)  # a rule of the card alone: one set lookup per card
            candidates = [c for c in cards if c.id in ok]
        if not self.seats[seat].virtual:
            return self.person_choice(hand, candidates) if candidates else None
        if run and self.observer is not None and self.observer(self, seat, valid):
            self.stopped = (seat, valid)
            return None
        if run:
            lens = tuple(map(len, self.hands))  # the owners' sizes (see owners), not copies of them
            sizes = lens[seat:] + lens[:seat] + (len(self.draw_pile),)
            if self.discard_owner:
                sizes += (len(self.discard) - 1,)
            self.stats.tables.append((sizes, bool(candidates)))
        if self.level == "rule":
            if not candidates:
                return None
            if self.weight is not None and seat + 1 in self.weighted_seats:
                pick = weighted_pick(candidates, self.weight, self.rng)
            else:
                pick = candidates[self.below(len(candidates))]
            self.stats.note_choice(candidates, pick)
            return pick
        card = self.run_protocol(seat, valid, record, again=only is not None)
        if card is not None:
            # A card the run drew and played was the only candidate once drawn.
            self.stats.note_choice(candidates or [card], card)
        if only is not None and card is not None and card not in only:
            raise CheckFailure(
                f"turn {record.index}: after drawing, the protocol chose {card.glyph}, "
                "which is not the drawn card"
            )
        return card

    @staticmethod
    def person_choice(hand: list[Symbol], candidates: list[Symbol]) -> Symbol:
        """The card a person plays of ``candidates`` (not empty), the valid cards of ``hand``: wild
        cards are kept for later; the card worth most points, then the first in hand."""
        return max(candidates, key=lambda c: (c.attrs["color"] != "black", c.attrs["points"], -hand.index(c)))

    def note_table(self) -> None:
        """Remember how large the card selection table is now (for the bill of materials, which
        sets ``game.observer`` to call this at every virtual turn)."""
        st = self.stats
        for s, hand in enumerate(self.hands):
            st.largest_hand[s + 1] = max(st.largest_hand.get(s + 1, 0), len(hand))
        st.largest_draw = max(st.largest_draw, len(self.draw_pile))
        st.largest_discard = max(st.largest_discard, len(self.discard) - 1)
        table = sum(len(h) for h in self.hands) + len(self.draw_pile)
        st.largest_table = max(st.largest_table, table + (len(self.discard) - 1 if self.discard_owner else 0))

    def owners(self, seat: int) -> list[list[Symbol]]:
        """The card selection protocol's owners at ``seat``'s turn: P_1 is that seat, then the
        other seats in seat order, then the draw pile (and the discard pile under its top card)."""
        n = len(self.seats)
        owners = [list(self.hands[(seat + k) % n]) for k in range(n)] + [list(self.draw_pile)]
        if self.discard_owner:
            owners.append(list(self.discard[:-1]))
        return owners

    def run_protocol(self, seat: int, valid: Any, record: Turn, again: bool = False) -> Symbol | None:
        """One card-level run of the protocol spec on the whole simulated table, with checks.
        ``again``: the run after a draw (it draws no card itself)."""
        n = len(self.seats)
        order = [seat] + [(seat + k) % n for k in range(1, n)]
        # The owners as :meth:`owners` lists them, the game's own lists rather than copies: a run
        # reads its owners and never changes them, and every one of them is replaced below by
        # what the run gave back (no list of the game is both given and kept).
        hands = self.hands
        owners = [hands[s] for s in order]
        owners.append(self.draw_pile)
        if self.discard_owner:
            owners.append(self.discard[:-1])
        where = f"turn {record.index} ({self.seats[seat].name}, {self.protocol.name})"
        extra = {"weight": self.weight} if self.weight is not None else None
        run = run_selection(
            self.library,
            self.protocol,
            owners,
            valid,
            self.rng,
            self.cache,
            where,
            context=extra,
            params={**self.protocol_params, "draw": 0}
            if again and self.draw_in_run
            else self.protocol_params or None,
        )
        # Every hand goes back as the protocol returned it (the draw pile in its new random order).
        for s, cards in zip(order, run.returned):
            self.hands[s] = cards
        self.draw_pile = run.returned[n]
        if self.discard_owner:
            self.discard = run.returned[n + 1] + [self.top]
        if run.played is not None:
            self.hands[seat].append(run.played)  # it is played from the hand by the caller
        self.drawn_in_run = run.drawn
        self.stats.note_run(run)
        record.runs += 1
        if self.rec:
            self.rec.run(owners, run)
        return run.played


def _remove(cards: list[Symbol], card: Symbol) -> None:
    """``cards.remove(card)`` by identity: the deck's cards are interned, so the first identical
    card is the first equal one, found without comparing faces field by field."""
    try:
        # By the ids, compared in C (a card's id is its identity while it lives).
        del cards[list(map(id, cards)).index(id(card))]
    except ValueError:
        cards.remove(card)


def _deal(deck: list[Symbol], size: int, players: int) -> list[list[Symbol]]:
    """``players`` hands of ``size`` cards, each taken from the end of ``deck`` one card at a time
    (the last card first), as ``deck.pop()`` would, in slices."""
    if size < 1 or len(deck) < size * players:
        return [[deck.pop() for _ in range(size)] for _ in range(players)]
    hands = []
    for _ in range(players):
        hands.append(deck[: -size - 1 : -1])
        del deck[-size:]
    return hands


def draws_in_run(rules: RuleSet, virtual_draw: str) -> bool:
    """Whether a virtual player's protocol run draws its card itself under ``rules`` (with a spec
    that can, card-selection-draw or card-selection-arrow): only where a player with no valid
    card draws one card and plays it at once if valid (the UNO paper's rule), and the virtual
    player plays a drawn card (``virtual_draw`` "play"). Otherwise it draws like a person,
    between runs, or not at all."""
    one_draw = rules.draw_count == 1 and rules.draw_until == 1 and rules.play_drawn == "if_valid"
    return one_draw and virtual_draw == "play"
