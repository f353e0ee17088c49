"""Solvers for the models of "UNO is hard, even for a single player" (Demaine et al., TCS 2014).

* :mod:`.solitaire` - SOLITAIRE UNO (UNO-1, NP-complete, Theorem 4): a memoised search on
  the UNO-1 graph, and (:mod:`.trails`) a dynamic programme polynomial for few colours or few
  numbers (Theorem 5); :mod:`.reasons` explains a "no" in a few words when it can.
* :mod:`.cooperative` - COOPERATIVE UNO-2 (NP-complete, Theorem 1): can the two players
  together make player 1 empty their hand first?
* :mod:`.uncooperative` - UNCOOPERATIVE UNO-2 (polynomial, Theorem 7): undirected vertex
  geography on the UNO-2 graph, decided by maximum matchings.
* :mod:`.puzzles` - puzzles for the printed puzzle kits, each checked by these solvers.

Everything returns data; nothing prints.
"""

from __future__ import annotations

from .cards import MAX_CARDS, Budget, Card, OutOfTime, cards_text, is_chain, parse_cards, same_cards
from .reasons import Reason, groups, why_no_chain
from .search import TrailSearch, trail_chain
from .solitaire import AUTO_EFFORT, DP_SIDE, METHODS, CardSearch, SolitaireResult, card_chain, solve_solitaire
from .trails import MAX_SIDE, dp_chain, smaller_side

__all__ = [
    "AUTO_EFFORT",
    "DP_SIDE",
    "MAX_CARDS",
    "MAX_SIDE",
    "METHODS",
    "Budget",
    "Card",
    "CardSearch",
    "OutOfTime",
    "Reason",
    "SolitaireResult",
    "TrailSearch",
    "card_chain",
    "cards_text",
    "dp_chain",
    "groups",
    "is_chain",
    "parse_cards",
    "same_cards",
    "smaller_side",
    "solve_solitaire",
    "trail_chain",
    "why_no_chain",
]
