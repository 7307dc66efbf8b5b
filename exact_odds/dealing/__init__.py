"""Dealing: how cards reach the table, which cards a seed deals, and the dealers that play them.

One dealing procedure, one shuffle and one vectorised dealer serve the simulator
(:mod:`exact_odds.witness.simulate`), the shoe studies (:mod:`exact_odds.study.run`) and the ``deal``,
``session`` and ``roads`` commands, so the same seed deals the same shoes everywhere.

- :mod:`~exact_odds.dealing.cards`: cards as codes ``4 * (rank - 1) + suit`` (0-51) and the
  burn value of a card.
- :mod:`~exact_odds.dealing.procedure`: :class:`Procedure` (fresh shoes, or burn, cut card
  and last-coup rule, after Wizard of Odds and Wikipedia) and :func:`burn`, the one account
  of what the burn removes and what it hides.
- :mod:`~exact_odds.dealing.shuffle`: seeds and shuffles (PCG64 through ``SeedSequence``,
  in blocks of fixed size, so a run depends only on its seed and options).
- :mod:`~exact_odds.dealing.dealer`: the vectorised dealer (:func:`deal_coups`,
  :func:`play_shoes`), through :func:`exact_odds.core.tableau.play_many` and
  :func:`exact_odds.core.coup.encode`.
- :mod:`~exact_odds.dealing.loops`: :func:`play_shoes` compiled (numba, the ``fast`` extra), shoe by
  shoe in one pass: the same coups, for the simulator's large runs.
- :mod:`~exact_odds.dealing.simple`: the scalar reference dealer (:func:`deal_coup_simple`,
  :func:`play_shoe_simple`), through :func:`exact_odds.core.tableau.play`, and one seeded shoe
  followed coup by coup (:func:`shoe_coup`, :func:`shoe_winners`).

The scalar and the vectorised dealer deal the first shoe of seed 7 alike:

>>> from exact_odds.core.shoe import Shoe
>>> from exact_odds.core.tableau import STANDARD_TABLEAU
>>> simple = play_shoe_simple(shoe_cards(Shoe.decks(8), seed=7))
>>> fast = play_shoes(shoe_orders(shoe_card_codes(Shoe.decks(8)), 7, 0, 1), STANDARD_TABLEAU, Procedure())
>>> [start for start, _ in simple] == fast.start.tolist()
True
"""

from exact_odds.dealing.cards import (
    CARD_CODES,
    burn_value,
    card_code,
    card_point,
    code_card,
    point_lookup,
    shoe_card_codes,
    shoe_of_codes,
)
from exact_odds.dealing.dealer import Progress, ShoePlay, compiled_dealer, deal_coups, play_shoes
from exact_odds.dealing.procedure import MAX_BURN, STANDARD_PROCEDURE, Burn, DealingError, LastCoup, Procedure, burn
from exact_odds.dealing.shuffle import (
    FRESH_BLOCK,
    SHOE_BLOCK,
    batch_end,
    block_rng,
    check_seed,
    fresh_six,
    random_seed,
    shoe_cards,
    shoe_orders,
    shoes_for,
    shuffled_shoes,
)
from exact_odds.dealing.simple import ShoeCoup, deal_coup_simple, play_shoe_simple, shoe_coup, shoe_winners

__all__ = [
    "CARD_CODES",
    "FRESH_BLOCK",
    "MAX_BURN",
    "SHOE_BLOCK",
    "STANDARD_PROCEDURE",
    "Burn",
    "DealingError",
    "LastCoup",
    "Procedure",
    "Progress",
    "ShoeCoup",
    "ShoePlay",
    "batch_end",
    "block_rng",
    "burn",
    "burn_value",
    "card_code",
    "card_point",
    "check_seed",
    "code_card",
    "compiled_dealer",
    "deal_coup_simple",
    "deal_coups",
    "fresh_six",
    "play_shoe_simple",
    "play_shoes",
    "point_lookup",
    "random_seed",
    "shoe_card_codes",
    "shoe_cards",
    "shoe_coup",
    "shoe_of_codes",
    "shoe_orders",
    "shoe_winners",
    "shoes_for",
    "shuffled_shoes",
]
