"""Payouts up to the documented bound (1,000,000,000 to 1, ``exact_odds.inputs.validate.PAYOUT``) in the bulk
path: the same exact expectations as the reference enumerator, at every detail, on any shoe.

A payout's numerator times the ways of a 1-deck shoe's sequences passes 2**63 at the bound, so these are
the figures that leave the int64 sums for Python integers; the reference walks every card-removal path.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import example, given, settings
from hypothesis import strategies as st

from exact_odds.batch import evaluate
from exact_odds.bets.user import parse_bets
from exact_odds.core.coup import Detail
from exact_odds.core.shoe import Shoe
from exact_odds.engine.enumerator import enumerate_coups

BOUND = 10**9

LINES = {
    "natural": 'natural = true\nwinner = "player"',
    "tie": 'winner = "tie"',
    "pair": "player_pair = true",
    "suited": "player_suited_pair = true",
}
"""Pay lines that decide at each detail: points, points, ranks (pairs), suits."""


def _bet(line: str, pays: Fraction) -> str:
    return (f'[[bet]]\nname = "big-{line}"\nsource = "test"\n[[bet.line]]\nlabel = "{line}"\n'
            f'pays = "{pays.numerator}/{pays.denominator}"\n{LINES[line]}\n')


payouts = st.one_of(st.just(Fraction(BOUND)), st.integers(1, BOUND).map(Fraction),
                    st.builds(Fraction, st.integers(1, BOUND), st.integers(1, 1000)).filter(lambda f: f <= BOUND))
shoes = st.lists(st.integers(0, 4), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6)


@settings(max_examples=25)
@given(st.sampled_from(sorted(LINES)), payouts, shoes)
@example("tie", Fraction(BOUND), [4] * 13)
@example("suited", Fraction(BOUND - 1, 7), [4] * 13)
def test_payouts_up_to_the_bound_equal_the_reference(line: str, pays: Fraction, counts: list[int]) -> None:
    (bet,) = parse_bets(_bet(line, pays))
    suited = [[c // 4 + (1 if s < c % 4 else 0) for s in range(4)] for c in counts]
    shoe = Shoe(tuple(counts), tuple(tuple(s) for s in suited))
    found = evaluate([counts], bets=[bet], suits=[suited] if bet.detail is Detail.SUITS else None)
    assert found.expectation(0, 0) == enumerate_coups(shoe, detail=bet.detail).expectation(bet.payout)
