"""Dealing: how cards reach the table, which cards a seed deals, and the dealers that play them.

One procedure, one shuffle and one vectorised dealer serve the simulator, the shoe studies and the
``deal``, ``session`` and ``roads`` commands, so the same seed deals the same shoes everywhere:
:mod:`~exact_odds.dealing.cards` (cards as codes 0-51), :mod:`~exact_odds.dealing.procedure` (burn,
cut card, last coup), :mod:`~exact_odds.dealing.shuffle` (seeds and shuffles),
:mod:`~exact_odds.dealing.dealer` (the vectorised dealer; :mod:`~exact_odds.dealing.loops` compiled)
and :mod:`~exact_odds.dealing.simple` (the scalar reference dealer). They deal seed 7's first shoe alike:

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

__all__ = ["CARD_CODES", "FRESH_BLOCK", "MAX_BURN", "SHOE_BLOCK", "STANDARD_PROCEDURE", "Burn", "DealingError",
           "LastCoup", "Procedure", "Progress", "ShoeCoup", "ShoePlay", "batch_end", "block_rng", "burn", "burn_value",
           "card_code", "card_point", "check_seed", "code_card", "compiled_dealer", "deal_coup_simple", "deal_coups",
           "fresh_six", "play_shoe_simple", "play_shoes", "point_lookup", "random_seed", "shoe_card_codes",
           "shoe_cards", "shoe_coup", "shoe_of_codes", "shoe_orders", "shoe_winners", "shoes_for", "shuffled_shoes"]
