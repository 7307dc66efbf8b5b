"""The first four cards: short tables for the functionals that depend on them alone.

Pairs and suited pairs concern only each hand's first two cards (dealing positions 1 to 4).
A functional whose weight depends on the pair flags of a coup alone (``code // PLAYER_PAIR``:
pairs, twin pairs, the suited variants of :mod:`exact_odds.batch.suited`) therefore counts
each four-card beginning once per way to deal it, whatever follows: its ways are
``(N-4) (N-5) * sum_S D[S] * monomial_S`` over multisets ``S`` of *four* kinds (1,820 of
thirteen ranks instead of 18,564 of six), ``D[S]`` adding the weights of the arrangements of
``S``. The tables here count those arrangements per flag state, straight from the 13**4
sequences of ranks (or 10**4 of point classes, where no flag is recorded).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from exact_odds.batch.kinds import DIGITS, TYPES, space_of
from exact_odds.batch.suited import suited_variants
from exact_odds.core.coup import COUP_CODES, PLAYER_PAIR, Detail

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]

LEADING_CARDS = 4
"""Cards dealt before either hand may draw: the two hands' first two cards."""
FLAG_STATES = COUP_CODES // PLAYER_PAIR
"""Values of ``code // PLAYER_PAIR``: the pair flags of a coup (32)."""


@lru_cache(maxsize=4)
def leading_table(detail: Detail) -> tuple[IntArray, IntArray, IntArray]:
    """Arrangements of each four-card multiset (digits per kind, as in parts) per flag state.

    Returns ``(digits, flags, count)``: ``digits`` (n, kinds) holds ``multiplicity * TYPES +
    designation``; ``flags`` the state ``code // PLAYER_PAIR`` the arrangements deal (always 0
    at ``Detail.POINTS``, which records no pairs); ``count`` the number of arrangements.
    """
    space = space_of(detail)
    k = space.kinds
    seq = np.indices((k,) * LEADING_CARDS, dtype=np.int64).reshape(LEADING_CARDS, -1)
    n = seq.shape[1]
    multiplicity = np.zeros((n, k), dtype=np.int64)
    for row in seq:
        multiplicity[np.arange(n), row] += 1
    pp, bp = seq[0] == seq[2], seq[1] == seq[3]
    flags = (pp + 2 * bp + 16 * (pp & bp & (seq[0] == seq[1]))).astype(np.int64)
    if detail is Detail.POINTS:
        flags[:] = 0
    variants = [(np.ones(n, dtype=bool), False, False, np.full((2, n), -1, dtype=np.int64))]
    if space.suited:
        variants = list(suited_variants(seq))
    keys: list[IntArray] = []
    for rows, ps, bs, designations in variants:
        digits = multiplicity[rows] * TYPES
        for d in designations[:, rows]:
            on = d >= 0
            digits[np.flatnonzero(on), d[on] // TYPES] += d[on] % TYPES
        code = digits @ (DIGITS ** np.arange(k, dtype=np.int64))
        keys.append(code * FLAG_STATES + flags[rows] + 4 * ps + 8 * bs)
    uniq, count = np.unique(np.concatenate(keys), return_counts=True)
    code, state = uniq // FLAG_STATES, uniq % FLAG_STATES
    digits = code[:, None] // DIGITS ** np.arange(k, dtype=np.int64) % DIGITS
    return digits, state, count.astype(np.int64)


def leading_weights(codes: IntArray, weights: IntArray) -> IntArray | None:
    """The weight of each flag state if ``weights[code]`` depends on the flags alone, else None.

    ``codes`` are the coup codes a coefficient table deals (below ``COUP_CODES``).
    """
    if len(codes) == 0 or int(codes.max()) >= COUP_CODES:
        return None
    state = codes // PLAYER_PAIR
    w = weights[codes]
    out = np.full(FLAG_STATES, -1, dtype=np.int64)
    out[state] = w
    if (out[state] != w).any():
        return None
    return out
