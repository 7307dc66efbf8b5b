"""Partial information about the next coup, exactly: known cards, groups of cards, and their value.

The next coup is decided by the next six cards of the shoe, positions 1-6 in dealing order. A
:class:`Known` says which cards some positions may be (``Known.parse("1=7|8|9 5=7h")``); an
:class:`Information` partitions the cards at one or more positions into labelled groups (the rank of card
1; high or low, as sorted edges reveal), whose *cases* are :class:`Known` values. A position is *that card
of the shoe*, used by the coup or not (the convention of the published known-card analyses: E. Jacobson,
"Baccarat: The Known Card", 2012), so the cases of any information add up to the odds of the shoe.
Ways count the ordered six-card sequences that agree with the knowledge, unused cards included, as
:func:`exact_odds.engine.enumerator.deal` does: every figure is an integer (``docs/study.md``, "Known
cards and edge sorting").

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

from exact_odds.analysis.information.given import Case, deal_cases, deal_dealt, deal_known
from exact_odds.analysis.information.knowledge import (
    OTHER,
    POSITION_NAMES,
    POSITIONS,
    Information,
    InformationError,
    Known,
)
from exact_odds.analysis.information.value import Advantage, CaseValue, advantage, player_ev

__all__ = ["OTHER", "POSITIONS", "POSITION_NAMES", "Advantage", "Case", "CaseValue", "Information", "InformationError",
           "Known", "advantage", "deal_cases", "deal_dealt", "deal_known", "player_ev"]
