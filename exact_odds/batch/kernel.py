"""The evaluation kernel: factor tables, part values, and the dense blocks, in NumPy.

One algorithm, in the dtype of its inputs: ``float64`` (every quantity a non-negative integer below
``2**53``, so exact, and every product of blocks one BLAS matrix product), ``int64`` (no BLAS; shoes
whose sums fit in 63 bits) or Python integers (object arrays; any shoe). :mod:`exact_odds.batch.plan`
decides which, by shoe size, and checks the float sums; :mod:`exact_odds.batch.fused` runs the same
steps compiled.

Arrays hold one composition per column (``b`` columns, a *chunk*): kind counts ``(kinds, b)``,
suit counts ``(13, 4, b)``. The layout and the blocks come from :mod:`exact_odds.batch.plan`.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from exact_odds.batch.kinds import DESIGNATION_CARDS, GG, F, G, Space
from exact_odds.core.shoe import CARDS_PER_COUP

if TYPE_CHECKING:
    import numpy.typing as npt

    from exact_odds.batch.plan import Layout, Plan, Stage

    IntArray = npt.NDArray[np.int64]
    FloatArray = npt.NDArray[np.float64]
    Array = npt.NDArray[Any]

FLOAT_MAX_CARDS = 456
"""Largest shoe whose part values float64 holds exactly: 456**6 <= 2**53 < 457**6."""
INT64_MAX_CARDS = 1448
"""Largest shoe whose sequences int64 holds: 1448**6 < 2**63 <= 1449**6."""

# ---------------------------------------------------------------- factor tables


def falling_into(n: Any, shift: int, out: Any) -> None:
    """``out[j] = falling(n - shift, j) = (n - shift) (n - shift - 1) ... (n - shift - j + 1)`` for
    ``j = 0 .. len(out) - 1``, in the dtype of ``out`` (float64, int64 or Python integers). The one
    falling-factorial table of bulk evaluation: written with operations numba also compiles
    (:mod:`exact_odds.batch.loops` runs it as it is). For ``n >= 0`` a negative factor only ever
    follows a zero one, so ``falling(n, j)`` is exact in any dtype that holds the result.

    >>> out = np.empty((4, 2), dtype=np.int64)
    >>> falling_into(np.array([52, 2]), 0, out)
    >>> out.tolist()
    [[1, 1], [52, 2], [2652, 2], [132600, 0]]
    """
    out[0] = 1
    for j in range(1, out.shape[0]):
        out[j] = out[j - 1] * (n - (shift + j - 1))


def falling_table(n: Array, shift: int = 0) -> Array:
    """:func:`falling_into` of ``n`` for ``j = 0 .. 6``, a new array of shape ``(7,) + n.shape``."""
    out = np.empty((CARDS_PER_COUP + 1, *n.shape), dtype=n.dtype)
    falling_into(n, shift, out)
    return out


def sequences(sizes: IntArray) -> Array:
    """``N (N-1) ... (N-5)`` per shoe of ``sizes`` cards: int64 when every one fits, else Python
    integers (object array)."""
    wide = int(sizes.max(initial=0)) > INT64_MAX_CARDS
    found: Array = falling_table(sizes.astype(object) if wide else sizes)[CARDS_PER_COUP]
    return found


def suit_factors(suits: IntArray) -> tuple[IntArray, IntArray]:
    """Per rank: ordered suited pairs, and ordered pairs of suited pairs, exact int64.

    ``suits`` has shape (13, 4, b). The first counts ordered pairs of distinct cards of one
    suit, ``sum_s n_s (n_s - 1)``; the second ordered 4-tuples of distinct cards with cards
    1, 3 of one suit and cards 2, 4 of one suit. Results have shape (13, b).
    """
    table = falling_table(suits)
    f2, f4 = table[2], table[4]
    suited = f2.sum(axis=1)
    return suited, suited * suited - (f2 * f2).sum(axis=1) + f4.sum(axis=1)


def factor_table(space: Space, kinds: Array, suits: IntArray | None) -> Array:
    """Value of every (kind, multiplicity, designation), rows ``(kind * 7 + m) * types + t``, in the
    dtype of ``kinds`` (float64: exact for shoes of at most 456 cards; int64 for at most 1,448;
    Python integers). ``kinds``: (kinds, b) counts; ``suits``: (13, 4, b) at ``Detail.SUITS``.
    """
    k, b = kinds.shape
    table = np.zeros((k, CARDS_PER_COUP + 1, space.types, b), dtype=kinds.dtype)
    falling_into(kinds, 0, table[:, :, F].transpose(1, 0, 2))
    if space.suited:
        assert suits is not None
        for t, q in zip((G, GG), suit_factors(suits), strict=True):
            cards = DESIGNATION_CARDS[t]
            shifted = table[:, cards:, t].transpose(1, 0, 2)
            falling_into(kinds, cards, shifted)
            shifted *= q.astype(kinds.dtype)
    return table.reshape(-1, b)


# ---------------------------------------------------------------- values and blocks


_LOCAL = threading.local()


def buffer(name: str, shape: tuple[int, ...], dtype: Any = np.float64) -> Array:
    """A reusable work array (uninitialised): large temporaries allocated afresh for every chunk
    would cost a page fault per 4 KB. One of each name, shape and dtype is kept per thread (so
    that threads evaluating at once, as Dask's may, never share one); object arrays are new."""
    if dtype is object:
        return np.empty(shape, dtype=object)
    buffers: dict[tuple[str, tuple[int, ...], Any], Array] = _LOCAL.__dict__.setdefault("buffers", {})
    key = (name, shape, dtype)
    if key not in buffers:
        if len(buffers) > 64:
            buffers.clear()
        buffers[key] = np.empty(shape, dtype=dtype)
    return buffers[key]


def part_values(layout: Layout, factors: Array) -> Array:
    """Values of every part of the layout (rows) for each composition (columns of ``factors``), in
    the dtype of ``factors``: row 0 is 1, and each later row its parent's times one factor, a level
    (rows of equal card count) at a time (compiled, a row at a time:
    :func:`exact_odds.batch.loops.part_values`)."""
    values = buffer("values", (len(layout.parent), factors.shape[1]), factors.dtype)
    values[0] = 1
    step = factors[layout.factor]
    for start, stop in layout.levels:
        np.multiply(values[layout.parent[start:stop]], step[start:stop], out=values[start:stop])
    return values


def run(plan: Plan, factors: Array) -> list[Array]:
    """Each stage's sums (functionals x compositions), in the dtype of ``factors``.

    For each block, one product ``matrix @ values[m_rows]`` (BLAS in float64) gives, per row part
    ``r`` and functional ``f``, the sum over the other side; multiplying by the row part's value
    and adding over the rows of every block gives the stage's sums.
    """
    values = part_values(plan.layout, factors)
    return [_products(stage, values).sum(axis=0) for stage in plan.stages]


def _products(stage: Stage, values: Array) -> Array:
    """Per row part of the stage and functional, the block's product ``matrix @ values[m_rows]``
    times the row part's value (shape (rows, functionals, b))."""
    b, dtype = values.shape[1], values.dtype
    partial = buffer(f"partial{stage.depth}", (stage.rows, len(stage.functionals), b), dtype)
    for block in stage.blocks:
        (m0, m1), (r0, r1) = block.m_rows, block.r_rows
        seg = partial[block.at:block.at + r1 - r0]
        matrix = block.matrix if dtype == np.float64 else block.integers
        np.matmul(matrix, values[m0:m1], out=seg.reshape(-1, b))
        np.multiply(seg, values[r0:r1, None, :], out=seg)
    return partial
