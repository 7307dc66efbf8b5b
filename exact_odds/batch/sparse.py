"""The sparse form of the coefficients: whole coup distributions, one composition at a time.

``ways[code] = sum over terms t of count[t] * A[row_a[t]] * B[row_b[t]]``: one term per entry of
the coefficient table, sorted by coup code, the part values of the composition computed as in
:mod:`exact_odds.batch.plan` (one multiplication per part) in the fastest exact dtype for its
size: float64 up to 456 cards, int64 up to 1,448, Python integers beyond. At ``Detail.SUITS`` the
codes are variants (:mod:`exact_odds.batch.suited`), turned into coups by inclusion-exclusion.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from exact_odds.batch.coefficients import coefficients
from exact_odds.batch.kinds import DESIGNATION_CARDS, GG, TYPES, F, G, Space, kind_counts
from exact_odds.batch.plan import FLOAT_MAX_CARDS, INT64_MAX_CARDS, Layout, _rows, make_layout
from exact_odds.core.coup import Detail
from exact_odds.core.shoe import CARDS_PER_COUP
from exact_odds.core.tableau import Tableau

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]
    Array = npt.NDArray[Any]


@dataclass(frozen=True)
class Sparse:
    """The coefficients as a list of terms, sorted by coup code; ``starts`` are the first term of
    each code in ``codes``; ``row_a``/``row_b`` the rows of the terms' parts in ``layout``."""

    space: Space
    layout: Layout
    row_a: IntArray
    row_b: IntArray
    count: IntArray
    starts: IntArray
    codes: tuple[int, ...]


@lru_cache(maxsize=4)
def sparse(tableau: Tableau, detail: Detail) -> Sparse:
    """The :class:`Sparse` form of the coefficients of ``tableau`` at ``detail`` (cached)."""
    co = coefficients(tableau, detail)
    parts_a = np.array(co.parts_a, dtype=np.int64).reshape(len(co.parts_a), -1)
    parts_b = np.array(co.parts_b, dtype=np.int64).reshape(len(co.parts_b), -1)
    layout = make_layout(co.space, ({tuple(p) for p in co.parts_a}, {tuple(p) for p in co.parts_b}))
    order = np.argsort(co.coup, kind="stable")
    coup = co.coup[order]
    starts = np.flatnonzero(np.r_[True, coup[1:] != coup[:-1]])
    row_a = _rows(layout, 0, parts_a)[co.a[order]]
    row_b = _rows(layout, 1, parts_b)[co.b[order]]
    return Sparse(co.space, layout, row_a, row_b, co.count[order], starts, tuple(coup[starts].tolist()))


def _falling_rows(n: Array, shift: int) -> Array:
    """``falling(n - shift, j)`` for j = 0..6 in the dtype of ``n``, shape ``(7,) + n.shape``."""
    out = np.empty((CARDS_PER_COUP + 1, *n.shape), dtype=n.dtype)
    out[0] = 1
    for j in range(1, CARDS_PER_COUP + 1):
        np.multiply(out[j - 1], n - (shift + j - 1), out=out[j])
    return out


def _factor_table(space: Space, kinds: Array, suits: Array | None) -> Array:
    """Value of every (kind, multiplicity, designation) in the dtype of ``kinds``: rows
    ``(kind * 7 + m) * types + t``, one column per composition."""
    k, b = kinds.shape
    if not space.suited:
        return _falling_rows(kinds, 0).transpose(1, 0, 2).reshape(-1, b)
    assert suits is not None
    f2 = suits * (suits - 1)
    suited = f2.sum(axis=1)
    pairs = suited * suited - (f2 * f2).sum(axis=1) + (f2 * (suits - 2) * (suits - 3)).sum(axis=1)
    table = np.zeros((k, CARDS_PER_COUP + 1, TYPES, b), dtype=kinds.dtype)
    table[:, :, F] = _falling_rows(kinds, 0).transpose(1, 0, 2)
    for t, q in zip((G, GG), (suited, pairs), strict=True):
        cards = DESIGNATION_CARDS[t]
        shifted = _falling_rows(kinds, cards).transpose(1, 0, 2)
        table[:, cards:, t] = q[:, None, :] * shifted[:, : CARDS_PER_COUP + 1 - cards]
    return table.reshape(-1, b)


def _values(layout: Layout, factors: Array) -> Array:
    """Values of every part of the layout for one composition (the column of ``factors``)."""
    values = np.empty(len(layout.parent), dtype=factors.dtype)
    values[0] = 1
    column = factors[:, 0]
    for start, stop in layout.levels:
        values[start:stop] = values[layout.parent[start:stop]] * column[layout.factor[start:stop]]
    return values


def sparse_ways(form: Sparse, counts: IntArray, suits: IntArray | None) -> Array:
    """Ways of every code (columns: ``form.codes``) for each composition: shape (n, codes)."""
    sizes = counts.sum(axis=1)
    out = np.zeros((len(counts), len(form.codes)), dtype=object if (sizes > INT64_MAX_CARDS).any() else np.int64)
    kinds_all = kind_counts(counts, form.space.detail)
    for i, size in enumerate(sizes.tolist()):
        dtype = np.float64 if size <= FLOAT_MAX_CARDS else np.int64 if size <= INT64_MAX_CARDS else object
        kinds: Array = kinds_all[:, i:i + 1].astype(dtype)
        suit_rows: Array | None = suits[i:i + 1].transpose(1, 2, 0).astype(dtype) if suits is not None else None
        values = _values(form.layout, _factor_table(form.space, kinds, suit_rows))
        terms: Array = form.count.astype(dtype) * values[form.row_a] * values[form.row_b]
        found = np.add.reduceat(terms, form.starts)
        out[i] = found.astype(np.int64) if dtype is np.float64 else found
    return out
