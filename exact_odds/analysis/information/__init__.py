"""Partial information about the next coup, exactly: known cards, groups of cards, and their value.

Positions 1-6 are the next six cards of the shoe in dealing order, used by the coup or not (E. Jacobson,
"Baccarat: The Known Card", 2012); ways count ordered six-card sequences, so the cases of any information
add up to the odds of the shoe (``docs/study.md``, "Known cards and edge sorting").

>>> from exact_odds.bets import find_bet
>>> from exact_odds.report import percent_text
>>> from exact_odds.core.shoe import Shoe
>>> sorted_edges = Information.grouped([1], {"high": "6|7|8|9"})
>>> worth = advantage(Shoe.decks(8), sorted_edges, [find_bet("banker"), find_bet("player")])
>>> [(case.case, case.best_bet, percent_text(case.best_ev, 3)) for case in worth.cases]
[(('high',), 'player', '11.736%'), (('other',), 'banker', '4.555%')]
>>> percent_text(worth.value, 3)
'6.765%'
"""

from exact_odds.analysis.information.given import (
    Advantage,
    Case,
    CaseValue,
    advantage,
    deal_cases,
    deal_dealt,
    deal_known,
    player_ev,
)
from exact_odds.analysis.information.knowledge import (
    OTHER,
    POSITION_NAMES,
    POSITIONS,
    Information,
    InformationError,
    Known,
)

__all__ = ["OTHER", "POSITIONS", "POSITION_NAMES", "Advantage", "Case", "CaseValue", "Information", "InformationError",
           "Known", "advantage", "deal_cases", "deal_dealt", "deal_known", "player_ev"]
