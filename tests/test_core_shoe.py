"""Shoe model: construction, parsing, removal and validation."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from exact_odds.core.shoe import RANKS, Card, Rank, Shoe, ShoeError, Suit, falling, parse_card, parse_cards


def test_points() -> None:
    assert [r.point for r in RANKS] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]
    assert Shoe.decks(8).point_counts() == (128,) + (32,) * 9


def test_parse_spec_matches_decks() -> None:
    spec = ",".join(f"{r}=32" for r in "A23456789TJQK")
    assert Shoe.parse(spec) == Shoe.decks(8)
    assert Shoe.parse(spec.lower().replace("t=", "10=")) == Shoe.decks(8)
    assert Shoe.parse(Shoe.decks(3).spec()) == Shoe.decks(3)


def test_parse_cards() -> None:
    assert parse_cards("5,5,K,9") == (Card(Rank.FIVE),) * 2 + (Card(Rank.KING), Card(Rank.NINE))
    assert parse_card("10h") == Card(Rank.TEN, Suit.HEARTS)
    assert parse_card("q♠") == Card(Rank.QUEEN, Suit.SPADES)
    assert parse_card("10") == Card(Rank.TEN)


def test_without() -> None:
    shoe = Shoe.decks(1).without(parse_cards("5,5,K,9"))
    assert shoe.count(Rank.FIVE) == 2 and shoe.size == 48 and shoe.suited is None
    suited = Shoe.decks(1).without(parse_cards("Kh"))
    assert suited.suited is not None and suited.suited[12] == (1, 0, 1, 1)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Shoe.parse("X=3,A=4"), "unknown rank 'X'"),
        (lambda: Shoe.parse("A=-1,K=10"), "count of A must be a whole number from 0 to 40,000, got '-1'"),
        (lambda: Shoe.parse("A=1.5,K=10"), "whole number"),
        (lambda: Shoe.parse("A=1,A=10"), "given twice"),
        (lambda: Shoe.parse("A=5"), "at least 6 cards"),
        (lambda: Shoe.decks(1).without(parse_cards("A,A,A,A,A")), "no A left"),
        (lambda: Shoe.parse("A=3,K=3").without(parse_cards("K")), "leaves 5 cards"),
        (lambda: Shoe.decks(0), "at least 1"),
        (lambda: Shoe.infinite_deck().without([Rank.ACE]), "infinite"),
    ],
)
def test_bad_shoes_are_refused(make: object, message: str) -> None:
    with pytest.raises(ShoeError, match=message):
        make()  # type: ignore[operator]


@given(st.lists(st.integers(0, 40), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6))
@example([0] * 12 + [6])
def test_from_counts_round_trips(counts: list[int]) -> None:
    shoe = Shoe.from_counts(counts)
    assert Shoe.parse(shoe.spec()) == shoe and shoe.size == sum(counts)


def test_falling() -> None:
    assert falling(416, 6) == 4_998_398_275_503_360 and falling(3, 5) == 0 and falling(7, 0) == 1
