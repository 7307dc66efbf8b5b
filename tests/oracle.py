"""A brute-force oracle: deal every ordered six-card sequence of a tiny shoe.

The rules here are written as plain if-statements from the printed tableau, independently
of ``exact_odds.tableau``, so the engine is checked against a second reading of the rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import permutations

from exact_odds.engine import Coup
from exact_odds.shoe import RANKS, SUITS, Card, Shoe


def point(card: Card) -> int:
    return card.rank.value if card.rank.value < 10 else 0


def banker_draws(banker: int, player_third: int | None) -> bool:
    """The standard banker rule, as printed."""
    if player_third is None:
        return banker <= 5
    if banker <= 2:
        return True
    if banker == 3:
        return player_third != 8
    if banker == 4:
        return 2 <= player_third <= 7
    if banker == 5:
        return 4 <= player_third <= 7
    if banker == 6:
        return player_third in (6, 7)
    return False


def play(cards: tuple[Card, ...]) -> Coup:
    """Play one coup from six cards in dealing order (P, B, P, B, then draws)."""
    p1, b1, p2, b2, *rest = cards
    player = (point(p1) + point(p2)) % 10
    banker = (point(b1) + point(b2)) % 10
    pc = bc = 2
    pair_p = p1.rank == p2.rank
    pair_b = b1.rank == b2.rank
    suited_p = pair_p and p1.suit == p2.suit and p1.suit is not None
    suited_b = pair_b and b1.suit == b2.suit and b1.suit is not None
    twin = pair_p and pair_b and p1.rank == b1.rank
    if player < 8 and banker < 8:
        third: int | None = None
        if player <= 5:
            third = point(rest.pop(0))
            player = (player + third) % 10
            pc = 3
        if banker_draws(banker, third):
            banker = (banker + point(rest.pop(0))) % 10
            bc = 3
    return Coup(player, banker, pc, bc, pair_p, pair_b, suited_p, suited_b, twin)


def shoe_cards(shoe: Shoe) -> list[Card]:
    """Every card of a finite shoe, with suits when the shoe knows them."""
    cards: list[Card] = []
    for i, rank in enumerate(RANKS):
        if shoe.suited is not None:
            for suit, n in zip(SUITS, shoe.suited[i], strict=True):
                cards += [Card(rank, suit)] * n
        else:
            cards += [Card(rank)] * shoe.counts[i]
    return cards


def brute_force(cards: Iterable[Card]) -> Counter[Coup]:
    """Ways of every coup over all ordered six-card sequences of distinct card positions."""
    out: Counter[Coup] = Counter()
    for seq in permutations(list(cards), 6):
        out[play(seq)] += 1
    return out
