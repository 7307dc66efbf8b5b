"""The bulk kernel's element-wise loops, compiled (numba): imported only through :mod:`exact_odds.batch.compiled`.

Each loop does what a step of :mod:`exact_odds.batch.kernel` does with NumPy, on the same
float64 numbers in the same order of operations, so the results are the same exact integers;
compiled, a chunk's factors, part values and stage sums are computed in one pass over data
that stays in the processor's cache, where NumPy makes a pass over memory per operation. The
matrix products stay in BLAS. Compiled code is cached on disk (numba's cache: next to this
file, or the user's cache directory when that is not writable), so a process pays the
compilation once per machine and a load of about a tenth of a second afterwards.

Arrays are C-contiguous; compositions are columns (the last axis) throughout.
"""

from __future__ import annotations

import numba

_jit = numba.njit(cache=True, nogil=True)


@_jit
def point_counts(counts, points, out):
    """``out[points[r], i] += counts[i, r]``: point-class counts (10, n) of rank counts (n, 13), int64,
    added into ``out`` (zeros)."""
    for i in range(counts.shape[0]):
        for r in range(counts.shape[1]):
            out[points[r], i] += counts[i, r]


@_jit
def falling_table(kinds, out):
    """``out[k * 7 + j, i] = falling(kinds[k, i], j)`` for j = 0..6, as float64 products taken in the
    order of :func:`exact_odds.batch.kernel._float_falling` (``out`` of shape (kinds * 7, b))."""
    depth = out.shape[0] // kinds.shape[0]
    for k in range(kinds.shape[0]):
        row = kinds[k]
        one = out[k * depth]
        for i in range(row.shape[0]):
            one[i] = 1.0
        for j in range(1, depth):
            prev, this = out[k * depth + j - 1], out[k * depth + j]
            for i in range(row.shape[0]):
                this[i] = prev[i] * (row[i] - (j - 1))


@_jit
def part_values(factors, parent, factor, values):
    """``values[0] = 1``; ``values[p] = values[parent[p]] * factors[factor[p]]`` for every later part
    (a part's parent always comes before it), as in :func:`exact_odds.batch.kernel.part_values`."""
    first = values[0]
    for i in range(first.shape[0]):
        first[i] = 1.0
    for p in range(1, parent.shape[0]):
        this, up, step = values[p], values[parent[p]], factors[factor[p]]
        for i in range(this.shape[0]):
            this[i] = up[i] * step[i]


@_jit
def stage_sums(partial, values, rows, out):
    """``out[f] = sum over r of partial[r, f] * values[rows[r]]`` (the rows in order), shape (F, b)."""
    out[:, :] = 0.0
    for r in range(partial.shape[0]):
        weight = values[rows[r]]
        for f in range(partial.shape[1]):
            src, dst = partial[r, f], out[f]
            for i in range(dst.shape[0]):
                dst[i] += src[i] * weight[i]


@_jit
def wrapped_products(columns, table, out):
    """``out = columns @ table`` modulo ``2**64`` (uint64 arithmetic wraps), shapes (n, c) @ (c, k)."""
    for i in range(columns.shape[0]):
        row, dst = columns[i], out[i]
        for j in range(dst.shape[0]):
            dst[j] = 0
        for c in range(row.shape[0]):
            x, weights = row[c], table[c]
            for j in range(dst.shape[0]):
                dst[j] += x * weights[j]
