"""Cards as small integers: ``4 * (rank - 1) + suit`` (0-51, suits in the order of
:data:`~exact_odds.core.shoe.SUITS`), the codes every dealer, shuffle and study works with. A shoe whose
suits are unknown is dealt as spades, and then cannot settle suited bets.

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


def card_code(card: Card) -> int:
    """The code of a card (a card without a suit counts as a spade)."""
    return 4 * (card.rank - 1) + (SUITS.index(card.suit) if card.suit is not None else 0)


def code_card(code: int, *, suited: bool = True) -> Card:
    """The card of a code (without its suit when ``suited`` is false)."""
    return Card(RANKS[code // 4], SUITS[code % 4] if suited else None)


def card_point(code: int) -> int:
    """The baccarat point value of a card code."""
    return RANKS[code // 4].point


def burn_value(code: int) -> int:
    """How many cards a turned card orders burned: its point value, 10 for a ten or a court card (Wizard of
    Odds, "Baccarat" rules, wizardofodds.com/games/baccarat/basics)."""
    return card_point(code) or 10


@lru_cache(maxsize=1)
def point_lookup() -> NDArray[np.int16]:
    """:func:`card_point` of every card code, as a read-only array."""
    import numpy as np

    out: NDArray[np.int16] = np.array([card_point(c) for c in range(CARD_CODES)], dtype=np.int16)
    out.flags.writeable = False
    return out


def shoe_card_codes(shoe: Shoe) -> list[int]:
    """Every card of the shoe (one deck's worth of weight for the infinite deck) as codes, sorted."""
    suited = shoe.suited or tuple((n, 0, 0, 0) for n in shoe.counts)  # unknown suits: all spades
    return [4 * i + s for i, row in enumerate(suited) for s, n in enumerate(row) for _ in range(n)]


def shoe_of_codes(codes: list[int], *, suited: bool) -> Shoe:
    """The shoe made of the cards ``codes`` (with its suits when ``suited``)."""
    by_code = [0] * CARD_CODES
    for c in codes:
        by_code[c] += 1
    counts = tuple(sum(by_code[4 * i:4 * i + 4]) for i in range(13))
    return Shoe(counts, tuple(tuple(by_code[4 * i:4 * i + 4]) for i in range(13)) if suited else None)
