"""Side bets: the engine's fast suited path, the brute-force oracle, published 8-deck figures."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st
from oracle import brute_force, shoe_cards

from exact_odds.engine import Detail, deal, first_four, first_four_by_kind
from exact_odds.shoe import Shoe

# ---------------------------------------------------------------- shoes with suits

Grid = tuple[tuple[int, ...], ...]


def suited_shoe(cells: dict[tuple[int, int], int], *, infinite: bool = False) -> Shoe:
    """A shoe from {(rank index 0-12, suit index 0-3): count}."""
    grid: Grid = tuple(tuple(cells.get((r, s), 0) for s in range(4)) for r in range(13))
    return Shoe(tuple(sum(row) for row in grid), grid, infinite=infinite)


def few_kinds(max_kinds: int, max_count: int) -> st.SearchStrategy[dict[tuple[int, int], int]]:
    """Random rank-suit cells, drawn from few ranks so that pairs, suited pairs and twins occur."""
    cell = st.tuples(st.sampled_from([0, 5, 6, 7, 9, 12]), st.integers(0, 3))
    return st.dictionaries(cell, st.integers(1, max_count), min_size=1, max_size=max_kinds)


@st.composite
def suited_shoes(draw: st.DrawFn) -> Shoe:
    """Random suited shoes, finite (at least 6 cards) or infinite, with up to 12 rank-suits."""
    cells = draw(few_kinds(12, 6))
    infinite = draw(st.booleans())
    if not infinite and sum(cells.values()) < 6:
        cells[(12, 0)] = cells.get((12, 0), 0) + 6
    return suited_shoe(cells, infinite=infinite)


@st.composite
def tiny_suited_shoes(draw: st.DrawFn) -> Shoe:
    """Random shoes of 6 to 9 cards with suits (the brute-force oracle deals every sequence)."""
    size = draw(st.integers(6, 9))
    cards = draw(st.lists(st.tuples(st.sampled_from([0, 5, 6, 7, 9, 12]), st.integers(0, 1)),
                          min_size=size, max_size=size))
    cells: dict[tuple[int, int], int] = {}
    for card in cards:
        cells[card] = cells.get(card, 0) + 1
    return suited_shoe(cells)


# ---------------------------------------------------------------- engine: fast suited path


@settings(max_examples=60, deadline=None)
@given(suited_shoes())
@example(suited_shoe({(0, 0): 8, (0, 1): 1, (12, 2): 3}))
def test_fast_suited_first_four_equals_reference(shoe: Shoe) -> None:
    assert first_four(shoe, Detail.SUITS) == first_four_by_kind(shoe, Detail.SUITS)


def test_fast_suited_first_four_eight_decks() -> None:
    shoe = Shoe.decks(8)
    fast = first_four(shoe, Detail.SUITS)
    assert fast == first_four_by_kind(shoe, Detail.SUITS)
    # Forgetting the suits gives the rank-level counts back.
    by_rank: dict[object, int] = {}
    for (pt, bt, removed, flags), w in fast.items():
        key = (pt, bt, removed, (flags[0], flags[1], False, False, flags[4]))
        by_rank[key] = by_rank.get(key, 0) + w
    assert by_rank == first_four(shoe, Detail.RANKS)


@settings(max_examples=60, deadline=None)
@given(tiny_suited_shoes())
@example(suited_shoe({(0, 0): 4, (0, 1): 2}))
@example(suited_shoe({(7, 0): 2, (7, 1): 2, (12, 0): 3}))
def test_suited_deal_equals_brute_force(shoe: Shoe) -> None:
    expected = brute_force(shoe_cards(shoe))
    assert dict(deal(shoe, detail=Detail.SUITS).items()) == dict(expected)
