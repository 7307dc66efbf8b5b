"""Recorded shoes replayed: the exact edge of each bet before every coup of a real shoe.

A record lists a shoe's cards in dealing order (P, B, P, B, then the draws), e.g. ``Kh 3d 9s 2c ...``;
each bet's exact expectation (the bettor's) is given the cards dealt before the coup.

>>> from exact_odds.core.shoe import Shoe
>>> rep = replay(read_record("Kh 3d 9s 2c  5h 5d 7c 4s  2h"), Shoe.decks(8), bets=())
>>> [(c.number, c.coup.winner, c.unseen) for c in rep.coups], rep.leftover
([(1, 'player', 416), (2, 'banker', 412)], (Card(rank=<Rank.TWO: 2>, suit=<Suit.HEARTS: 'h'>),))
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from exact_odds.batch import evaluate
from exact_odds.core.coup import Coup, Detail, Payable
from exact_odds.core.shoe import CARDS_PER_COUP, SUITS, Card, Shoe, ShoeError, parse_cards
from exact_odds.core.tableau import STANDARD_TABLEAU, IncompleteCoup, Tableau, play
from exact_odds.inputs.errors import suits_unknown
from exact_odds.study.checks import StudyError


def play_cards(cards: Sequence[Card], tableau: Tableau = STANDARD_TABLEAU) -> tuple[Coup, int] | None:
    """One coup from cards in dealing order, with its pair, suited and twin flags, and the cards it used;
    ``None`` if the cards run out."""
    try:
        hand = play(tableau, [c.rank.point for c in cards[:CARDS_PER_COUP]])
    except IncompleteCoup:
        return None
    p1, b1, p2, b2 = cards[:4]
    pp, bp = p1.rank == p2.rank, b1.rank == b2.rank
    ps = pp and p1.suit is not None and p1.suit == p2.suit
    bs = bp and b1.suit is not None and b1.suit == b2.suit
    coup = Coup(hand.player, hand.banker, hand.player_cards, hand.banker_cards, pp, bp, ps, bs,
                pp and bp and p1.rank == b1.rank)
    return coup, hand.cards


@dataclass(frozen=True, slots=True)
class RecordedCoup:
    """One coup of a recorded shoe and the exact expectation of each bet before it."""

    number: int
    cards: tuple[Card, ...]
    coup: Coup
    unseen: int
    expectations: tuple[Fraction, ...]


@dataclass(frozen=True, slots=True)
class Replay:
    """A recorded shoe replayed: its coups, and the cards left over that make no whole coup."""

    shoe: Shoe
    bets: tuple[str, ...]
    coups: tuple[RecordedCoup, ...]
    leftover: tuple[Card, ...]


def read_record(text: str) -> tuple[Card, ...]:
    """The cards of a recorded shoe: separated by spaces, commas or new lines; ``#`` comments."""
    return parse_cards(" ".join(re.sub(r"#.*", "", line) for line in text.splitlines()))


def replay(cards: Sequence[Card], shoe: Shoe, *, bets: Sequence[Payable],
           tableau: Tableau = STANDARD_TABLEAU) -> Replay:
    """Replay the coups of a recorded shoe dealt from ``shoe``, with the exact edge of each bet before each.

    Every card must be in the shoe, the trailing cards too (a 53rd card of one deck is refused); suited
    bets need suits on every card and a shoe whose suits are known. Cards that complete no coup are
    the ``leftover``.
    """
    if shoe.infinite:
        raise StudyError("a recorded shoe is dealt from a finite shoe")
    counts = list(shoe.counts)
    suits = [list(row) for row in shoe.suited] if shoe.suited is not None else None
    suited_bets = [b.name for b in bets if b.detail is Detail.SUITS]
    compositions: list[list[int]] = []
    grids: list[list[list[int]]] = []
    played: list[tuple[int, tuple[Card, ...], Coup]] = []
    pos = 0
    while (result := play_cards(cards[pos:pos + CARDS_PER_COUP], tableau)) is not None:
        if sum(counts) < CARDS_PER_COUP:
            raise StudyError(f"coup {len(played) + 1}: fewer than {CARDS_PER_COUP} cards are left in the shoe")
        coup, used = result
        compositions.append(list(counts))
        grids.append([list(row) for row in suits] if suits is not None else [])
        for k, card in enumerate(cards[pos:pos + used], pos + 1):
            suits = _take(card, k, counts, suits, suited_bets)
        played.append((pos, tuple(cards[pos:pos + used]), coup))
        pos += used
    for k, card in enumerate(cards[pos:], pos + 1):  # the cards after the last coup were in the shoe too
        suits = _take(card, k, counts, suits, ())
    if suited_bets and suits is None and played:
        raise ShoeError(suits_unknown(suited_bets[0]))
    ev = evaluate(compositions or [shoe.counts], bets=bets, tableau=tableau,
                  suits=grids if suited_bets and played else None) if played else None
    coups = tuple(
        RecordedCoup(n, hand, coup, sum(compositions[n - 1]),
                     tuple(ev.expectation(n - 1, j) for j in range(len(bets))) if ev is not None else ())
        for n, (_, hand, coup) in enumerate(played, 1))
    return Replay(shoe, tuple(b.name for b in bets), coups, tuple(cards[pos:]))


def _take(card: Card, k: int, counts: list[int], suits: list[list[int]] | None,
          suited_bets: Sequence[str]) -> list[list[int]] | None:
    """Take ``card``, the ``k``-th of the record, from the shoe's ``counts`` and ``suits`` (returned; ``None``
    once a card has no suit, which ``suited_bets`` refuse), refusing a card the shoe no longer holds."""
    i = card.rank - 1
    if counts[i] == 0:
        raise StudyError(f"card {k} ({card}): no {card.rank.label} left in the shoe")
    counts[i] -= 1
    if suits is not None and card.suit is not None:
        j = SUITS.index(card.suit)
        if suits[i][j] == 0:
            raise StudyError(f"card {k} ({card}): no {card} left in the shoe")
        suits[i][j] -= 1
        return suits
    if suits is not None and suited_bets:
        raise StudyError(f"card {k} ({card}) has no suit; {suited_bets[0]} needs the suit of every card")
    return None
