"""The scalar reference dealer: one coup at a time through :func:`exact_odds.core.tableau.play`, the
reference the vectorised dealer is tested against; and one seeded shoe followed coup by coup.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from exact_odds.core.coup import Coup, Detail, Winner
from exact_odds.core.shoe import CARDS_PER_COUP, Card, Shoe
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau, play
from exact_odds.dealing.cards import card_point, code_card, shoe_of_codes
from exact_odds.dealing.procedure import STANDARD_PROCEDURE, DealingError, Procedure
from exact_odds.dealing.shuffle import shoe_cards


def deal_coup_simple(cards: Sequence[int], tableau: Tableau = STANDARD_TABLEAU,
                     detail: Detail = Detail.POINTS) -> tuple[Coup, int]:
    """Deal one coup from card codes in order (P, B, P, B, then draws): the coup and the cards it used."""
    hand = play(tableau, [card_point(c) for c in cards[:CARDS_PER_COUP]])
    p1, b1, p2, b2 = cards[:4]
    pairs = detail >= Detail.RANKS
    suits = detail >= Detail.SUITS
    player_pair = pairs and p1 // 4 == p2 // 4
    banker_pair = pairs and b1 // 4 == b2 // 4
    coup = Coup(hand.player, hand.banker, hand.player_cards, hand.banker_cards, player_pair, banker_pair,
                suits and p1 == p2, suits and b1 == b2, player_pair and banker_pair and p1 // 4 == b1 // 4)
    return coup, hand.cards


def play_shoe_simple(cards: Sequence[int], tableau: Tableau = STANDARD_TABLEAU,
                     procedure: Procedure = STANDARD_PROCEDURE,
                     detail: Detail = Detail.POINTS) -> list[tuple[int, Coup]]:
    """Deal a whole shuffled shoe by the procedure, one coup at a time: (index of its first card, coup)."""
    pos = procedure.burned(cards[0])
    out: list[tuple[int, Coup]] = []
    while True:
        coup, used = deal_coup_simple(cards[pos:pos + CARDS_PER_COUP], tableau, detail)
        out.append((pos, coup))
        last = procedure.last(pos, used, len(cards))
        pos += used
        if last:
            return out


@dataclass(frozen=True, slots=True)
class ShoeCoup:
    """Coup number ``coup`` (1-based) of the ``coups`` of a simulated shoe: the index of its first card, the
    burned cards, the shoe ``remaining`` before it, and the next six cards in dealing order."""

    coup: int
    coups: int
    start: int
    burn: tuple[Card, ...]
    remaining: Shoe
    cards: tuple[Card, ...]


def _whole_shoes(shoe: Shoe, procedure: Procedure, why: str) -> None:
    procedure.check(shoe)
    if procedure.fresh:
        raise DealingError(why)


def shoe_coup(shoe: Shoe, seed: int, *, coup: int = 1, index: int = 0, tableau: Tableau = STANDARD_TABLEAU,
              procedure: Procedure = STANDARD_PROCEDURE) -> ShoeCoup:
    """Coup number ``coup`` of shoe number ``index`` of a run of whole shoes with ``seed``."""
    _whole_shoes(shoe, procedure, "a coup from a fresh shoe has no place in a shoe: leave out --fresh")
    cards = shoe_cards(shoe, seed, index)
    coups = play_shoe_simple(cards, tableau, procedure)
    if not 1 <= coup <= len(coups):
        raise DealingError(f"this shoe has {len(coups)} coups; choose a coup from 1 to {len(coups)}")
    start = coups[coup - 1][0]
    suited = shoe.suited is not None
    burned = cards[:procedure.burned(cards[0])]
    return ShoeCoup(coup, len(coups), start, tuple(code_card(c, suited=suited) for c in burned),
                    shoe_of_codes(cards[start:], suited=suited),
                    tuple(code_card(c, suited=suited) for c in cards[start:start + CARDS_PER_COUP]))


def shoe_winners(shoe: Shoe, seed: int, *, index: int = 0, tableau: Tableau = STANDARD_TABLEAU,
                 procedure: Procedure = STANDARD_PROCEDURE) -> list[Winner]:
    """The winner of every coup of shoe number ``index`` of a run of whole shoes with ``seed``."""
    _whole_shoes(shoe, procedure, "fresh shoes make no shoe to follow: leave out --fresh")
    return [coup.winner for _, coup in play_shoe_simple(shoe_cards(shoe, seed, index), tableau, procedure)]
