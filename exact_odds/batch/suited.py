"""Suited pairs by inclusion-exclusion: variants of the rank coefficients, and back to coups.

A pair of the same rank *and* suit in a hand's first two cards (positions 1 and 3, or 2 and
4) cannot be told apart by rank counts. For those bets, besides the plain rank monomials, a
rank in which a hand pairs may carry a *designation* (:mod:`exact_odds.batch.kinds`)
restricting that pair to be suited: ``G`` (``sum_s n_s (n_s - 1)`` ordered suited pairs, the
other cards of the rank taking any of the ``n_k - 2`` left) or, when both hands pair in one
rank and both pairs are restricted, ``GG`` (ordered pairs of suited pairs; ``n_k - 4`` left).

These *variants* (no restriction, the player's pair suited, the banker's, both) are each
non-negative sums. In the suited coefficient tables the bits :data:`~exact_odds.core.coup.PLAYER_SUITED`
and :data:`~exact_odds.core.coup.BANKER_SUITED` of a coup code mark the variant (``X_xy``, bits
``x``, ``y``), not the suited flags themselves. The ways of each suited combination follow
exactly by inclusion-exclusion (both suited ``X11``; the player's only ``X10 - X11``; the
banker's only ``X01 - X11``; neither ``X00 - X10 - X01 + X11``), applied to integers after the
sums, and a bet's payouts enter as the matching signed combinations.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product
from typing import TYPE_CHECKING, Any

import numpy as np

from exact_odds.batch.kinds import GG, TYPES, G
from exact_odds.core.coup import BANKER_SUITED, PLAYER_SUITED

if TYPE_CHECKING:
    import numpy.typing as npt

    Array = npt.NDArray[Any]


def suited_variants(seq: Array) -> Iterator[tuple[Array, bool, bool, Array]]:
    """The inclusion-exclusion variants of rank sequences ``seq`` of shape (6, n), dealing order.

    Yields (rows, player bit, banker bit, designations). The variant with both bits clear
    counts every dealing of the sequence; a set bit restricts that hand's pair to be suited
    (so a bit needs a pair: ``rows`` selects the sequences it applies to). ``designations``
    (shape (2, n)) holds ``kind * TYPES + designation`` for the player's and the banker's
    suited pair, or -1; when both hands pair in one rank and both bits are set, that rank
    carries the joint designation ``GG``.
    """
    n = seq.shape[1]
    pp = seq[0] == seq[2]
    bp = seq[1] == seq[3]
    same = pp & bp & (seq[0] == seq[1])
    for ps, bs in product((False, True), repeat=2):
        rows = (pp | (not ps)) & (bp | (not bs))
        designations = np.full((2, n), -1, dtype=np.int64)
        if ps:
            designations[0] = np.where(pp, seq[0] * TYPES + G, -1)
        if bs:
            designations[1] = np.where(bp, seq[1] * TYPES + G, -1)
        if ps and bs:
            designations[0, same] = seq[0, same] * TYPES + GG
            designations[1, same] = -1
        yield rows, ps, bs, designations


def variant(code: int) -> tuple[int, int, int]:
    """(code with the suited bits cleared, player bit, banker bit)."""
    x, y = code // PLAYER_SUITED % 2, code // BANKER_SUITED % 2
    return code - PLAYER_SUITED * x - BANKER_SUITED * y, x, y


def suited_ways(variants: dict[int, int]) -> dict[int, int]:
    """Ways of each coup code from the ways of the suited variants (Moebius inversion).

    With ``X_xy`` the ways of the variant with bits x, y of a base coup: the coup with both
    pairs suited has ``X_11`` ways, the player's only ``X_10 - X_11``, the banker's only
    ``X_01 - X_11``, neither ``X_00 - X_10 - X_01 + X_11``.
    """
    out: dict[int, int] = {}
    for code, ways in variants.items():
        base, x, y = variant(code)
        if x or y:
            continue
        p, b = base + PLAYER_SUITED, base + BANKER_SUITED
        x10, x01, x11 = variants.get(p, 0), variants.get(b, 0), variants.get(p + BANKER_SUITED, 0)
        out[base] = ways - x10 - x01 + x11
        out[p], out[b], out[p + BANKER_SUITED] = x10 - x11, x01 - x11, x11
    return out
