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
import numpy as np

from exact_odds.batch import kernel

_jit = numba.njit(cache=True, nogil=True)

falling_into = _jit(kernel.falling_into)
"""The falling-factorial table of :func:`exact_odds.batch.kernel.falling_into`, compiled as it is."""


@_jit
def part_values(factors, parent, factor, values, weights, sums):
    """``values[0] = 1``; ``values[p] = values[parent[p]] * factors[factor[p]]`` for every later part
    (a part's parent always comes before it): :func:`exact_odds.batch.kernel.part_values` a row at a
    time, which keeps a chunk's values in cache (NumPy's must take a level at a time);
    the parts past the rows of ``values``, if any, are weighed instead of stored
    (:func:`weighed_tail`)."""
    first = values[0]
    for i in range(first.shape[0]):
        first[i] = 1.0
    for p in range(1, values.shape[0]):
        this, up, step = values[p], values[parent[p]], factors[factor[p]]
        for i in range(this.shape[0]):
            this[i] = up[i] * step[i]
    if parent.shape[0] > values.shape[0]:
        weighed_tail(factors, parent, factor, values, weights, sums)


@_jit
def weighed_tail(factors, parent, factor, values, weights, sums):
    """``sums[f] = sum over the parts p past the rows of values of weights[f, p - len(values)]
    * values[parent[p]] * factors[factor[p]]`` for two functionals (f = 0, 1), the parents being
    rows of ``values``: the product ``weights @ values[tail]`` that the parts' values would
    otherwise be stored for, made as they are (four parts at a time, so that each pass over the
    sums adds four terms). Non-negative integer terms: exact below ``2**53`` in any order."""
    first, end = values.shape[0], parent.shape[0]
    a, b = sums[0], sums[1]
    a[:] = 0.0
    b[:] = 0.0
    p = first
    while p + 3 < end:
        u0, s0, u1, s1 = values[parent[p]], factors[factor[p]], values[parent[p + 1]], factors[factor[p + 1]]
        u2, s2, u3, s3 = values[parent[p + 2]], factors[factor[p + 2]], values[parent[p + 3]], factors[factor[p + 3]]
        k = p - first
        w0, w1, w2, w3 = weights[0, k], weights[0, k + 1], weights[0, k + 2], weights[0, k + 3]
        x0, x1, x2, x3 = weights[1, k], weights[1, k + 1], weights[1, k + 2], weights[1, k + 3]
        for i in range(a.shape[0]):
            v0, v1, v2, v3 = u0[i] * s0[i], u1[i] * s1[i], u2[i] * s2[i], u3[i] * s3[i]
            a[i] += (w0 * v0 + w1 * v1) + (w2 * v2 + w3 * v3)
            b[i] += (x0 * v0 + x1 * v1) + (x2 * v2 + x3 * v3)
        p += 4
    for q in range(p, end):
        up, step, w, x = values[parent[q]], factors[factor[q]], weights[0, q - first], weights[1, q - first]
        for i in range(a.shape[0]):
            v = up[i] * step[i]
            a[i] += w * v
            b[i] += x * v


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
def chunk_kinds(counts, kind_of, start, kinds):
    """``kinds[k, i]``: the cards of kind ``k`` (``kind_of[rank]``) of composition ``start + i`` of
    the rank counts ``counts`` (n, 13)."""
    kinds[:, :] = 0
    for i in range(kinds.shape[1]):
        row = counts[start + i]
        for r in range(row.shape[0]):
            kinds[kind_of[r], i] += row[r]


@_jit
def chunk_values(counts, kind_of, start, parent, factor, kinds, factors, values, weights, sums):
    """A chunk's kind counts, factor table and part values in one call, for the ``values.shape[1]``
    compositions from row ``start`` of the rank counts ``counts`` (n, 13): ``kinds[k, i]``, the
    cards of kind ``k`` (``kind_of[rank]``); ``factors[k * 7 + j, i] = falling(kinds[k, i], j)``
    (:func:`falling_into`); then :func:`part_values` (with the weighed tail of ``weights`` and ``sums``)."""
    chunk_kinds(counts, kind_of, start, kinds)
    depth = factors.shape[0] // kinds.shape[0]
    for k in range(kinds.shape[0]):
        falling_into(kinds[k], 0, factors[k * depth:(k + 1) * depth])
    part_values(factors, parent, factor, values, weights, sums)


@_jit
def stage_into(partial, values, rows, columns, sizes, leading, start, limit, total, out, bad):
    """A stage's sums (:func:`stage_sums`, into the work array ``total``) written to
    ``out[start + i, columns[f]]`` as int64, times ``(N - 4)(N - 5)`` when ``leading``;
    ``bad[i]`` set where a sum reached ``limit`` (``2**53``: not proven exact; the row is redone).
    Returns how many compositions were bad."""
    stage_sums(partial, values, rows, total)
    found = 0
    for i in range(total.shape[1]):
        rest = (sizes[start + i] - 4) * (sizes[start + i] - 5) if leading else 1
        for f in range(total.shape[0]):
            x = total[f, i]
            if x >= limit:
                bad[i] = True
            out[start + i, columns[f]] = np.int64(x) * rest
        if bad[i]:
            found += 1
    return found
