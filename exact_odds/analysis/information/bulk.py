"""The first card's group for many compositions at once: what a study of edge sorting needs.

:func:`first_card_values` gives, per composition, each bet's exact expectation given the *group* of the
coup's first card (the integers of :func:`~exact_odds.analysis.information.given.advantage`), with the bulk
evaluator's kernel (:mod:`exact_odds.batch`), its coefficients built with the first card's group kept
apart. Kinds are point classes when every group is a union of them, ranks otherwise; suits are not supported.

>>> from exact_odds.bets import find_bet
>>> from exact_odds.analysis.information import deal_known
>>> from exact_odds.report import percent_text
>>> from exact_odds.core.shoe import Shoe
>>> info = Information.grouped([1], {"high": "6|7|8|9"})
>>> values = first_card_values([[32] * 13, [24] * 13], info, [find_bet("banker"), find_bet("player")])
>>> values.ways.tolist()[0] == [deal_known(Shoe.decks(8), info.known(c)).total for c in info.cases()]
True
>>> percent_text(values.value(0), 3), values.best(0, 0), values.best(0, 1)
('6.765%', 1, 0)
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from exact_odds.analysis.information.given import best_of
from exact_odds.analysis.information.knowledge import Information, InformationError
from exact_odds.batch.coefficients import build_coefficients
from exact_odds.batch.plan import Plan, make_plan, ways
from exact_odds.core.coup import COUP_CODES, Detail, Payable, coup_of_code
from exact_odds.core.shoe import RANKS
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau

if TYPE_CHECKING:
    import numpy.typing as npt

    Array = npt.NDArray[Any]


def kind_cases(information: Information) -> tuple[Detail, tuple[int, ...]]:
    """The detail whose kinds the groups of card 1 are unions of, and the case of each kind."""
    if information.positions != (1,):
        raise InformationError("bulk values watch the first card only (--position 1)")
    groups = information.groups[0]
    if any(c.suit is not None for _, cards in groups for c in cards):
        raise InformationError("bulk values tell cards apart by rank, not by suit")
    case_of_rank = [next(i for i, (_, cards) in enumerate(groups) if any(c.rank == r for c in cards)) for r in RANKS]
    by_point: dict[int, set[int]] = {}
    for rank, case in zip(RANKS, case_of_rank, strict=True):
        by_point.setdefault(rank.point, set()).add(case)
    if all(len(cases) == 1 for cases in by_point.values()):
        return Detail.POINTS, tuple(by_point[p].pop() for p in range(10))
    return Detail.RANKS, tuple(case_of_rank)


case_coefficients = lru_cache(maxsize=8)(build_coefficients)
"""The bulk coefficients with the first card's case kept apart (coup ``case * COUP_CODES + code``), cached."""


@dataclass(frozen=True, slots=True)
class _CasePlan:
    plan: Plan
    case: tuple[int, ...]  # per class
    values: tuple[tuple[Fraction, ...], ...]  # per class, per bet


@lru_cache(maxsize=16)
def _case_plan(tableau: Tableau, detail: Detail, case_of_kind: tuple[int, ...],
               bets: tuple[Payable, ...]) -> _CasePlan:
    co = case_coefficients(tableau, detail, case_of_kind)
    keys: dict[Hashable, int] = {}
    class_of = np.zeros((max(case_of_kind) + 1) * COUP_CODES, dtype=np.int64)
    for code in np.unique(co.coup).tolist():
        coup = coup_of_code(code % COUP_CODES)
        class_of[code] = keys.setdefault((code // COUP_CODES, *(bet.payout(coup) for bet in bets)), len(keys))
    rows: list[Any] = list(keys)
    return _CasePlan(make_plan(co, class_of, len(keys)), tuple(r[0] for r in rows), tuple(tuple(r[1:]) for r in rows))


@dataclass(frozen=True, slots=True)
class FirstCardValues:
    """Exact results of :func:`first_card_values`: ``ways[i, g]`` ordered six-card sequences of composition
    ``i`` whose first card is in group ``g``; ``numerators[i, g, b] / (scales[b] * ways[i, g])`` is bet
    ``b``'s expectation given the group (Python integers where int64 could overflow)."""

    labels: tuple[str, ...]
    bet_names: tuple[str, ...]
    ways: Array
    numerators: Array
    scales: tuple[int, ...]

    def expectation(self, i: int, group: int, bet: int) -> Fraction:
        """Bet ``bet``'s exact expectation for composition ``i`` given the first card in ``group``
        (``ZeroDivisionError`` if the composition holds no card of the group)."""
        return Fraction(int(self.numerators[i, group, bet]), self.scales[bet] * int(self.ways[i, group]))

    def best(self, i: int, group: int, *, sit_out: bool = True) -> int | None:
        """The bet of highest expectation (first on equal ones); ``None`` to sit out (or no such card)."""
        if not self.ways[i, group]:
            return None
        return best_of([self.expectation(i, group, b) for b in range(len(self.bet_names))], sit_out=sit_out)

    def value(self, i: int, *, sit_out: bool = True) -> Fraction:
        """The value of knowing the group for composition ``i``: ``E[max(EV, 0)]`` per coup."""
        total = int(self.ways[i].sum())
        out = Fraction(0)
        for g in range(len(self.labels)):
            b = self.best(i, g, sit_out=sit_out)
            if b is not None:
                out += Fraction(int(self.ways[i, g]), total) * self.expectation(i, g, b)
        return out


def first_card_values(compositions: object, information: Information, bets: Sequence[Payable],
                      tableau: Tableau = STANDARD_TABLEAU) -> FirstCardValues:
    """Per composition (13 rank counts a row): the sequences of each group of the first card and
    every bet's exact expectation given it. Identical integers to
    :func:`~exact_odds.analysis.information.given.deal_cases` composition by composition (tests)."""
    if any(bet.detail is Detail.SUITS for bet in bets):
        raise InformationError("bulk values do not tell suits apart; leave out the bets that need them")
    counts = np.asarray(compositions, dtype=np.int64)
    if counts.ndim != 2 or counts.shape[1] != len(RANKS) or (counts < 0).any() or (counts.sum(axis=1) < 6).any():
        raise InformationError("compositions must be rows of 13 non-negative counts of at least six cards")
    detail, case_of_kind = kind_cases(information)
    detail = max([detail, *(bet.detail for bet in bets)])
    if detail is Detail.RANKS and len(case_of_kind) == 10:
        case_of_kind = tuple(case_of_kind[r.point] for r in RANKS)
    compiled = _case_plan(tableau, detail, case_of_kind, tuple(bets))
    found = ways(compiled.plan, counts, None)
    labels = information.labels[0]
    member = np.array([[int(c == g) for g in range(len(labels))] for c in compiled.case], dtype=np.int64)
    scales = tuple(math.lcm(*(v[b].denominator for v in compiled.values)) for b in range(len(bets)))
    scaled = [[int(v[b] * scales[b]) for b in range(len(bets))] for v in compiled.values]
    largest = max((abs(x) for row in scaled for x in row), default=1)
    # A composition's classes add up to its sequences, at most N**6 (N cards).
    big = found.dtype == object or int(counts.sum(axis=1).max()) ** 6 * largest >= 2**62
    table = np.array(scaled, dtype=object if big else np.int64).reshape(len(scaled), len(bets))
    weights = found.astype(object) if big else found
    numerators = np.einsum("nc,cg,cb->ngb", weights, member.astype(table.dtype), table)
    return FirstCardValues(labels, tuple(bet.name for bet in bets), weights @ member.astype(weights.dtype),
                           numerators, scales)
