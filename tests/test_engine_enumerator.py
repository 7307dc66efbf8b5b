"""The reference enumerator against published counts, the brute-force oracle and identities."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import example, given, settings
from hypothesis import strategies as st
from oracle import brute_force, shoe_cards

from exact_odds.core.coup import Coup, Detail
from exact_odds.core.shoe import Shoe, falling
from exact_odds.core.tableau import STANDARD_TABLEAU
from exact_odds.engine.enumerator import deal, first_four, sequences, winners

# Published 8-deck counts: Wizard of Odds, "Baccarat - Basic Strategy / house edge" (8 decks).
EIGHT_DECKS = {
    "banker": 2_292_252_566_437_888,
    "player": 2_230_518_282_592_256,
    "tie": 475_627_426_473_216,
}


def test_eight_decks_match_published_counts() -> None:
    dist = winners(deal(Shoe.decks(8)))
    assert {k: dist.ways(k) for k in ("banker", "player", "tie")} == EIGHT_DECKS
    assert dist.total == 4_998_398_275_503_360 == falling(416, 6)


def test_infinite_deck_limit() -> None:
    dist = winners(deal(Shoe.infinite_deck()))
    assert dist.probability("banker") == Fraction(2212744, 4826809)
    assert dist.probability("player") == Fraction(2153464, 4826809)
    assert dist.probability("tie") == Fraction(460601, 4826809)


def test_huge_shoes_stay_exact() -> None:
    for n in (100, 10_000):
        shoe = Shoe.decks(n)
        dist = deal(shoe)
        assert dist.total == falling(52 * n, 6) == sequences(shoe)
    # The finite-shoe probabilities approach the infinite-deck limit.
    far = winners(deal(Shoe.decks(10_000))).probability("banker")
    assert abs(far - Fraction(2212744, 4826809)) < Fraction(1, 10**4)


def test_first_four_sum_to_falling_four() -> None:
    shoe = Shoe.decks(1)
    for detail in Detail:
        assert sum(first_four(shoe, detail).values()) == falling(52, 4)


small_shoes = st.lists(st.integers(0, 12), min_size=6, max_size=9).map(
    lambda ranks: Shoe.from_counts([ranks.count(i) for i in range(13)])
)


@settings(max_examples=60, deadline=None)
@given(small_shoes)
@example(Shoe.from_counts([1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4]))
@example(Shoe.from_counts([0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0]))
def test_engine_equals_brute_force_on_tiny_shoes(shoe: Shoe) -> None:
    expected = brute_force(shoe_cards(Shoe(shoe.counts)))
    got = deal(shoe, detail=Detail.RANKS)
    assert dict(got.items()) == dict(expected)
    assert got.total == falling(shoe.size, 6)
    points_only = deal(shoe).map(lambda c: c[:4])
    assert points_only == got.map(lambda c: c[:4])


def test_suited_detail_equals_brute_force() -> None:
    # Ten cards with repeated rank-suits so suited pairs occur.
    shoe = Shoe.from_counts([4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4])
    shoe = Shoe(shoe.counts, ((2, 2, 0, 0),) + ((0, 0, 0, 0),) * 11 + ((1, 1, 1, 1),))
    assert dict(deal(shoe, detail=Detail.SUITS).items()) == dict(brute_force(shoe_cards(shoe)))


def test_coup_properties() -> None:
    coup = Coup(7, 7, 3, 2)
    assert coup.winner == "tie" and not coup.natural and coup.cards == 5
    assert Coup(9, 3, 2, 2).natural and Coup(9, 3, 2, 2).winner == "player"


def test_standard_tableau_is_default() -> None:
    shoe = Shoe.decks(1)
    assert deal(shoe) == deal(shoe, STANDARD_TABLEAU)
