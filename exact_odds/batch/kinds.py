"""Kinds of card, and parts of monomials: the vocabulary of the coefficient tables.

A *kind* is what bulk evaluation tells apart in a card: its point class 0-9 for the main
bets (:attr:`Detail.POINTS <exact_odds.core.coup.Detail.POINTS>`), its rank A-K when pairs matter
(``RANKS``, ``SUITS``). The ways to deal a sequence of six kinds is a product over kinds of
falling factorials ``n_k (n_k - 1) ... (n_k - m_k + 1)``, ``m_k`` being how often kind ``k``
occurs in the sequence: a *monomial* of the kind counts, which depends only on the multiset of
kinds.

The kinds are split in two groups, ``A`` and ``B``; a monomial is the product of a *part* over
``A`` and a part over ``B``. A part holds one *digit* per kind of its group,
``multiplicity * TYPES + designation``: how many of the six cards are of that kind (0-6) and,
for suited pairs only, whether a pair of that kind is restricted to be suited (designation
``G``: one suited pair, ``GG``: two; see :mod:`exact_odds.batch.suited`). A part is named by
its *part code*, the digits read in base ``DIGITS`` with the group's first kind lowest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from exact_odds.core.coup import Detail
from exact_odds.core.shoe import CARDS_PER_COUP, RANKS

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]

Part = tuple[int, ...]
"""One digit per kind of a group: ``multiplicity * TYPES + designation``."""

F, G, GG = range(3)
"""Designations: no restriction; one suited pair (2 cards); two suited pairs of the kind (4 cards)."""
TYPES = 3
"""Number of designations."""
DESIGNATION_UNITS = (0, 1, 2)
"""Suited pairs each designation restricts (a coup restricts at most two)."""
DESIGNATION_CARDS = (0, 2, 4)
"""Cards of its kind each designation needs."""
DIGITS = TYPES * (CARDS_PER_COUP + 1)
"""Base of part codes: a digit is below 21."""

RANK_POINTS = tuple(rank.point for rank in RANKS)
"""Point class of each rank A..K (the kinds at ``Detail.POINTS``)."""
_POINTS = np.array(RANK_POINTS, dtype=np.int64)


@dataclass(frozen=True)
class Space:
    """The kinds of card a detail level tells apart and how they are split in two groups."""

    detail: Detail
    points: tuple[int, ...]  # point value 0-9 of each kind
    split: int  # kinds [0, split) form group A, the rest group B

    @property
    def kinds(self) -> int:
        """Number of kinds: 10 point classes or 13 ranks."""
        return len(self.points)

    @property
    def suited(self) -> bool:
        """Whether parts carry designations (suited pairs)."""
        return self.detail is Detail.SUITS

    @property
    def types(self) -> int:
        """Designations a digit can carry: ``TYPES`` when suited, else 1."""
        return TYPES if self.suited else 1


def space_of(detail: Detail) -> Space:
    """Point classes 0-9 split 5 + 5 at ``POINTS``; ranks A-K split 7 + 6 otherwise."""
    if detail is Detail.POINTS:
        return Space(detail, tuple(range(10)), 5)
    return Space(detail, RANK_POINTS, 7)


def parts_of(kinds: int, suited: bool) -> list[Part]:
    """Every possible part over ``kinds`` kinds: one digit per kind, at most six cards; in
    increasing part code (:func:`part_code`).

    Designations need enough cards of their kind (2 or 4), and a coup designates at most
    two pairs. Built from the last kind (the most significant digit) to the first, each part
    followed by its extensions in increasing digit, so the parts come sorted.
    """
    options = [(m * TYPES + t, m, DESIGNATION_UNITS[t]) for m in range(CARDS_PER_COUP + 1)
               for t in range(TYPES if suited else 1) if m >= DESIGNATION_CARDS[t]]
    level: list[tuple[Part, int, int]] = [((), 0, 0)]  # (part of the last kinds, cards, designation units)
    for _ in range(kinds):
        level = [((digit, *part), cards + m, units + u) for part, cards, units in level for digit, m, u in options
                 if cards + m <= CARDS_PER_COUP and units + u <= 2]
    return [part for part, _, _ in level]


def part_code(digits: Sequence[int]) -> int:
    """The part code of a part: its digits in base ``DIGITS``, first kind lowest."""
    return sum(d * DIGITS**i for i, d in enumerate(digits))


def kind_of_rank(detail: Detail) -> IntArray:
    """The kind of each rank A..K: its point class at ``POINTS``, the rank itself otherwise."""
    return _POINTS if detail is Detail.POINTS else np.arange(len(RANKS), dtype=np.int64)


def kind_counts(counts: IntArray, detail: Detail) -> IntArray:
    """Counts per kind (rows) of compositions given as rank counts (n, 13): shape (kinds, n).

    Point classes pool the ranks of equal point (T, J, Q, K at 0); ranks are the counts themselves.
    """
    if detail is not Detail.POINTS:
        return counts.T
    out = np.zeros((10, counts.shape[0]), dtype=np.int64)
    for i, point in enumerate(RANK_POINTS):
        out[point] += counts[:, i]
    return out
