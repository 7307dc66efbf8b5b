"""Simulated nights: seeded, checked against the exact tables (PASS on fair dice, FAIL on loaded ones)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from exact_odds.bunco import BuncoError, Dice, ScoringRules
from exact_odds.bunco.night import _moved, chance, simulate_nights
from exact_odds.bunco.party import COMMON_PARTY, Party, Prizes

SMALL = Party(tables=2, dice=Dice(2, 3), scoring=ScoringRules("small", 3, 2, 1), target=4, rounds=3)


def test_fair_dice_pass_and_the_same_seed_gives_the_same_night() -> None:
    night = simulate_nights(COMMON_PARTY, nights=3_000, seed=11)
    assert night.passed, [(what, test.p_value) for what, test in night.checks]
    again = simulate_nights(COMMON_PARTY, nights=3_000, seed=11)
    assert again.buncos == night.buncos and again.prizes == night.prizes


def test_the_means_lie_in_their_intervals_around_the_exact_values() -> None:
    night = simulate_nights(SMALL, nights=20_000, seed=5)
    assert night.passed
    for estimate in (night.buncos, night.minis, night.points):
        low, high = estimate.interval or (0.0, 0.0)
        assert estimate.exact is not None and low <= estimate.exact <= high
    assert sum(e.value for e in night.wins) == pytest.approx(1)


def test_loaded_dice_fail() -> None:
    night = simulate_nights(COMMON_PARTY, nights=3_000, seed=11, weights=(3, 1, 1, 1, 1, 1))
    assert not night.passed


def test_loaded_small_dice_fail() -> None:
    night = simulate_nights(SMALL, nights=5_000, seed=2, weights=(1, 1, 2))
    assert not night.passed


def test_a_bunco_that_ends_the_turn_and_a_roll_off_for_prizes() -> None:
    party = Party(tables=2, rounds=6, bunco_ends_turn=True, movement="none", prizes=Prizes(("most-wins",), "roll-off"))
    night = simulate_nights(party, nights=2_000, seed=3)
    assert night.passed
    assert [p.award for p in night.prizes] == ["most-wins"]


def test_one_table_has_no_second_table_to_check() -> None:
    night = simulate_nights(Party(tables=1), nights=500, seed=1)
    assert night.table is None and len(night.checks) == 3


def test_movement_winners_up_head_losers_to_the_foot_partners_change() -> None:
    seat_of = np.arange(12).reshape(1, 3, 4)
    winner = np.array([[0, 1, 0]])  # head: seats 1 and 3 win; table 2: seats 2 and 4; table 3: seats 1 and 3
    moved = _moved(COMMON_PARTY, seat_of, winner)
    assert moved.tolist() == [[[0, 2, 5, 7], [4, 6, 8, 10], [9, 11, 1, 3]]]
    for table in moved[0]:  # no two partners of the last round partners again
        assert {frozenset(table[0::2]), frozenset(table[1::2])}.isdisjoint(
            {frozenset(pair) for pair in seat_of.reshape(6, 2).tolist()} | {frozenset((0, 2)), frozenset((5, 7))})


def test_bad_simulation_options() -> None:
    with pytest.raises(BuncoError, match="weights"):
        simulate_nights(COMMON_PARTY, nights=10, seed=1, weights=(1, 1))
    with pytest.raises(BuncoError, match="nights"):
        simulate_nights(COMMON_PARTY, nights=0, seed=1)


def test_wilson_interval() -> None:
    e = chance(0, 10, Fraction(0))
    low, high = e.interval or (1.0, 0.0)
    assert low == 0 and 0.2 < high < 0.35 and e.error == 0
