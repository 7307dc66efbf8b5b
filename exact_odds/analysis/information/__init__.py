"""Partial information about the next coup, exactly: known cards, groups of cards, and their value.

What is known. The next coup is decided by the next six cards of the shoe, numbered in
dealing order: 1 and 3 go to the player, 2 and 4 to the banker, 5 is the fifth card (the
player's third if the player draws, else the banker's third if the banker draws, else not
used) and 6 the sixth (the banker's third after a player's third, else not used). A
:class:`Known` says which cards some positions may be: a rank, a card with its suit, or a set
of them (``Known.parse("1=7|8|9 5=7h")``). An :class:`Information` is a kind of information,
a partition of the cards at one or more positions into labelled groups (the rank of card 1;
high or low, as sorted edges reveal), whose *cases* are :class:`Known` values.

The convention for unused positions. A position is *that card of the shoe*, whether or not the
coup uses it: knowing that the fifth card is a 7 means the 7 is fifth in the shoe; if nobody
draws, the coup ends on four cards that were dealt from a shoe holding one 7 fewer, and the 7
stays where it is. This is the convention of the published known-card analyses (E. Jacobson,
"Baccarat: The Known Card", 2012: knowing the fifth card of an 8-deck shoe is worth 8.973%),
and the one under which the cases of any information add up to the odds of the shoe.

How it is counted. As in :func:`exact_odds.engine.enumerator.deal`: ordered six-card sequences, unused
cards included; the ways of a piece of knowledge are the sequences that agree with it, so
nothing is divided out and every figure is an integer. Probabilities and expectations are
exact fractions of them.

- :func:`deal_known`: the coup distribution given a :class:`Known`;
- :func:`deal_cases`: the coups split by the cases of an :class:`Information`, one enumeration;
- :func:`deal_dealt`: a coup under way (a prefix of the dealing order), counted over the
  positions still to come like :func:`exact_odds.analysis.conditional.deal_given` (same integers);
- :func:`advantage`: the best bet (or sitting out) in each case and the value per coup,
  ``E[max(EV, 0)]``; :func:`player_ev`: bets' expectations over a distribution;
- :func:`~exact_odds.analysis.information.bulk.first_card_values`: the first card's group for many
  compositions at once (for studies of edge sorting), with the bulk evaluator's kernel.

>>> from exact_odds.bets import find_bet
>>> from exact_odds.report import percent_text
>>> from exact_odds.core.shoe import Shoe
>>> sorted_edges = Information.grouped([1], {"high": "6|7|8|9"})
>>> worth = advantage(Shoe.decks(8), sorted_edges, [find_bet("banker"), find_bet("player")])
>>> [(case.case, case.best_bet, percent_text(case.best_ev, 3)) for case in worth.cases]
[(('high',), 'player', '11.736%'), (('other',), 'banker', '4.555%')]
>>> percent_text(worth.value, 3)
'6.765%'

Modules: :mod:`~exact_odds.analysis.information.knowledge` (positions, specs, kinds of information),
:mod:`~exact_odds.analysis.information.walk` (the enumeration), :mod:`~exact_odds.analysis.information.given`,
:mod:`~exact_odds.analysis.information.value`, :mod:`~exact_odds.analysis.information.bulk`.
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
