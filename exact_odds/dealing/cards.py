"""Cards as small integers: the codes every dealer, shuffle and study works with.

A card is coded ``4 * (rank - 1) + suit`` (0-51; ranks ace = 1 to king = 13, suits in
the order of :data:`~exact_odds.core.shoe.SUITS`: spades, hearts, diamonds, clubs). A shoe whose
suits are unknown (rank counts not divisible by four) is dealt with every card coded as a
spade, and then cannot settle suited bets.

>>> from exact_odds.core.shoe import parse_card
>>> card_code(parse_card("Kh")), code_card(49), card_point(49), burn_value(49)
(49, Card(rank=<Rank.KING: 13>, suit=<Suit.HEARTS: 'h'>), 0, 10)
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from exact_odds.core.shoe import RANKS, SUITS, Card, Shoe

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

CARD_CODES = 52
"""Number of card codes."""


def card_code(card: Card) -> int:
    """The code of a card: ``4 * (rank - 1) + suit index`` (a card without a suit counts as a spade)."""
    return 4 * (card.rank - 1) + (SUITS.index(card.suit) if card.suit is not None else 0)


def code_card(code: int, *, suited: bool = True) -> Card:
    """The card of a code (without its suit when ``suited`` is false)."""
    return Card(RANKS[code // 4], SUITS[code % 4] if suited else None)


def card_point(code: int) -> int:
    """The baccarat point value of a card code: ace 1, 2-9 the pip value, ten and court cards 0."""
    return RANKS[code // 4].point


def burn_value(code: int) -> int:
    """How many cards a turned card orders burned: ace 1, 2-9 the pip value, ten and court cards 10.

    The burn of Wizard of Odds, "Baccarat" rules (wizardofodds.com/games/baccarat/basics).
    """
    return card_point(code) or 10


@lru_cache(maxsize=1)
def point_lookup() -> NDArray[np.int16]:
    """:func:`card_point` of every card code, as an array indexed by code (for the vectorised dealer)."""
    import numpy as np

    out: NDArray[np.int16] = np.array([card_point(c) for c in range(CARD_CODES)], dtype=np.int16)
    out.flags.writeable = False
    return out


def shoe_card_codes(shoe: Shoe) -> list[int]:
    """Every card of the shoe (one deck's worth of weight for the infinite deck) as codes, sorted."""
    codes: list[int] = []
    for i in range(13):
        if shoe.suited is not None:
            for s, n in enumerate(shoe.suited[i]):
                codes += [4 * i + s] * n
        else:
            codes += [4 * i] * shoe.counts[i]
    return codes


def shoe_of_codes(codes: list[int], *, suited: bool) -> Shoe:
    """The shoe made of the cards ``codes`` (with its suits when ``suited``)."""
    by_code = [0] * CARD_CODES
    for c in codes:
        by_code[c] += 1
    counts = tuple(sum(by_code[4 * i:4 * i + 4]) for i in range(13))
    return Shoe(counts, tuple(tuple(by_code[4 * i:4 * i + 4]) for i in range(13)) if suited else None)
